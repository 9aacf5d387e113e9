// The order a suite starts its scenarios in, when it runs several at once: the longest first, so the suite is not
// left waiting on a long scenario (C8 holds ~2 min) that happened to start last.
import type { Scenario } from '../scenario/types.ts';

/** The least a scenario can take: its job's run (cut by activeDeadlineSeconds) or its holds, whichever is longer. */
export function leastSeconds(scenario: Scenario): number {
  const job = scenario.rayJob.steps * scenario.rayJob.stepSeconds;
  const holds = scenario.steps.reduce((sum, step) => sum + (step.kind === 'hold' ? step.seconds : 0), 0);
  return Math.max(Math.min(job, scenario.rayJob.activeDeadlineSeconds ?? Infinity), holds);
}

export function longestFirst<S extends Scenario>(scenarios: readonly S[]): S[] {
  return [...scenarios].sort((a, b) => leastSeconds(b) - leastSeconds(a));
}
