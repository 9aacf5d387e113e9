// A CI-sized fault campaign: a fixed set of seeds through the same code as `npm run campaign` (one sandbox, our
// operator behind the API fault proxy, seeds run concurrently), each seed judged by the campaign's rules. A
// failure names the seed, its events and the command that replays it alone.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeFailure, hasSharedFaults, runCampaign, type CampaignResult } from '../src/campaign/campaign.ts';
import { planSeed, describeFault } from '../src/campaign/schedule.ts';
import { stateHostDir } from '../src/scenario/manifests.ts';

/** Fixed seeds: between them every submission mode, job faults, API faults and an operator restart. */
const seeds = [1, 2, 3, 4, 5, 6, 7, 8];
const concurrency = seeds.length;

/** Replayed alone after the batch: an API fault aimed at its own namespace, none that reaches every seed. */
const replayed = 8;

let campaign: CampaignResult;
let replay: CampaignResult;

beforeAll(async () => {
  campaign = await runCampaign({
    seeds,
    concurrency,
    operatorRestarts: true,
    onSeed: (r, done) => process.stdout.write(`[campaign] seed ${r.seed} (${done}/${seeds.length}, ${r.seconds.toFixed(0)} s): ${r.problems.length === 0 ? 'ok' : 'WRONG'}\n`),
  });
  process.stdout.write(`[campaign] ${seeds.length} seeds in ${campaign.minutes.toFixed(1)} min (${campaign.seedsPerMinute.toFixed(1)} seeds/min)\n`);
  // What the printed replay command (`npm run campaign -- --seed 8`) runs: the same campaign, one seed, alone.
  replay = await runCampaign({ seeds: [replayed], concurrency, operatorRestarts: true });
  process.stdout.write(`[campaign] replay of seed ${replayed} alone: ${replay.minutes.toFixed(1)} min\n`);
}, 1_200_000);

afterAll(() => rmSync(stateHostDir, { recursive: true, force: true }));

describe('fault campaign (CI seeds)', () => {
  it('the fixed seeds cover each mode and each kind of fault', () => {
    const plans = seeds.map((s) => planSeed(s, { operatorRestarts: true }));
    const modes = new Set(plans.map((p) => p.shape.mode));
    const kinds = new Set(plans.flatMap((p) => p.faults.map((f) => f.fault.kind)));
    expect([...modes].sort()).toEqual(['HTTPMode', 'K8sJobMode', 'SidecarMode']);
    expect([...kinds].sort(), plans.map((p) => `${p.seed}: ${p.faults.map((f) => describeFault(f.fault)).join(',')}`).join('\n')).toEqual(['api', 'job', 'operator']);
  });

  it('the operator never exited on its own', () => {
    expect(campaign.operatorCrashes).toEqual([]);
  });

  it('a seed replayed alone has the schedule, the faults and the outcome it had in the batch', () => {
    const inBatch = campaign.results.find((r) => r.seed === replayed);
    const alone = replay.results[0];
    expect(inBatch && alone, 'the seed ran in both').toBeTruthy();
    if (!inBatch || !alone) return;
    expect(hasSharedFaults(planSeed(replayed, { operatorRestarts: true }))).toBe(false);
    const fired = (events: string[]) => events.filter((e) => / fault /.test(e)).map((e) => e.replace(/^\[[^\]]*\] /, '').replace(/ at step \d+$/, ''));
    expect(alone.plan).toEqual(inBatch.plan);
    expect(fired(alone.events)).toEqual(fired(inBatch.events));
    expect([alone.outcome, alone.problems]).toEqual([inBatch.outcome, inBatch.problems]);
    // Alone, the proxy injected exactly what its schedule asked for (aimed at its namespace, all of it reached it).
    expect(replay.apiFaultsInjected).toEqual({ 409: 3 });
  });

  it.each(seeds)('seed %i ends with no wrong outcome', (seed) => {
    const result = campaign.results.find((r) => r.seed === seed);
    expect(result, `seed ${seed} did not run`).toBeDefined();
    if (result && result.problems.length > 0) expect.fail(describeFailure(result));
  });
});
