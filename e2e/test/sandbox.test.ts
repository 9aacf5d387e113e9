// Every scenario on the sandbox driver: one sandbox with our operator, all scenarios at once, each in its own
// namespace (a platform's cluster runs many RayJobs side by side; so does this suite, within 2 cores).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxDriver, type SandboxDriver } from '../src/drivers/sandbox-driver.ts';
import { createLimit } from '../src/run/limit.ts';
import { longestFirst } from '../src/run/longest-first.ts';
import { preparePodPrograms, type PodPrograms } from '../src/drivers/pod-programs.ts';
import { stateHostDir } from '../src/scenario/manifests.ts';
import { runScenario, type ScenarioResult } from '../src/run/run-scenario.ts';
import { scenarios } from '../src/scenarios/index.ts';

let driver: SandboxDriver;
let programs: PodPrograms | undefined;
const results = new Map<string, Promise<ScenarioResult>>();
const print = (line: string) => process.stdout.write(`${line}\n`);

/** Scenarios at once: enough to keep the operator busy with many RayJobs, few enough for 2 cores. */
const concurrency = Number(process.env.RAYJOB_E2E_CONCURRENCY ?? 6);

beforeAll(async () => {
  // The submitter as its image ships it (the bundle, built from this checkout) and a compile cache: the same code,
  // less CPU per pod start, and this file is bound by CPU (many scenarios at once on 2 cores).
  programs = await preparePodPrograms();
  driver = await startSandboxDriver({ podPrograms: programs });
  const limit = createLimit(concurrency);
  for (const scenario of longestFirst(scenarios)) results.set(scenario.id, limit(() => runScenario(driver, scenario, { print })));
});

afterAll(async () => {
  await Promise.allSettled(results.values());
  await driver?.close();
  await programs?.remove();
  rmSync(stateHostDir, { recursive: true, force: true });
});

describe('sandbox driver', () => {
  it.each(scenarios.map((s) => [s.id, s.title] as const))('%s: %s', async (id) => {
    const result = await results.get(id);
    expect(result?.problems, result?.timeline.join('\n')).toEqual([]);
  });
});
