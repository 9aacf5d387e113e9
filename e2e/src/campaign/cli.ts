#!/usr/bin/env node
// `npm run campaign -- --seeds N [--first S] [--concurrency C]`: N seeded random fault schedules on one sandbox
// (our operator behind the API fault proxy), each judged by the rules in judge.ts. A failure prints its seed
// and the one-line command that replays it alone. `--seed S` replays one seed.
import { parseArgs } from 'node:util';
import { startSandboxDriver } from '../drivers/sandbox-driver.ts';
import { createLimit } from '../run/limit.ts';
import { runSeed, type SeedResult } from './run-seed.ts';
import { planSeed } from './schedule.ts';

const usage = 'usage: npm run campaign -- [--seeds N] [--first S] [--concurrency C] [--no-operator-restarts] | --seed S';

function fail(message: string): never {
  process.stderr.write(`campaign: ${message}\n${usage}\n`);
  process.exit(2);
}

function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  return n;
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      seeds: { type: 'string' }, first: { type: 'string' }, seed: { type: 'string' }, concurrency: { type: 'string' },
      'no-operator-restarts': { type: 'boolean' }, help: { type: 'boolean' },
    },
    strict: true,
  }));
} catch (error) {
  fail((error as Error).message);
}
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const single = values.seed === undefined ? undefined : positiveInt('seed', values.seed as string, 0);
const first = single ?? positiveInt('first', values.first as string | undefined, 1);
const count = single === undefined ? positiveInt('seeds', values.seeds as string | undefined, 10) : 1;
const concurrency = Math.max(1, positiveInt('concurrency', values.concurrency as string | undefined, 6));
const operatorRestarts = values['no-operator-restarts'] !== true;

const started = Date.now();
const driver = await startSandboxDriver({ apiFaults: true });
const proxy = driver.proxy;
if (!proxy) fail('the API fault proxy did not start');
const limit = createLimit(concurrency);
const failures: SeedResult[] = [];
let done = 0;
const results = await Promise.all(
  Array.from({ length: count }, (_, i) => first + i).map((seed) =>
    limit(async () => {
      const result = await runSeed({ driver, proxy, operator: driver.operator }, planSeed(seed, { operatorRestarts }));
      done += 1;
      const verdict = result.problems.length === 0 ? 'ok' : `WRONG: ${result.problems.join('; ')}`;
      process.stdout.write(`seed ${seed} (${done}/${count}, ${result.seconds.toFixed(0)} s): ${verdict}\n`);
      if (result.problems.length > 0 || single !== undefined) process.stdout.write(`${result.events.map((e) => `  ${e}`).join('\n')}\n`);
      if (result.problems.length > 0) {
        failures.push(result);
        process.stdout.write(`  replay: npm run campaign -- --seed ${seed}\n`);
      }
      return result;
    })),
);
await driver.close();
const minutes = (Date.now() - started) / 60_000;
process.stdout.write(
  `campaign: ${results.length} seeds, ${failures.length} wrong outcome(s), ${minutes.toFixed(1)} min (${(results.length / minutes).toFixed(1)} seeds/min, concurrency ${concurrency}); API faults injected: ${JSON.stringify(proxy.injected())}\n`,
);
if (failures.length > 0) process.stdout.write(`failing seeds: ${failures.map((f) => f.seed).join(' ')}\n`);
process.exitCode = failures.length === 0 ? 0 : 1;
