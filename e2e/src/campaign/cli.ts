#!/usr/bin/env node
// `npm run campaign -- --seeds N [--first S] [--concurrency C]`: N seeded random fault schedules on one sandbox
// (our operator behind the API fault proxy), each judged by the rules in judge.ts. A failure prints its seed
// and the one-line command that replays it alone. `--seed S` replays one seed.
import { parseArgs } from 'node:util';
import { replayCommand, runCampaign } from './campaign.ts';
import type { SeedResult } from './run-seed.ts';

const usage = 'usage: npm run campaign -- [--seeds N] [--first S] [--concurrency C] [--no-operator-restarts] [--dir D] | --seed S';

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
      'no-operator-restarts': { type: 'boolean' }, dir: { type: 'string' }, help: { type: 'boolean' },
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
const concurrency = Math.max(1, positiveInt('concurrency', values.concurrency as string | undefined, 12));
const operatorRestarts = values['no-operator-restarts'] !== true;

const failures: SeedResult[] = [];
// Ctrl-C (or SIGTERM) stops the sandbox, its pods and the operator before exiting: the campaign runs dozens of
// pod processes, and without this they outlived it.
const interrupt = new AbortController();
const exitCodeFor = { SIGINT: 130, SIGTERM: 143 } as const;
let interruptedBy: keyof typeof exitCodeFor | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interruptedBy = signal;
    process.stderr.write(`campaign: ${signal}: stopping the sandbox, its pods and the operator ...\n`);
    interrupt.abort();
  });
}
const campaign = await runCampaign({
  seeds: Array.from({ length: count }, (_, i) => first + i),
  concurrency,
  operatorRestarts,
  signal: interrupt.signal,
  ...(typeof values.dir === 'string' && { dir: values.dir }),
  onSeed: (result, done) => {
    const verdict = result.problems.length === 0 ? 'ok' : `WRONG: ${result.problems.join('; ')}`;
    const phases = Object.entries(result.phases).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ');
    process.stdout.write(`seed ${result.seed} (${done}/${count}, ${result.seconds.toFixed(0)} s: ${phases}): ${verdict}\n`);
    if (result.problems.length > 0 || single !== undefined) process.stdout.write(`${result.events.map((e) => `  ${e}`).join('\n')}\n`);
    if (result.problems.length > 0) {
      failures.push(result);
      process.stdout.write(`  replay: ${replayCommand(result.seed)}\n`);
    }
  },
});
if (campaign.interrupted) {
  const wrong = failures.length > 0 ? `; failing seeds: ${failures.map((f) => f.seed).join(' ')}` : '';
  process.stdout.write(`campaign: interrupted after ${campaign.results.length} of ${count} seeds, ${failures.length} wrong outcome(s)${wrong}; sandbox, pods and operator stopped\n`);
  process.exit(exitCodeFor[interruptedBy ?? 'SIGINT']);
}
process.stdout.write(
  `campaign: ${campaign.results.length} seeds, ${failures.length} wrong outcome(s), ${campaign.minutes.toFixed(1)} min (${campaign.seedsPerMinute.toFixed(1)} seeds/min, concurrency ${concurrency}); API faults injected: ${JSON.stringify(campaign.apiFaultsInjected)}\n`,
);
if (failures.length > 0) process.stdout.write(`failing seeds: ${failures.map((f) => f.seed).join(' ')}\n`);
for (const crash of campaign.operatorCrashes) process.stdout.write(`WRONG: ${crash}\n`);
process.exitCode = failures.length === 0 && campaign.operatorCrashes.length === 0 ? 0 : 1;
