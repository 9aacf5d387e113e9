/**
 * status.conditions: each verdict, and each deliberate non-verdict, shows in one condition with its evidence in
 * the message, and is told by exactly one event when it changes (not on every reconcile).
 */
import { describe, expect, it } from 'vitest';
import { conditionReason } from '../../src/rayjob/conditions/apply.ts';
import { decide, type Decision } from '../../src/rayjob/decide.ts';
import type { DecisionInput } from '../../src/rayjob/inputs.ts';
import type { Condition, RayJob } from '../../src/schema/index.ts';
import { formatTerminationMessage } from '../../src/index.ts';
import { at, CLUSTER, DRIVER_NODE, found, headPod, healthyCluster, inState, iso, JOB_ID, makeCluster, makeInput, makeRayJob, ms, submitterJob, submitterPod } from './fixtures.ts';

type Partial_ = Partial<DecisionInput> & { rayJob: RayJob };

/** Decides `before`, carries its conditions into `after`'s RayJob, and decides `after`: the change under test. */
function afterSettled(before: Partial_, after: Partial_): Decision {
  const first = decide(makeInput(before));
  const rayJob = { ...after.rayJob, status: { ...(after.rayJob.status ?? {}), conditions: first.status.conditions } } as RayJob;
  return decide(makeInput({ ...after, rayJob }));
}

const condition = (d: Decision, type: string): Condition | undefined => d.status.conditions?.find((c) => c.type === type);

const alive = { kind: 'alive', nodeId: DRIVER_NODE } as const;
const running = (extra: Partial<Partial_> = {}, status: Record<string, unknown> = {}, spec: Record<string, unknown> = {}): Partial_ => ({
  rayJob: inState('Running', 'K8sJobMode', status, spec),
  ...healthyCluster(),
  submitterJob: submitterJob(),
  dashboard: found('RUNNING'),
  driverNode: alive,
  ...extra,
});
const submitterKilled = { submitterJob: submitterJob({ type: 'Failed', at: 50, reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }), submitterPods: [submitterPod(undefined, 50, 143)] };
const quotaFailure = (): DecisionInput['cluster'] =>
  makeCluster(undefined, {
    status: {
      conditions: [
        { type: 'ReplicaFailure', status: 'True', reason: 'FailedCreateHeadPod', message: 'FailedCreateHeadPod\npods "c-head" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=1, limited: pods=1', lastTransitionTime: iso(50) },
      ],
    },
  } as never);
const provisioning = (): DecisionInput['cluster'] =>
  makeCluster(undefined, { status: { conditions: [{ type: 'RayClusterProvisioned', status: 'False', reason: 'RayClusterPodsProvisioning', message: 'RayCluster Pods are being provisioned for first time', lastTransitionTime: iso(1) }] } } as never);

interface Row {
  kind: string;
  before: Partial_;
  after: Partial_;
  deployment: string;
  condition: { type: string; status: string; reason: string };
  evidence: string[];
  event: 'Normal' | 'Warning';
}

