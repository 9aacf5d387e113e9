// The scenarios as data: every E2E case of the reference is present, each names KubeRay's outcome, and where
// KubeRay's outcome is wrong the asserted outcome is one KubeRay's would fail. Plus the pure parts of the
// runner (conditions, checks, timeline, manifests).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { holds, invariantProblems, outcomeProblems, record, type RunRecord } from '../src/run/checks.ts';
import type { Observation } from '../src/run/observe.ts';
import { createTimeline } from '../src/run/timeline.ts';
import { rayJobManifest, stepsEntrypoint } from '../src/scenario/manifests.ts';
import type { Outcome } from '../src/scenario/types.ts';
import { scenarios } from '../src/scenarios/index.ts';

/** The cases reference/status-correctness.md marks E2E (the reference lives beside the project, not in CI). */
const e2eCases = ['C1', 'C2', 'C3', 'C6', 'C7', 'C8', 'C12', 'C15', 'C16', 'C17', 'C19', 'C20', 'C21', 'C22', 'C25'];

const observation = (over: Partial<Observation> = {}): Observation => ({
  atMs: 1000, deploymentStatus: 'Running', jobStatus: 'RUNNING', reason: '', message: '', failed: 0, succeeded: 0, jobId: 'j',
  cluster: 'c', clusterExists: true, workersRunning: 0, submitter: 'Running', submitterExited: false, progress: 0, progressOf: 0,
  submitterPods: [], ...over,
});

/**
 * Where `expect` differs from KubeRay's outcome in a field that outcome states: a field KubeRay's outcome leaves
 * out counts as the same as ours, so a difference can come only from what the reference says KubeRay does.
 */
const differencesFromKubeRay = (expected: Outcome, kuberay: Outcome): string[] => {
  const named = Object.fromEntries(Object.entries(expected).filter(([field]) => field in kuberay)) as unknown as Outcome;
  const run = asKubeRay(kuberay);
  return outcomeProblems({ ...named, deploymentStatus: expected.deploymentStatus }, run.final, run.run);
};

/** What the run would have recorded had KubeRay produced `outcome`. */
const asKubeRay = (outcome: Outcome) => ({
  final: observation({
    deploymentStatus: outcome.deploymentStatus, jobStatus: outcome.jobStatus ?? '', reason: outcome.reason ?? '', message: typeof outcome.message === 'string' ? outcome.message : '',
    succeeded: outcome.succeeded ?? 0, failed: outcome.failed ?? 0,
  }),
  run: {
    lastLogs: (outcome.logsContain ?? []).join('\n'),
    ...(outcome.rayStatus !== undefined && { lastRayStatus: outcome.rayStatus }),
    submitterPodsSeen: new Set(Array.from({ length: outcome.submitterPodsAtMost ?? 1 }, (_, i) => `pod-${i}`)),
  },
});

