// Benchmark (not a test) of the fault campaign: seeds per minute and CPU per seed on this machine, with the load
// average beside them (on a shared machine the same code runs at very different speeds).
//   node e2e/bench/campaign.ts [--seeds 12] [--first 1001] [--concurrency 12]
// The seeds are not CI's (1-8): a bench run is a small campaign too, and reports any wrong outcome it finds.
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { describeFailure, runCampaign } from '../src/campaign/campaign.ts';

const { values } = parseArgs({ options: { seeds: { type: 'string', default: '12' }, first: { type: 'string', default: '1001' }, concurrency: { type: 'string', default: '12' } } });
const count = Number(values.seeds);
const first = Number(values.first);
const concurrency = Number(values.concurrency);
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

const loadBefore = load();
const cpuBefore = process.cpuUsage();
const result = await runCampaign({ seeds: Array.from({ length: count }, (_, i) => first + i), concurrency, operatorRestarts: true });
const cpu = process.cpuUsage(cpuBefore);
const seconds = result.results.map((r) => r.seconds).sort((a, b) => a - b);
console.log(`seeds: ${count} (${first}..${first + count - 1}), concurrency ${concurrency}`);
console.log(`wall: ${result.minutes.toFixed(2)} min; seeds per minute: ${result.seedsPerMinute.toFixed(1)}`);
console.log(`seed time: median ${seconds[Math.floor(seconds.length / 2)]?.toFixed(0)} s, max ${seconds.at(-1)?.toFixed(0)} s`);
console.log(`campaign process CPU (sandbox, observers): ${((cpu.user + cpu.system) / 1e6 / count).toFixed(2)} s per seed (pods and operator not counted)`);
console.log(`load average before: ${loadBefore}; after: ${load()} (2 cores shared)`);
console.log(`wrong outcomes: ${result.failures.length}; operator crashes: ${result.operatorCrashes.length}`);
for (const failure of result.failures) console.log(describeFailure(failure));
