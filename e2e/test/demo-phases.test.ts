// The demo's account of where its time went, read from the timeline's looks.
import { describe, expect, it } from 'vitest';
import { scenarioPhases } from '../src/demo/phases.ts';
import type { Observation } from '../src/run/observe.ts';

const look = (atMs: number, o: Partial<Observation>): Observation => ({
  atMs, deploymentStatus: '', jobStatus: '', reason: '', message: '', failed: 0, succeeded: 0, jobId: '', cluster: '', clusterExists: false,
  workersRunning: 0, submitter: 'none', submitterExited: false, progress: 0, progressOf: 0, submitterPods: [], ...o,
});

describe('demo phases', () => {
  it('each phase ends at the first look that shows its end, and the phases add up to the verdict', () => {
    const phases = scenarioPhases([
      look(500, {}),
      look(1_500, { deploymentStatus: 'Initializing' }),
      look(4_000, { deploymentStatus: 'Running' }),
      look(6_000, { deploymentStatus: 'Running', progress: 2, progressOf: 40 }),
      look(25_000, { deploymentStatus: 'Running', progress: 40, progressOf: 40 }),
      look(25_400, { deploymentStatus: 'Complete', progress: 40, progressOf: 40 }),
    ]);
    expect(phases.map((p) => [p.name, p.seconds])).toEqual([
      ['operator picks up the RayJob', 1.5],
      ['RayCluster ready (head pod Ready)', 2.5],
      ['submitter starts, job submitted', 2],
      ["the job's 40 steps (both triggers)", 19],
      ['the end seen: Complete', 0.4],
    ]);
  });

  it('a run that never got its verdict lists the phases it finished', () => {
    const phases = scenarioPhases([look(1_000, { deploymentStatus: 'Initializing' }), look(9_000, { deploymentStatus: 'Initializing' })]);
    expect(phases.map((p) => p.name)).toEqual(['operator picks up the RayJob']);
  });
});