describe('the scenario list', () => {
  it('has one scenario per case the reference marks E2E, and a lifecycle per submission mode', () => {
    expect(scenarios.map((s) => s.id).filter((id) => id.startsWith('C')).sort()).toEqual([...e2eCases].sort());
    expect(scenarios.filter((s) => s.id.startsWith('lifecycle-')).map((s) => s.mode).sort()).toEqual(['HTTPMode', 'InteractiveMode', 'K8sJobMode', 'SidecarMode']);
  });

  it.each(scenarios.filter((s) => s.id.startsWith('lifecycle-')).map((s) => [s.mode, s] as const))('the %s lifecycle meets a fault mid-run and runs its Ray job to the end, Complete but where the driver dies (InteractiveMode: submitted by hand)', (mode, scenario) => {
    const kinds = scenario.steps.map((s) => s.kind);
    expect(kinds).toContain('fault');
    if (mode === 'HTTPMode') expect(scenario.expect).toMatchObject({ deploymentStatus: 'Failed', jobStatus: 'FAILED' });
    else expect(scenario.expect).toMatchObject({ deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', logsContain: [`step ${scenario.rayJob.steps}/${scenario.rayJob.steps}`, 'done'] });
    if (mode === 'InteractiveMode') expect(kinds).toContain('submitByHand');
  });

  // Every scenario, none exempt: each exercises something the reference says KubeRay gets wrong.
  it.each(scenarios.map((s) => [s.id, s] as const))('%s asserts an outcome that KubeRay\'s would fail', (_id, scenario) => {
    expect(differencesFromKubeRay(scenario.expect, scenario.kuberay)).not.toEqual([]);
  });

  it.each([
    ['its own', { deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', reason: '', message: 'Job finished successfully.', succeeded: 1, failed: 0 }],
    // A KubeRay outcome that leaves the message out does not differ by the message.
    ['the same status, its message not stated', { deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED' }],
  ] as const)('finds no difference from a KubeRay outcome that is %s (the check above can fail)', (_what, kuberay) => {
    const ours = { deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', reason: '', message: 'Job finished successfully.', succeeded: 1, failed: 0 } as const;
    expect(differencesFromKubeRay(ours, kuberay)).toEqual([]);
    expect(differencesFromKubeRay(ours, { ...kuberay, deploymentStatus: 'Failed' })).toEqual(['jobDeploymentStatus: want "Complete", got "Failed"']);
  });

  it.each(scenarios.map((s) => [s.id, s] as const))('%s asserts the exact jobStatus, reason and message', (_id, scenario) => {
    // Read as data (a scenario from JSON is not type-checked): each of the three is stated, '' included.
    const outcome: Record<string, unknown> = { ...scenario.expect };
    expect(typeof outcome.jobStatus, 'jobStatus').toBe('string');
    expect(typeof outcome.reason, 'reason').toBe('string');
    expect(typeof outcome.message === 'string' || outcome.message instanceof RegExp, 'message').toBe(true);
  });

  it('C20 keeps the operator down past 30 s after the submitter finished, where KubeRay\'s submitter-finished timeout runs before the dashboard is asked', () => {
    const c20 = scenarios.find((s) => s.id === 'C20');
    const steps = c20?.steps ?? [];
    const stop = steps.findIndex((s) => s.kind === 'fault' && s.fault === 'stopOperator');
    const start = steps.findIndex((s) => s.kind === 'fault' && s.fault === 'startOperator');
    const between = steps.slice(stop + 1, start);
    const exited = between.findIndex((s) => s.kind === 'wait' && s.until.submitterExited === true);
    expect(exited, 'a wait for the submitter to finish while the operator is down').toBeGreaterThanOrEqual(0);
    const heldAfter = between.slice(exited + 1).reduce((sum, s) => sum + (s.kind === 'hold' ? s.seconds : 0), 0);
    expect(heldAfter).toBeGreaterThan(30);
  });

  it.each(scenarios.map((s) => [s.id, s] as const))('%s names KubeRay\'s outcome and is bounded', (_id, scenario) => {
    expect(scenario.kuberay.note.length).toBeGreaterThan(3);
    const stepBound = scenario.steps.reduce((sum, s) => sum + (s.kind === 'wait' ? s.timeoutSeconds : s.kind === 'hold' ? s.seconds : 0), 0);
    expect(stepBound).toBeLessThanOrEqual(scenario.timeoutSeconds + 200);
  });
});

describe('checks', () => {
  it('a condition holds only when every field given holds', () => {
    expect(holds({ deploymentStatus: 'Running', progressAtLeast: 5 }, observation({ progress: 5 }))).toBe(true);
    expect(holds({ deploymentStatus: 'Running', progressAtLeast: 5 }, observation({ progress: 4 }))).toBe(false);
    expect(holds({ submitterExited: true }, observation())).toBe(false);
    expect(holds({ submitterPresent: true }, observation())).toBe(true);
    expect(holds({ submitterPresent: true }, observation({ submitter: 'Terminating' }))).toBe(false);
    expect(holds({ submitterPresent: false }, observation({ submitter: 'none' }))).toBe(true);
    expect(holds({ clusterExists: false, failedAtLeast: 2 }, observation({ clusterExists: false, failed: 2 }))).toBe(true);
  });

  it('reports each difference from the expected outcome by field', () => {
    const problems = outcomeProblems(
      { deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', message: 'gone', logsContain: ['step 40/40'], submitterPodsAtMost: 1 },
      observation({ deploymentStatus: 'Failed', jobStatus: 'RUNNING', message: 'other' }),
      { lastLogs: 'step 39/40', submitterPodsSeen: new Set(['a', 'b']) },
    );
    expect(problems).toEqual([
      'jobDeploymentStatus: want "Complete", got "Failed"',
      'jobStatus: want "SUCCEEDED", got "RUNNING"',
      'message: want "gone", got "other"',
      'the Ray job\'s logs lack "step 40/40"',
      'submitter pods: want at most 1, saw 2 (a, b)',
    ]);
  });

  it.each([
    ['Job finished', 'Job finished successfully.', ['message: want "Job finished", got "Job finished successfully."']],
    ['', 'Job finished successfully.', ['message: want "", got "Job finished successfully."']],
    [/^Job entrypoint command failed with exit code 3\b/, 'Job entrypoint command failed with exit code 3, last available logs ...', []],
    [/^Job entrypoint command failed with exit code 3\b/, 'Job entrypoint command failed with exit code 1', ['message: want it to match /^Job entrypoint command failed with exit code 3\\b/, got "Job entrypoint command failed with exit code 1"']],
  ] as const)('a message %s is matched whole (a string) or by its pattern, against %j', (want, got, problems) => {
    expect(outcomeProblems({ deploymentStatus: 'Failed', message: want }, observation({ deploymentStatus: 'Failed', message: got }), { submitterPodsSeen: new Set() })).toEqual(problems);
  });

  it('flags a cluster gone under a Running RayJob, a second submission, and a cluster kept or deleted against the spec', () => {
    const scenario = scenarios.find((s) => s.id === 'C2');
    if (!scenario) throw new Error('C2 missing');
    const run: RunRecord = {
      // As observe() records it: once the RayCluster is gone the dashboard is not asked (no rayStatus).
      observations: [observation({ atMs: 500, rayStatus: 'RUNNING' }), observation({ clusterExists: false }), observation({ atMs: 1500, clusterExists: false })],
      submissionsByCluster: new Map([['c', 2]]),
      submitterPodsSeen: new Set(),
      clusterGoneAfterEnd: false,
    };
    expect(invariantProblems(scenario, run)).toEqual([
      'at 1.0s the RayCluster c was gone while the RayJob was Running',
      'the Ray job was submitted 2 times on c',
      'the RayCluster was not deleted after the job finished',
    ]);
  });
});

describe('the Ray job run once', () => {
  it.each([
    ['a head that lists it once, looked at many times', [['head-a', 1], ['head-a', 1], ['head-a', 1]], 1],
    ['a JobHead restart on the same head', [['head-a', 0], ['head-a', 1], ['head-a', 1]], 1],
    ['a replacement head that lists nothing (the job was not submitted again)', [['head-a', 1], ['head-b', 0]], 1],
    ['a replacement head the job was submitted to again', [['head-a', 1], ['head-b', 0], ['head-b', 1]], 2],
  ] as const)('counts submissions per cluster over its heads: %s', (_what, looks, count) => {
    const run: RunRecord = { observations: [], submissionsByCluster: new Map(), submitterPodsSeen: new Set() };
    for (const [headPod, submissions] of looks) record(run, observation({ headPod, submissions }));
    expect(run.submissionsByCluster.get('c')).toBe(count);
  });
});

describe('the RayCluster deleted under a live job', () => {
  const c1 = scenarios.find((s) => s.id === 'C1');
  if (!c1) throw new Error('C1 missing');
  const gone = (over: Partial<Observation>) => observation({ clusterExists: false, ...over });
  const problems = (observations: Observation[]) =>
    invariantProblems(c1, { observations, submissionsByCluster: new Map(), submitterPodsSeen: new Set() });

  it.each([
    ['under a Running RayJob, seen twice', [observation({ atMs: 500 }), gone({ atMs: 1000 }), gone({ atMs: 1500 })], 'at 1.0s the RayCluster c was gone while the RayJob was Running'],
    ["under KubeRay's Failed RayJob with the job RUNNING (#2314)", [observation({ atMs: 500 }), gone({ deploymentStatus: 'Failed', reason: 'SubmissionFailed' })], 'at 1.0s the RayCluster c was gone while the RayJob was Failed with jobStatus RUNNING'],
  ] as const)('is flagged %s', (_what, observations, problem) => {
    expect(problems([...observations])).toEqual([problem]);
  });

  it.each([
    ['before it was ever created (Initializing: the name is recorded first)', [gone({ deploymentStatus: 'Initializing', jobStatus: '' }), observation({ atMs: 2000 })]],
    ['after the job ended (Complete, SUCCEEDED)', [observation({ atMs: 500 }), gone({ deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED' })]],
    ['by a suspend (Suspending, Suspended)', [observation({ atMs: 500 }), gone({ deploymentStatus: 'Suspending' }), gone({ atMs: 1500, deploymentStatus: 'Suspended', jobStatus: '' })]],
    ['when one look read the RayJob before its Complete write and the clusters after the deletion', [observation({ atMs: 500 }), gone({}), gone({ atMs: 1500, deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED' })]],
  ] as const)('is not flagged %s', (_what, observations) => {
    expect(problems([...observations])).toEqual([]);
  });
});

describe('timeline', () => {
  it('prints a line per change and per trigger, in the manual tests\' shape', () => {
    const printed: string[] = [];
    const t = createTimeline('[C1]', (line) => printed.push(line));
    t.trigger(0, 'apply RayJob');
    t.observe(observation({ progress: 3, progressOf: 40 }));
    expect(t.observe(observation({ progress: 3, progressOf: 40, atMs: 2000 }))).toBeUndefined();
    t.trigger(2500, '>>> deleteSubmitterPod', observation({ progress: 4, progressOf: 40, atMs: 2500 }));
    expect(t.lines()).toEqual([
      '[   0.0s] apply RayJob | ',
      '[   1.0s]  | RUNNING Running | submitter Running | c head:none workers:0 | step 3/40',
      '[   2.5s] >>> deleteSubmitterPod | RUNNING Running | submitter Running | c head:none workers:0 | step 4/40',
    ]);
    expect(printed[1]).toMatch(/^\[C1\] \[ {3}1\.0s\]/);
  });
});

describe('manifests', () => {
  it('builds a KubeRay-shaped RayJob with the case\'s knobs', () => {
    const m = rayJobManifest('ns', 'job', { mode: 'K8sJobMode', steps: 4, stepSeconds: 0.1, workers: 2, submitterBackoffLimit: 0, shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 0 }) as { spec: Record<string, unknown> };
    expect(m.spec).toMatchObject({ submissionMode: 'K8sJobMode', submitterConfig: { backoffLimit: 0 }, shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 0 });
    expect(JSON.stringify(m.spec.rayClusterSpec)).toContain('"replicas":2');
  });

  it.each([
    [{ steps: 3, stepSeconds: 0 }, 0, ['step 1/3', 'step 3/3', 'done']],
    [{ steps: 2, stepSeconds: 0, exitCode: 3 }, 3, ['step 2/2', 'failing']],
  ])('the steps entrypoint %j runs in a shell, prints its steps and exits as asked', (shape, code, lines) => {
    let status = 0;
    let out = '';
    try {
      out = execFileSync('sh', ['-c', stepsEntrypoint({ mode: 'K8sJobMode', ...shape })], { encoding: 'utf8' });
    } catch (error) {
      const e = error as { status: number; stdout: string };
      status = e.status;
      out = e.stdout;
    }
    expect(status).toBe(code);
    for (const line of lines) expect(out).toContain(line);
  });
});

describe('the sample for trying the seed by hand', () => {
  it('is the manifest the seed scenario would apply (kept in step with rayJobManifest)', async () => {
    const { parse } = await import('yaml');
    const { readFileSync } = await import('node:fs');
    const sample = parse(readFileSync(new URL('../samples/seed-rayjob.yaml', import.meta.url), 'utf8'));
    expect(sample).toEqual(rayJobManifest('default', 'rayjob-seed', { mode: 'K8sJobMode', steps: 40, stepSeconds: 1, submitterBackoffLimit: 0 }));
  });
});
