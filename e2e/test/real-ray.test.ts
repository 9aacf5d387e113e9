// The seed cases (C1, C2, C6, C7) on real Ray heads in sandbox pods, where the real-Ray tier is provisioned
// (tools/ray/provision.sh; $RAYJOB_REAL_RAY_BIN or $RAYJOB_RAY_VENV/bin, default /opt/rayjob-ray-venv/bin). The
// faults are real: the head pod's `ray-dashboard-JobHead` process killed, its `ray::DashboardAgent` killed with
// SIGKILL — only that pod's processes (found by its network namespace; the sandbox has no PID namespaces).
// Elsewhere each case is reported `skipped: <why>`, never passed. The four run at once (each head ~1.7 GB).
import { rmSync } from 'node:fs';
import { findRealRayBin } from '@rayjob/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxDriver, type SandboxDriver } from '../src/drivers/sandbox-driver.ts';
import { runScenario, type ScenarioResult } from '../src/run/run-scenario.ts';
import { stateHostDir } from '../src/scenario/manifests.ts';
import { realRayScenarios } from '../src/scenarios/real-ray.ts';

const rayBin = findRealRayBin();
const scenarios = realRayScenarios();
let driver: SandboxDriver | undefined;
const results = new Map<string, Promise<ScenarioResult>>();
const print = (line: string) => process.stdout.write(`[real-ray] ${line}\n`);

beforeAll(async () => {
  if (rayBin === undefined) return;
  driver = await startSandboxDriver({ realRayBin: rayBin });
  const started = driver;
  for (const scenario of scenarios) results.set(scenario.id, runScenario(started, scenario, { print, intervalMs: 1000 }));
});

afterAll(async () => {
  await Promise.allSettled(results.values());
  await driver?.close();
  rmSync(stateHostDir, { recursive: true, force: true });
});

describe('sandbox driver on real Ray heads', () => {
  it.for(scenarios.map((s) => [s.id, s.title] as const))('%s: %s', { timeout: 20 * 60_000 }, async ([id], ctx) => {
    if (rayBin === undefined) {
      const why = 'real Ray is not provisioned (tools/ray/provision.sh; or set RAYJOB_REAL_RAY_BIN to a Ray bin directory)';
      process.stdout.write(`skipped: ${why}\n`);
      ctx.skip(`skipped: ${why}`);
      return;
    }
    const result = await results.get(id);
    expect(result?.problems, result?.timeline.join('\n')).toEqual([]);
  });
});
