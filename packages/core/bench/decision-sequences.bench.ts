// Issue 8's invariants at scale: plays generated observation sequences (test/rayjob/sequences) until at least
// 100,000 decisions were made, checking every invariant on every reconcile; any violation fails the bench.
// Fixed seeds, so a run is reproducible. The rate is printed against a baseline measured in the same run (one
// structuredClone of a decision's RayJob, as in decide.bench.ts), so numbers compare across machines.
import fc from 'fast-check';
import { checkTrace, invariants, lossAfterTerminal } from '../test/rayjob/sequences/invariants.ts';
import { play, scenarioArb } from '../test/rayjob/sequences/world.ts';
import { inState } from '../test/rayjob/fixtures.ts';

const TARGET = 100_000;
const BATCH = 2_000;

const exercised = new Map<string, number>();
/** Issue 20's reach: decisions made after a terminal status was recorded, with the head or the cluster lost, by mode. */
const lossesAfterTerminal = new Map<string, number>();
let decisions = 0;
let scenarios = 0;
let playMs = 0;
for (let seed = 1; decisions < TARGET; seed++) {
  const batch = fc.sample(scenarioArb, { numRuns: BATCH, seed });
  const started = performance.now();
  for (const scenario of batch) {
    const trace = play(scenario);
    const failure = checkTrace(trace, exercised);
    if (failure) {
      console.error(`VIOLATION (seed ${seed}): ${failure.invariant}: ${failure.violation}\n${JSON.stringify(scenario)}`);
      process.exit(1);
    }
    decisions += trace.length;
    for (const r of trace) {
      const loss = lossAfterTerminal(r);
      if (!loss) continue;
      const key = `${loss === 'cluster' ? 'cluster deleted' : 'head lost'} after a terminal status, ${scenario.mode}`;
      lossesAfterTerminal.set(key, (lossesAfterTerminal.get(key) ?? 0) + 1);
      if (r.rayJobBefore.status?.jobDeploymentStatus === 'Running') lossesAfterTerminal.set(`${key}, while Running`, (lossesAfterTerminal.get(`${key}, while Running`) ?? 0) + 1);
    }
    scenarios++;
  }
  playMs += performance.now() - started;
}

const rayJob = inState('Running');
let clones = 0;
const cloneStart = performance.now();
while (performance.now() - cloneStart < 1000) {
  for (let i = 0; i < 200; i++) structuredClone(rayJob);
  clones += 200;
}
const baseline = clones / ((performance.now() - cloneStart) / 1000);
const rate = decisions / (playMs / 1000);

console.log(`decisions played and checked: ${decisions.toLocaleString('en')} in ${scenarios.toLocaleString('en')} sequences, 0 violations`);
for (const inv of invariants) console.log(`  ${(exercised.get(inv.name) ?? 0).toLocaleString('en').padStart(7)} reconciles put to the test: ${inv.name}`);
const reach = [...lossesAfterTerminal.entries()].sort(([a], [b]) => a.localeCompare(b));
const total = reach.filter(([k]) => !k.endsWith('while Running')).reduce((n, [, c]) => n + c, 0);
console.log(`decisions after a recorded terminal status with the head or cluster lost: ${total.toLocaleString('en')} (of them, with the RayJob still Running: the lines so marked)`);
for (const [key, count] of reach) console.log(`  ${count.toLocaleString('en').padStart(7)} ${key}`);
for (const kind of ['head lost', 'cluster deleted']) {
  for (const mode of ['K8sJobMode', 'SidecarMode', 'HTTPMode']) {
    if (!lossesAfterTerminal.get(`${kind} after a terminal status, ${mode}`)) {
      console.error(`the generator never reached: ${kind} after a terminal status, ${mode}`);
      process.exit(1);
    }
  }
}
console.log(`baseline (structuredClone of the RayJob): ${Math.round(baseline).toLocaleString('en')} /s`);
console.log(`sequence decisions (world + plan + decide + invariants): ${Math.round(rate).toLocaleString('en')} /s`);
console.log(`ratio sequence decisions / baseline: ${(rate / baseline).toFixed(3)}`);