const rows: Row[] = [
  {
    kind: 'non-verdict: the submitter was killed (exit 143) while Ray says RUNNING on an ALIVE node: kept Running',
    before: running(), after: running(submitterKilled), deployment: 'Running',
    condition: { type: 'JobRunning', status: 'True', reason: 'SubmitterExitedJobRunning' },
    evidence: [`pod rayjob-sample-abcde exited 143`, 'the submitter Job failed (BackoffLimitExceeded: Job has reached the specified backoff limit)', `RUNNING with its driver on ALIVE node ${DRIVER_NODE}`, 'the RayJob stays Running'], event: 'Warning',
  },
  {
    kind: 'non-verdict: a status check failed within its budget: kept Running, with the deadline',
    before: running(), after: running({ dashboard: { kind: 'unreachable', reason: 'connect ECONNREFUSED 10.0.0.7:8265' } }), deployment: 'Running',
    condition: { type: 'JobRunning', status: 'Unknown', reason: 'StatusCheckFailing' },
    evidence: ['since 2026-12-02 10:01:00', 'ECONNREFUSED', 'JobStatusCheckTimeoutExceeded at 2026-12-02 10:06:00'], event: 'Warning',
  },
  {
    kind: 'non-verdict: the head forgot the job while the submitter still runs',
    before: running(), after: running({ dashboard: { kind: 'not-found' } }), deployment: 'Running',
    condition: { type: 'JobRunning', status: 'Unknown', reason: 'JobNotFoundOnHead' },
    evidence: [`no longer knows Ray job ${JOB_ID}`, 'last seen RUNNING', 'waiting for the submitter'], event: 'Warning',
  },
  {
    kind: 'non-verdict: the driver\'s node is DEAD but not for long enough yet',
    before: running(), after: running({ driverNode: { kind: 'dead', nodeId: DRIVER_NODE }, memory: { driverNodeLostSince: { jobId: JOB_ID, nodeId: DRIVER_NODE, since: at(50).toISOString() } } }), deployment: 'Running',
    condition: { type: 'JobRunning', status: 'Unknown', reason: 'DriverNodeNotAlive' },
    evidence: [`node ${DRIVER_NODE}`, 'DEAD or missing since 2026-12-02 10:00:50', 'fails at 2026-12-02 10:01:20'], event: 'Warning',
  },
  {
    kind: 'non-verdict: Ray reports the job SUCCEEDED while the submitter still prints its logs',
    before: running(), after: running({ dashboard: found('SUCCEEDED', { endTime: at(55).getTime() }) }), deployment: 'Running',
    condition: { type: 'JobRunning', status: 'Unknown', reason: 'WaitingForSubmitter' },
    evidence: ['SUCCEEDED', 'last logs'], event: 'Normal',
  },
  {
    kind: 'verdict: head lost (HTTPMode: seen RUNNING, now unknown to the head)',
    before: { ...running(), rayJob: inState('Running', 'HTTPMode'), submitterJob: undefined },
    after: { ...running({ dashboard: { kind: 'not-found' } }), rayJob: inState('Running', 'HTTPMode'), submitterJob: undefined }, deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'AppFailed' },
    evidence: [`Ray job ${JOB_ID} was last seen RUNNING but the Ray head no longer knows it`], event: 'Warning',
  },
  {
    kind: 'verdict: head lost (K8sJobMode: the submitter finished, the head no longer knows the job)',
    before: running(), after: running({ ...submitterKilled, dashboard: { kind: 'not-found' } }), deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'AppFailed' },
    evidence: ['Submitter completed but Ray job not found in RayCluster.', `Ray last reported Ray job ${JOB_ID} RUNNING`, 'lost or replaced'], event: 'Warning',
  },
  {
    kind: 'verdict: status checks timed out',
    before: running({ dashboard: { kind: 'unreachable', reason: 'timeout' } }, { jobStatusCheckFailureStartTime: iso(0) }, {}),
    after: { ...running({ dashboard: { kind: 'unreachable', reason: 'timeout' } }, { jobStatusCheckFailureStartTime: iso(0) }), now: at(301) }, deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'JobStatusCheckTimeoutExceeded' },
    evidence: ['failing since 2026-12-02 10:00:00', 'timeout of 300s'], event: 'Warning',
  },
  {
    kind: 'verdict: activeDeadlineSeconds passed',
    before: running({ now: at(5) }, {}, { activeDeadlineSeconds: 10 }), after: running({}, {}, { activeDeadlineSeconds: 10 }), deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'DeadlineExceeded' },
    evidence: ['activeDeadlineSeconds', 'ActiveDeadlineSeconds: 10'], event: 'Warning',
  },
  {
    kind: 'verdict: the submitter failed before Ray ran the job',
    before: running({ dashboard: found('PENDING') }, { jobStatus: 'PENDING' }), after: running({ ...submitterKilled, dashboard: found('PENDING') }, { jobStatus: 'PENDING' }), deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'SubmissionFailed' },
    evidence: ['Job submission has failed. Reason: BackoffLimitExceeded'], event: 'Warning',
  },
  {
    kind: 'verdict: the RayCluster was deleted under a Running RayJob',
    before: running(), after: { ...running(), cluster: undefined }, deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'AppFailed' },
    evidence: [`RayCluster default/${CLUSTER} was deleted while the RayJob was running`], event: 'Warning',
  },
  {
    kind: 'verdict: the driver\'s node has been lost for 30 s',
    before: running({ now: at(50), driverNode: { kind: 'dead', nodeId: DRIVER_NODE } }),
    after: running({ now: at(81), driverNode: { kind: 'dead', nodeId: DRIVER_NODE }, memory: { driverNodeLostSince: { jobId: JOB_ID, nodeId: DRIVER_NODE, since: at(50).toISOString() } } }), deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded' },
    evidence: [`driver node ${DRIVER_NODE}`, 'DEAD or missing since 2026-12-02 10:00:50'], event: 'Warning',
  },
  {
    kind: 'verdict: the submitter finished 30 s ago and the job shows no sign of life',
    before: running(), after: running({ submitterJob: submitterJob({ type: 'Complete', at: 10 }), driverNode: { kind: 'missing', nodeId: DRIVER_NODE } }), deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded' },
    evidence: ['did not reach terminal state within 30s'], event: 'Warning',
  },
  {
    kind: 'verdict: Ray reports FAILED and the submitter finished',
    before: running(), after: running({ submitterJob: submitterJob({ type: 'Complete', at: 55 }), dashboard: found('FAILED', { message: 'ZeroDivisionError: division by zero', endTime: at(54).getTime() }) }), deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'AppFailed' },
    evidence: ['ZeroDivisionError'], event: 'Warning',
  },
  {
    kind: 'verdict: Ray reports SUCCEEDED and the submitter finished',
    before: running(), after: running({ submitterJob: submitterJob({ type: 'Complete', at: 55 }), dashboard: found('SUCCEEDED', { endTime: at(54).getTime() }) }), deployment: 'Complete',
    condition: { type: 'Complete', status: 'True', reason: 'JobSucceeded' },
    evidence: [`Ray reports Ray job ${JOB_ID} SUCCEEDED: Job is succeeded.`], event: 'Normal',
  },
  {
    kind: 'verdict: the submitter\'s termination message recorded SUCCEEDED and the head no longer knows the job (addition A)',
    before: running(),
    after: running({
      submitterJob: submitterJob({ type: 'Complete', at: 45 }),
      submitterPods: [submitterPod(formatTerminationMessage({ kind: 'rayjob.io/submitter-result', version: 1, submissionId: JOB_ID, lastStatus: 'SUCCEEDED', exitCode: 0, reason: 'Succeeded', endTime: ms(40) }), 45)],
      dashboard: { kind: 'not-found' },
    }), deployment: 'Complete',
    condition: { type: 'Complete', status: 'True', reason: 'JobSucceeded' },
    evidence: [`The submitter's termination message recorded Ray job ${JOB_ID} SUCCEEDED`, 'the Ray head no longer knows the job', 'A result Ray reported stands.'], event: 'Normal',
  },
  {
    kind: 'verdict (issue 20): Ray reported SUCCEEDED, then the SidecarMode head pod was lost with the sidecar in it',
    before: { rayJob: inState('Running', 'SidecarMode', { jobStatus: 'SUCCEEDED', rayJobInfo: { startTime: iso(5), endTime: iso(40) } }), ...healthyCluster(), headPods: [headPod()], dashboard: found('SUCCEEDED', { endTime: ms(40) }) },
    after: { rayJob: inState('Running', 'SidecarMode', { jobStatus: 'SUCCEEDED', rayJobInfo: { startTime: iso(5), endTime: iso(40) } }), ...healthyCluster(), headPods: [], dashboard: { kind: 'unreachable', reason: 'no endpoints' } },
    deployment: 'Complete',
    condition: { type: 'Complete', status: 'True', reason: 'JobSucceeded' },
    evidence: [`Ray reported Ray job ${JOB_ID} SUCCEEDED`, `the head pod of RayCluster default/${CLUSTER} is gone`, 'A result Ray reported stands.'], event: 'Normal',
  },
  {
    kind: 'verdict (issue 20): Ray reported SUCCEEDED, then the RayCluster was deleted under a running submitter',
    before: running({ dashboard: found('SUCCEEDED', { endTime: ms(40) }) }, { jobStatus: 'SUCCEEDED', rayJobInfo: { startTime: iso(5), endTime: iso(40) } }),
    after: { ...running({ dashboard: { kind: 'unreachable', reason: 'no such host' } }, { jobStatus: 'SUCCEEDED', rayJobInfo: { startTime: iso(5), endTime: iso(40) } }, { backoffLimit: 2 }), cluster: undefined },
    deployment: 'Complete',
    condition: { type: 'Complete', status: 'True', reason: 'JobSucceeded' },
    evidence: [`Ray reported Ray job ${JOB_ID} SUCCEEDED`, `RayCluster default/${CLUSTER} is gone`], event: 'Normal',
  },
  {
    kind: 'verdict: the job was submitted again to a replacement head (addition H)',
    before: running({}, { rayJobInfo: { startTime: iso(5) } }),
    after: running({ dashboard: found('RUNNING', { startTime: ms(30) }) }, { rayJobInfo: { startTime: iso(5) } }), deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'AppFailed' },
    evidence: ['started at 2026-12-02 10:00:05', 'submitted again at 2026-12-02 10:00:30', 'the second run is stopped'], event: 'Warning',
  },
  {
    kind: 'verdict: the SidecarMode head pod is gone while the job runs (rule 6)',
    before: { rayJob: inState('Running', 'SidecarMode'), ...healthyCluster(), headPods: [headPod()], dashboard: found('RUNNING'), driverNode: alive },
    after: { rayJob: inState('Running', 'SidecarMode'), ...healthyCluster(), headPods: [], dashboard: { kind: 'unreachable', reason: 'no endpoints' } }, deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'AppFailed' },
    evidence: ['Ray head pod not found.', `RayCluster default/${CLUSTER} has no head pod`], event: 'Warning',
  },
  {
    kind: 'verdict: Ray reported SUCCEEDED 300 s ago and the submitter still has not finished (rule 1\'s grace period)',
    before: running({ dashboard: found('SUCCEEDED', { endTime: ms(10) }) }, { jobStatus: 'SUCCEEDED', rayJobInfo: { startTime: iso(5), endTime: iso(10) } }),
    after: running({ dashboard: found('SUCCEEDED', { endTime: ms(10) }), now: at(311) }, { jobStatus: 'SUCCEEDED', rayJobInfo: { startTime: iso(5), endTime: iso(10) } }), deployment: 'Complete',
    condition: { type: 'Complete', status: 'True', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded' },
    evidence: ['within the grace period', `Ray reported Ray job ${JOB_ID} SUCCEEDED ending at 2026-12-02 10:00:10`, 'the submitter had not finished 300s later'], event: 'Normal',
  },
  {
    kind: 'verdict: the pre-running deadline passed while the cluster came up',
    before: { rayJob: inState('Initializing', 'K8sJobMode', {}, { preRunningDeadlineSeconds: 30 }), cluster: provisioning(), now: at(10) },
    after: { rayJob: inState('Initializing', 'K8sJobMode', {}, { preRunningDeadlineSeconds: 30 }), cluster: provisioning(), now: at(31) }, deployment: 'Failed',
    condition: { type: 'Failed', status: 'True', reason: 'PreRunningDeadlineExceeded' },
    evidence: ['preRunningDeadlineSeconds', 'PreRunningDeadlineSeconds: 30'], event: 'Warning',
  },
  {
    kind: 'the cluster cannot create its pods (a ResourceQuota forbids them): shown while Initializing',
    before: { rayJob: inState('Initializing'), cluster: provisioning() }, after: { rayJob: inState('Initializing'), cluster: quotaFailure() }, deployment: 'Initializing',
    condition: { type: 'RayClusterProvisioned', status: 'False', reason: 'FailedCreateHeadPod' },
    evidence: [`RayCluster default/${CLUSTER} cannot create its pods`, 'exceeded quota: pods'], event: 'Warning',
  },
  {
    kind: 'the cluster\'s head image cannot be pulled: shown while Initializing',
    before: { rayJob: inState('Initializing'), cluster: provisioning() },
    after: {
      rayJob: inState('Initializing'),
      cluster: makeCluster(undefined, { status: { conditions: [{ type: 'HeadPodReady', status: 'False', reason: 'ImagePullBackOff', message: 'Back-off pulling image "rayproject/ray:9.9.9"', lastTransitionTime: iso(40) }] } } as never),
    },
    deployment: 'Initializing',
    condition: { type: 'RayClusterReady', status: 'False', reason: 'ImagePullBackOff' },
    evidence: ['head pod', 'Back-off pulling image "rayproject/ray:9.9.9"'], event: 'Warning',
  },
  {
    kind: 'suspended: the RayCluster is gone and the RayJob waits for spec.suspend=false',
    before: { rayJob: inState('Suspending', 'K8sJobMode', {}, { suspend: true, shutdownAfterJobFinishes: true }), ...healthyCluster() },
    after: { rayJob: inState('Suspending', 'K8sJobMode', {}, { suspend: true, shutdownAfterJobFinishes: true }) }, deployment: 'Suspended',
    condition: { type: 'Suspended', status: 'True', reason: 'Suspended' },
    evidence: ['spec.suspend is true'], event: 'Normal',
  },
];

