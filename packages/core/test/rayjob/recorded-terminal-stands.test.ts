/**
 * Issue 20: a result Ray already reported stands through every later loss. The RayJob recorded a terminal
 * `jobStatus` from an earlier answer of Ray's; then the head pod, the cluster or the submitter is lost in any
 * way the world allows. The outcome is the recorded result at once (no wait for a submitter that can report
 * nothing new): Complete for SUCCEEDED/STOPPED, never Failed or Retrying; for FAILED exactly what a fresh
 * FAILED answer gives (Failed/AppFailed, retried by backoffLimit as KubeRay retries any failed job). Never a
 * second submission.
 */
import { describe, expect, it } from 'vitest';
import type { Decision, DecisionInput, Pod, RayJob, SubmissionMode } from '../../src/index.ts';
import { actionTypes, at, clusterHeadService, found, headPod, healthyCluster, inState, iso, makeCluster, ms, rayJobHeadService, run, submitterJob, submitterPod } from './fixtures.ts';

type Recorded = 'SUCCEEDED' | 'STOPPED' | 'FAILED';
type Dashboard = DecisionInput['dashboard'];

interface Loss {
  name: string;
  modes: SubmissionMode[];
  /** The observation after the loss, for a RayJob of this mode. */
  input: (mode: SubmissionMode) => Omit<Partial<DecisionInput>, 'rayJob'>;
}

const unreachable: Dashboard = { kind: 'unreachable', reason: 'connect ECONNREFUSED' };
const terminating = (pod: Pod): Pod => ({ ...pod, metadata: { ...pod.metadata, deletionTimestamp: iso(100) } });
const terminatingCluster = () => {
  const cluster = makeCluster('ready');
  return { ...cluster, metadata: { ...cluster.metadata, deletionTimestamp: iso(100) } };
};
/** K8sJobMode: the submitter Job still runs (observation 2 of the issue); other modes have none. */
const runningSubmitter = (mode: SubmissionMode) => (mode === 'K8sJobMode' ? { submitterJob: submitterJob() } : {});

const losses: Loss[] = [
  // Observation 1: the sidecar lived in the head pod; the Service has no endpoints left.
  { name: 'the head pod is gone, the dashboard unreachable', modes: ['SidecarMode'], input: () => ({ ...healthyCluster(), headPods: [], dashboard: unreachable }) },
  { name: 'the head pod is gone, the dashboard not asked', modes: ['SidecarMode'], input: () => ({ ...healthyCluster(), headPods: [], dashboard: { kind: 'not-queried' } }) },
  { name: 'the head pod is gone, the dashboard says not found', modes: ['SidecarMode'], input: () => ({ ...healthyCluster(), headPods: [], dashboard: { kind: 'not-found' } }) },
  { name: 'the head pod is terminating with the sidecar in it', modes: ['SidecarMode'], input: () => ({ ...healthyCluster(), headPods: [terminating(headPod())], dashboard: unreachable }) },
  // Observation 2: the RayCluster is deleted; in K8sJobMode the submitter Job still runs.
  ...(['unreachable', 'not-queried'] as const).map((kind): Loss => ({
    name: `the RayCluster is deleted, the dashboard ${kind}`,
    modes: ['K8sJobMode', 'SidecarMode', 'HTTPMode', 'InteractiveMode'],
    input: (mode) => ({ cluster: undefined, clusterHeadService: undefined, rayJobHeadService: rayJobHeadService(), headPods: [], dashboard: kind === 'unreachable' ? unreachable : { kind }, ...runningSubmitter(mode) }),
  })),
  {
    name: 'the RayCluster is being deleted, its head pod terminating',
    modes: ['K8sJobMode', 'SidecarMode', 'HTTPMode'],
    input: (mode) => ({ cluster: terminatingCluster(), clusterHeadService: clusterHeadService(), headPods: [terminating(headPod())], dashboard: unreachable, ...runningSubmitter(mode) }),
  },
  {
    name: 'the RayCluster is deleted, the submitter Job deleted too',
    modes: ['K8sJobMode'],
    input: () => ({ cluster: undefined, clusterHeadService: undefined, headPods: [], dashboard: unreachable, submitterJob: undefined }),
  },
  {
    name: 'the RayCluster is deleted, the submitter pod terminating',
    modes: ['K8sJobMode'],
    input: () => ({ cluster: undefined, headPods: [], dashboard: unreachable, submitterJob: submitterJob(), submitterPods: [terminating(submitterPod(undefined, 90, 143))] }),
  },
  // The head was replaced and forgot the job while the submitter still runs.
  { name: 'the head no longer knows the job, the submitter still runs', modes: ['K8sJobMode'], input: (mode) => ({ ...healthyCluster(), dashboard: { kind: 'not-found' }, ...runningSubmitter(mode) }) },
  // The submitter Job is being deleted (a user, or a cascade) while the dashboard is unreachable.
  {
    name: 'the submitter Job is being deleted, the dashboard unreachable',
    modes: ['K8sJobMode'],
    input: () => ({ ...healthyCluster(), dashboard: unreachable, submitterJob: { ...submitterJob(), metadata: { name: 'rayjob-sample', namespace: 'default', deletionTimestamp: iso(100) } } }),
  },
];

