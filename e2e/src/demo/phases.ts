// Where the demo's time goes, read from what the timeline observed: each phase ends at the first look that
// showed its end (so a phase is at most one look interval late), and the phases add up to the scenario's time.
import type { Observation } from '../run/observe.ts';

export interface Phase {
  name: string;
  seconds: number;
}

/** Scenario phases from apply to the verdict; a phase whose end was never seen is left out (with the rest). */
export function scenarioPhases(observations: readonly Observation[]): Phase[] {
  const steps = observations.find((o) => o.progressOf > 0)?.progressOf ?? 0;
  const ends: Array<[string, (o: Observation) => boolean]> = [
    ['operator picks up the RayJob', (o) => o.deploymentStatus !== ''],
    ['RayCluster ready (head pod Ready)', (o) => o.deploymentStatus === 'Running'],
    ['submitter starts, job submitted', (o) => o.progress >= 1],
    [`the job's ${steps} steps (both triggers)`, (o) => steps > 0 && o.progress >= steps],
    ['the end seen: Complete', (o) => o.deploymentStatus === 'Complete' || o.deploymentStatus === 'Failed'],
  ];
  const phases: Phase[] = [];
  let from = 0;
  let index = 0;
  for (const [name, reached] of ends) {
    while (index < observations.length && !reached(observations[index] as Observation)) index += 1;
    const at = observations[index];
    if (at === undefined) break;
    phases.push({ name, seconds: (at.atMs - from) / 1000 });
    from = at.atMs;
  }
  return phases;
}

/** `  name ........ 12.3 s` lines, aligned. */
export function formatPhases(phases: readonly Phase[]): string[] {
  const width = Math.max(...phases.map((p) => p.name.length));
  return phases.map((p) => `  ${p.name.padEnd(width, ' ')}  ${p.seconds.toFixed(1).padStart(5)} s`);
}
