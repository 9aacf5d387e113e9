// The seed cases (C1, C2, C6, C7) on real Ray heads in sandbox pods, where the real-Ray tier is provisioned
// (tools/ray/provision.sh; $RAYJOB_REAL_RAY_BIN or $RAYJOB_RAY_VENV/bin, default /opt/rayjob-ray-venv/bin). The
// faults are real: the head pod's `ray-dashboard-JobHead` process killed, its `ray::DashboardAgent` killed with
// SIGKILL — only that pod's processes (found by its network namespace; the sandbox has no PID namespaces).
// Elsewhere each case is reported `skipped: <why>`, never passed. The cases run one after another, each after the
// last one's pods are gone: a real head starts a dozen Python processes (~45 CPU-seconds), and two at once on
// 2 cores each take more than twice as long.
import { rmSync } from 'node:fs';
import { findRealRayBin } from '@rayjob/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restAccessFromKubeconfig, type RestAccess } from '../src/drivers/rest-access.ts';
import { startSandboxDriver, type SandboxDriver } from '../src/drivers/sandbox-driver.ts';
import { runScenario } from '../src/run/run-scenario.ts';
import { stateHostDir } from '../src/scenario/manifests.ts';
import { realRayScenarios } from '../src/scenarios/real-ray.ts';
import { podLogTails, removeNamespace } from '../src/run/namespace-teardown.ts';

const rayBin = findRealRayBin();
const scenarios = realRayScenarios();
let driver: SandboxDriver | undefined;
let rest: RestAccess | undefined;
const print = (line: string) => process.stdout.write(`[real-ray] ${line}\n`);

beforeAll(async () => {
  if (rayBin === undefined) return;
  // RAYJOB_E2E_SANDBOX_DIR keeps the sandbox (pod logs, each container's /tmp with Ray's session logs).
  const dir = process.env.RAYJOB_E2E_SANDBOX_DIR;
  driver = await startSandboxDriver({ realRayBin: rayBin, ...(dir && { dir }) });
  rest = restAccessFromKubeconfig(driver.kubeconfigPath);
});

afterAll(async () => {
  await rest?.close();
  await driver?.close();
  rmSync(stateHostDir, { recursive: true, force: true });
});

describe('sandbox driver on real Ray heads', () => {
  it.for(scenarios.map((s) => [s.id, s.title] as const))('%s: %s', { timeout: 15 * 60_000 }, async ([id], ctx) => {
    if (rayBin === undefined || driver === undefined || rest === undefined) {
      const why = 'real Ray is not provisioned (tools/ray/provision.sh; or set RAYJOB_REAL_RAY_BIN to a Ray bin directory)';
      process.stdout.write(`skipped: ${why}\n`);
      ctx.skip(`skipped: ${why}`);
      return;
    }
    const scenario = scenarios.find((s) => s.id === id);
    if (!scenario) throw new Error(`no scenario ${id}`);
    const namespace = `e2e-${id.toLowerCase()}`;
    const result = await runScenario(driver, scenario, { namespace, print, intervalMs: 1000, keep: true });
    print(`${id}: ${result.seconds.toFixed(0)} s`);
    // A failure shows what Ray said: the end of each pod's log (and of the run before a container restart).
    const logs = result.passed ? '' : await podLogTails(rest, namespace, 40);
    if (process.env.RAYJOB_E2E_SANDBOX_DIR === undefined) await removeNamespace(rest, namespace, 120_000);
    expect(result.problems, `${result.timeline.join('\n')}\n${logs}`).toEqual([]);
  });
});
