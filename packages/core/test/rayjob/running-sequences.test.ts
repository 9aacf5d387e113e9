/**
 * Issue 8's invariants over generated observation sequences (a world whose Ray job only moves forward, a
 * flaky dashboard, lost status writes, unacknowledged stops). Fixed seed, small count; the bench plays
 * >= 100,000 decisions of the same model (`npm run bench -- decision-sequences`).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkTrace, invariants } from './sequences/invariants.ts';
import { play, scenarioArb } from './sequences/world.ts';

describe('Running and the terminal states over observation sequences', () => {
  it('hold every invariant, and every invariant is put to the test', () => {
    const exercised = new Map<string, number>();
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        const failure = checkTrace(play(scenario), exercised);
        if (failure) throw new Error(`${failure.invariant}: ${failure.violation} (reconcile ${failure.at})`);
      }),
      { numRuns: 1000, seed: 20261203 },
    );
    for (const inv of invariants) expect(exercised.get(inv.name) ?? 0, inv.name).toBeGreaterThan(20);
  });
});
