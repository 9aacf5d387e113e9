// kind with Ray 2.55.1: the kubectl driver plus the cluster's lifecycle (create, build and load our images,
// helm install, real Ray). Where Docker, an engine, kind or helm is missing the test is reported skipped with the
// reason — never passed.
import { afterAll, describe, expect, it } from 'vitest';
import { startKindDriver, type KindDriver } from '../src/drivers/kind-driver.ts';
import { runScenario } from '../src/run/run-scenario.ts';
import { scenarioById } from '../src/scenarios/index.ts';

let driver: KindDriver | undefined;
afterAll(async () => {
  await driver?.close();
});

describe('kind driver (rayproject/ray:2.55.1)', () => {
  it('runs the seed cases C1, C2, C6 and C7 on real Ray', { timeout: 60 * 60_000 }, async (ctx) => {
    const started = await startKindDriver();
    if ('skipped' in started) {
      process.stdout.write(`skipped: ${started.skipped}\n`);
      ctx.skip(`skipped: ${started.skipped}`);
      return;
    }
    driver = started;
    for (const id of ['C1', 'C2', 'C6', 'C7']) {
      const scenario = scenarioById(id);
      if (!scenario) throw new Error(`no scenario ${id}`);
      const result = await runScenario(started, scenario, { print: (l) => process.stdout.write(`[kind] ${l}\n`), intervalMs: 1000 });
      expect(result.problems, result.timeline.join('\n')).toEqual([]);
    }
  });
});
