// The kubectl driver against the sandbox: the same scenarios, with every read, write and fault done by `kubectl`
// (delete pod, delete pod --force --grace-period=0, exec ... pkill, patch, get --raw through the service proxy),
// so this code path is tested here and not only on kind. The sandbox has no PID namespaces, so a `pkill` in one
// head pod reaches every head on the machine: the DashboardAgent kill (fatal to any head it reaches) runs alone,
// after the rest; a JobHead kill reaching other heads is a fault they must survive anyway.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKubectlDriver } from '../src/drivers/kubectl-driver.ts';
import { startSandboxDriver, type SandboxDriver } from '../src/drivers/sandbox-driver.ts';
import type { Driver } from '../src/drivers/types.ts';
import { stateHostDir } from '../src/scenario/manifests.ts';
import { runScenario, type ScenarioResult } from '../src/run/run-scenario.ts';
import { scenarioById } from '../src/scenarios/index.ts';

const together = ['C1', 'C2', 'C6', 'C12', 'C22'];
const alone = ['C7'];

let sandbox: SandboxDriver;
let kubectl: Driver;
const results = new Map<string, Promise<ScenarioResult>>();
const print = (line: string) => process.stdout.write(`[kubectl] ${line}\n`);

const scenario = (id: string) => {
  const s = scenarioById(id);
  if (!s) throw new Error(`no scenario ${id}`);
  return s;
};

beforeAll(async () => {
  sandbox = await startSandboxDriver();
  kubectl = createKubectlDriver({ kubeconfigPath: sandbox.kubeconfigPath, env: { KUBECACHEDIR: `${sandbox.sandbox.dir}/kubectl-cache` } });
  const first = together.map((id) => [id, runScenario(kubectl, scenario(id), { print, namespace: `kubectl-${id.toLowerCase()}`, intervalMs: 1000 })] as const);
  for (const [id, result] of first) results.set(id, result);
  const rest = Promise.allSettled(first.map(([, r]) => r));
  for (const id of alone) results.set(id, rest.then(() => runScenario(kubectl, scenario(id), { print, namespace: `kubectl-${id.toLowerCase()}`, intervalMs: 1000 })));
});

afterAll(async () => {
  await Promise.allSettled(results.values());
  await sandbox?.close();
  rmSync(stateHostDir, { recursive: true, force: true });
});

describe('kubectl driver (against the sandbox)', () => {
  it.each([...together, ...alone])('%s', async (id) => {
    const result = await results.get(id);
    expect(result?.problems, result?.timeline.join('\n')).toEqual([]);
  });
});