const recordedStates: Recorded[] = ['SUCCEEDED', 'STOPPED', 'FAILED'];
const cases = losses.flatMap((loss) => loss.modes.flatMap((mode) => recordedStates.flatMap((recorded) => (mode === 'InteractiveMode' ? [0] : [0, 2]).map((backoffLimit) => ({ loss, mode, recorded, backoffLimit })))));

/** A Running RayJob whose status recorded Ray's terminal answer (ended at t0+90) before the loss. */
function recordedRayJob(mode: SubmissionMode, recorded: Recorded, backoffLimit: number): RayJob {
  return inState('Running', mode, { jobStatus: recorded, message: `Job ${recorded.toLowerCase()}.`, rayJobInfo: { startTime: iso(5), endTime: iso(90) } }, { backoffLimit });
}

/** What a fresh answer of the same status gives with the submitter finished: the result the loss must not change. */
function freshTwin(mode: SubmissionMode, recorded: Recorded, backoffLimit: number): Decision {
  return run({
    rayJob: recordedRayJob(mode, recorded, backoffLimit),
    ...healthyCluster(),
    ...(mode === 'K8sJobMode' ? { submitterJob: submitterJob({ type: recorded === 'FAILED' ? 'Failed' : 'Complete', at: 95 }) } : {}),
    ...(mode === 'SidecarMode' ? { headPods: [headPod({ exitCode: recorded === 'FAILED' ? 1 : 0, finishedAt: 95 })] } : {}),
    dashboard: found(recorded, { endTime: ms(90) }),
    now: at(120),
  });
}

describe('a terminal status Ray reported stands through every later loss (issue 20)', () => {
  it.each(cases)('$mode, recorded $recorded, backoffLimit $backoffLimit; $loss.name: the recorded result at once', ({ loss, mode, recorded, backoffLimit }) => {
    const d = run({ rayJob: recordedRayJob(mode, recorded, backoffLimit), ...loss.input(mode), now: at(120) });
    const twin = freshTwin(mode, recorded, backoffLimit);
    expect(d.status.jobStatus).toBe(recorded);
    if (recorded === 'FAILED') {
      expect(d.status.jobDeploymentStatus).toBe(twin.status.jobDeploymentStatus);
      expect(d.status.reason).toBe('AppFailed');
      expect(d.status.jobDeploymentStatus).toBe(backoffLimit > 0 ? 'Retrying' : 'Failed');
    } else {
      expect(d.status.jobDeploymentStatus).toBe('Complete');
      expect(d.status.reason).toBeUndefined();
    }
    expect(d.status.succeeded ?? 0).toBe(recorded === 'SUCCEEDED' ? 1 : 0);
    const types = actionTypes(d);
    expect(types).not.toContain('submitRayJob');
    expect(types).not.toContain('createSubmitterJob');
    expect(types).not.toContain('stopRayJob');
  });

  it('the verdict does not depend on how the dead head answers (SidecarMode, SUCCEEDED, head pod gone)', () => {
    const answers: Dashboard[] = [unreachable, { kind: 'not-found' }, { kind: 'not-queried' }];
    const outcomes = answers.map((dashboard) => run({ rayJob: recordedRayJob('SidecarMode', 'SUCCEEDED', 2), ...healthyCluster(), headPods: [], dashboard, now: at(120) }).status);
    for (const s of outcomes) expect({ d: s.jobDeploymentStatus, j: s.jobStatus, r: s.reason, m: s.message }).toEqual({ d: 'Complete', j: 'SUCCEEDED', r: undefined, m: 'Job succeeded.' });
  });

  it('a live head with a running submitter still waits for the submitter (#1919): the dashboard is only unreachable', () => {
    const d = run({ rayJob: recordedRayJob('K8sJobMode', 'SUCCEEDED', 0), ...healthyCluster(), submitterJob: submitterJob(), dashboard: unreachable, now: at(120) });
    expect(d.status.jobDeploymentStatus).toBe('Running');
    expect(d.status.jobStatus).toBe('SUCCEEDED');
  });
});
