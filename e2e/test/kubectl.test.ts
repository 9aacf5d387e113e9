// The kubectl driver against the sandbox: the same scenarios, with every read, write and fault done by the real
// `kubectl` binary through a kubeconfig (delete pod, delete pod --force --grace-period=0, exec ... pkill, patch,
// get --raw through the service proxy), so this code path is tested here and not only on kind. Each sandbox
// container has its own PID namespace (as a real container does), so `kubectl exec <head> -- pkill -f ...`
// reaches that head's processes only and scenarios run side by side.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKubectlDriver } from '../src/drivers/kubectl-driver.ts';
import { startSandboxDriver, type SandboxDriver } from '../src/drivers/sandbox-driver.ts';
import type { Driver } from '../src/drivers/types.ts';
import type { Scenario } from '../src/scenario/types.ts';
import { createLimit } from '../src/run/limit.ts';
import { longestFirst } from '../src/run/longest-first.ts';
import { preparePodPrograms, type PodPrograms } from '../src/drivers/pod-programs.ts';
import { stateHostDir } from '../src/scenario/manifests.ts';
import { runScenario, type ScenarioResult } from '../src/run/run-scenario.ts';
import { planFor } from '../src/scenarios/plan.ts';

/** Scenarios at once: every look is several kubectl processes, so fewer than the sandbox suite runs. */
const concurrency = Number(process.env.RAYJOB_E2E_KUBECTL_CONCURRENCY ?? 5);

let sandbox: SandboxDriver;
let kubectl: Driver;
let programs: PodPrograms | undefined;
/** The kubectl driver's abilities do not depend on the cluster, so the plan is known before the sandbox starts. */
const plan = planFor(createKubectlDriver({ kubeconfigPath: '' }).abilities);
const results = new Map<string, Promise<ScenarioResult>>();
const print = (line: string) => process.stdout.write(`[kubectl] ${line}\n`);

/**
 * A look through kubectl is several processes and takes a second or more, so with ttlSecondsAfterFinished 0 the
 * cluster (and the Ray job's last log lines) may be gone before any look reads them. Where a scenario checks the
 * logs, its cluster here outlives the job by a few seconds; it must still be deleted (stated in the output).
 */
const ttlForLogs = 8;
function readableFinalLogs(scenario: Scenario): Scenario {
  if (scenario.rayJob.ttlSecondsAfterFinished !== 0 || (scenario.expect.logsContain ?? []).length === 0) return scenario;
  print(`${scenario.id}: ttlSecondsAfterFinished 0 -> ${ttlForLogs} so a kubectl look can read the job's final logs before the cluster goes`);
  return { ...scenario, rayJob: { ...scenario.rayJob, ttlSecondsAfterFinished: ttlForLogs } };
}

beforeAll(async () => {
  for (const { scenario, reason } of plan.skipped) print(`skipped: ${scenario.id}: ${reason}`);
  programs = await preparePodPrograms();
  sandbox = await startSandboxDriver({ podPrograms: programs });
  kubectl = createKubectlDriver({ kubeconfigPath: sandbox.kubeconfigPath, env: { KUBECACHEDIR: `${sandbox.sandbox.dir}/kubectl-cache` } });
  const limit = createLimit(concurrency);
  for (const scenario of longestFirst(plan.run).map(readableFinalLogs)) {
    results.set(scenario.id, limit(() => runScenario(kubectl, scenario, { print, namespace: `kubectl-${scenario.id.toLowerCase()}`, intervalMs: 1000 })));
  }
});

afterAll(async () => {
  await Promise.allSettled(results.values());
  await kubectl?.close();
  await sandbox?.close();
  await programs?.remove();
  rmSync(stateHostDir, { recursive: true, force: true });
});

describe('kubectl driver (against the sandbox)', () => {
  it.each(plan.run.map((s) => [s.id, s.title] as const))('%s: %s', async (id) => {
    const result = await results.get(id);
    print(`${id}: ${result?.passed ? 'passed' : 'FAILED'} in ${result?.seconds.toFixed(1)} s`);
    expect(result?.problems, result?.timeline.join('\n')).toEqual([]);
  });
  it.skip.each(plan.skipped.map(({ scenario, reason }) => [scenario.id, reason] as const))('%s: skipped: %s', () => {});
});