describe('status.conditions: one condition and one event per verdict, with its evidence', () => {
  it.each(rows)('$kind', ({ before, after, deployment, condition: expected, evidence, event }) => {
    const d = afterSettled(before, after);
    expect(d.status.jobDeploymentStatus).toBe(deployment);
    const c = condition(d, expected.type);
    expect(c).toMatchObject({ ...expected, observedGeneration: 1 });
    for (const words of evidence) expect(c?.message).toContain(words);
    const told = d.conditionEvents.filter((e) => e.action === expected.type);
    expect(told).toEqual([{ type: event, reason: expected.reason, action: expected.type, note: c?.message }]);
    // Once written, the same observation tells nothing again and writes nothing for the conditions.
    const again = decide(makeInput({ ...after, rayJob: { ...after.rayJob, status: d.status } as RayJob }));
    expect(again.conditionEvents).toEqual([]);
    expect(again.status.conditions).toEqual(d.status.conditions);
  });
});

describe('status.conditions conventions', () => {
  it('lists the summary conditions in a fixed order, with CamelCase reasons, from the first reconcile', () => {
    const d = decide(makeInput({ rayJob: makeRayJob() }));
    expect(d.status.conditions?.map((c) => c.type)).toEqual(['RayClusterProvisioned', 'RayClusterReady', 'JobSubmitted', 'JobRunning', 'Suspended']);
    for (const c of d.status.conditions ?? []) expect(c.reason).toMatch(/^[A-Z][A-Za-z0-9]*$/);
  });

  it('lastTransitionTime moves only when a condition\'s status changes, not when its reason or message does', () => {
    const first = decide(makeInput({ ...running(), now: at(60) }));
    const ran = first.status.conditions?.find((c) => c.type === 'JobRunning');
    expect(ran).toMatchObject({ status: 'True', reason: 'Running', lastTransitionTime: iso(60) });
    const later = decide(makeInput({ ...running(submitterKilled), rayJob: { ...running().rayJob, status: first.status } as RayJob, now: at(90) }));
    expect(later.status.conditions?.find((c) => c.type === 'JobRunning')).toMatchObject({ status: 'True', reason: 'SubmitterExitedJobRunning', lastTransitionTime: iso(60) });
    const lost = decide(makeInput({ ...running({ dashboard: { kind: 'unreachable', reason: 'timeout' } }), rayJob: { ...running().rayJob, status: later.status } as RayJob, now: at(95) }));
    expect(lost.status.conditions?.find((c) => c.type === 'JobRunning')).toMatchObject({ status: 'Unknown', lastTransitionTime: iso(95) });
  });

  it('a condition change alone is a status write, so a cluster failure reaches the RayJob in the reconcile that sees it', () => {
    const d = afterSettled({ rayJob: inState('Initializing'), cluster: provisioning() }, { rayJob: inState('Initializing'), cluster: quotaFailure() });
    expect(d.statusChanged).toBe(true);
  });

  it('a head pod that is only starting (ContainerCreating) is not announced as a failure', () => {
    const starting = makeCluster(undefined, { status: { conditions: [{ type: 'HeadPodReady', status: 'False', reason: 'ContainerCreating', message: 'containers with unready status: [ray-head]', lastTransitionTime: iso(40) }] } } as never);
    const d = afterSettled({ rayJob: inState('Initializing'), cluster: provisioning() }, { rayJob: inState('Initializing'), cluster: starting });
    expect(condition(d, 'RayClusterReady')).toMatchObject({ status: 'False', reason: 'RayClusterNotReady' });
    expect(d.conditionEvents).toEqual([]);
  });

  it('a finished RayJob keeps its cluster conditions when the cluster is deleted after the verdict: no status write (KubeRay writes none in a terminal state)', () => {
    const complete = (extra: Partial<Partial_>): Partial_ => ({ rayJob: inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED', endTime: iso(50) }, { shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 60 }), ...healthyCluster(), ...extra });
    const d = afterSettled(complete({}), complete({ cluster: undefined, clusterHeadService: undefined, rayJobHeadService: undefined }));
    expect(condition(d, 'RayClusterReady')).toMatchObject({ status: 'True', reason: 'RayClusterReady' });
    expect(d.statusChanged).toBe(false);
  });

  it('Complete and Failed exist only while true: a retry takes Failed away', () => {
    const failed = afterSettled(running(), { ...running(), cluster: undefined, rayJob: inState('Running', 'K8sJobMode', {}, { backoffLimit: 1 }) });
    expect(failed.status.jobDeploymentStatus).toBe('Retrying');
    expect(failed.status.conditions?.map((c) => c.type)).not.toContain('Failed');
    expect(failed.status.conditions?.find((c) => c.type === 'JobRunning')).toMatchObject({ status: 'False', reason: 'Retrying' });
  });

  it('observedGeneration follows the spec generation the decision answered', () => {
    const input = running();
    const d = decide(makeInput({ ...input, rayJob: { ...input.rayJob, metadata: { ...input.rayJob.metadata, generation: 7 } } as RayJob }));
    for (const c of d.status.conditions ?? []) expect(c.observedGeneration).toBe(7);
  });

  it('a RayJob managed by another controller keeps its conditions untouched', () => {
    const rayJob = makeRayJob({ spec: { managedBy: 'kueue.x-k8s.io/multikueue' }, status: { conditions: [{ type: 'Foo', status: 'True', reason: 'Bar', message: '', lastTransitionTime: iso(0) }] } });
    const d = decide(makeInput({ rayJob }));
    expect(d.status.conditions).toEqual([{ type: 'Foo', status: 'True', reason: 'Bar', message: '', lastTransitionTime: iso(0) }]);
    expect(d.conditionEvents).toEqual([]);
  });
});

describe('the RayCluster status mirror', () => {
  it('a status write on the RayCluster alone reaches the RayJob\'s rayClusterStatus (KubeRay e2e: RayCluster status update propagates)', () => {
    const cluster = makeCluster('ready', { status: { state: 'ready', maxWorkerReplicas: 3 } } as never);
    const settled = decide(makeInput({ ...running(), cluster }));
    const steady = { ...running(), rayJob: { ...running().rayJob, status: settled.status } as RayJob };
    expect(decide(makeInput({ ...steady, cluster })).statusChanged).toBe(false);
    const updated = makeCluster('ready', { status: { state: 'ready', maxWorkerReplicas: 5 } } as never);
    const d = decide(makeInput({ ...steady, cluster: updated }));
    expect(d.statusChanged).toBe(true);
    expect(d.status.rayClusterStatus?.maxWorkerReplicas).toBe(5);
  });

  it('the RayCluster\'s lastUpdateTime alone is no change', () => {
    const cluster = makeCluster('ready', { status: { state: 'ready', lastUpdateTime: iso(1) } } as never);
    const settled = decide(makeInput({ ...running(), cluster }));
    const steady = { ...running(), rayJob: { ...running().rayJob, status: settled.status } as RayJob };
    expect(decide(makeInput({ ...steady, cluster: makeCluster('ready', { status: { state: 'ready', lastUpdateTime: iso(9) } } as never) })).statusChanged).toBe(false);
  });
});

describe('condition reasons', () => {
  it.each([
    ['ImagePullBackOff', 'ImagePullBackOff'],
    ['Back-off pulling', 'Backoffpulling'],
    ['1stTry', 'stTry'],
    ['', 'Unknown'],
  ])('%j is kept to what metav1.Condition accepts: %j', (given, kept) => {
    expect(conditionReason(given)).toBe(kept);
  });
});
