import type { ScenarioContext } from './context.ts';

/** A scenario's result: named observations, compared whole between targets. */
export type Observations = Record<string, unknown>;

export type Scenario = {
  name: string;
  /** Sends requests (and injects faults) and records what came back. */
  run(ctx: ScenarioContext): Promise<Observations>;
  /**
   * Asserts the documented facts (FINDINGS.md) on the real target's observations, so that a
   * run against real Ray alone can fail too. Throws on a mismatch.
   */
  check(observations: Observations): void;
};

/** Observations without the informational `_` keys (timings, raw texts): what is compared. */
export function comparable(o: Observations): Observations {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('_')));
}
