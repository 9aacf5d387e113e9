/**
 * A RayJob whose head is replaced while its cluster has GCS fault tolerance (compatibility.md S7-2): the new head
 * comes back knowing the job from Redis, so the RayJob waits for it (bounded by the GCS reconnect timeout) and then
 * follows what Ray says; a job the new head does not know is lost with its head as without FT; nothing is
 * submitted twice. Each FT row failed on the code before FT was considered (it gave the no-FT verdict).
 */
import { describe, expect, it } from 'vitest';
import { messages, type DecisionInput, type RayCluster, type RayJob } from '../../src/index.ts';
import { actionTypes, at, found, healthyCluster, inState, iso, JOB_ID, makeCluster, run, submitterJob } from './fixtures.ts';

const withFt = (cluster: RayCluster | undefined = makeCluster('ready'), reconnect?: string): RayCluster => {
  const c = structuredClone(cluster);
  c.spec.gcsFaultToleranceOptions = { redisAddress: 'redis:6379' };
  if (reconnect !== undefined) {
    c.spec.workerGroupSpecs![0]!.template.spec!.containers![0]!.env = [{ name: 'RAY_gcs_rpc_server_reconnect_timeout_s', value: reconnect }];
  }
  return c;
};
const legacyFt = (): RayCluster => {
  const c = makeCluster('ready');
  c.metadata.annotations = { 'ray.io/ft-enabled': 'true' };
  return c;
};
const ft = (cluster = withFt()) => ({ ...healthyCluster(), cluster });
const noFt = () => healthyCluster();

type Case = {
  name: string;
  input: Partial<DecisionInput> & { rayJob: RayJob };
  /** Without FT (today's verdict, kept). */
  without: { state: string; reason?: string; jobStatus?: string };
  /** With FT. */
  with: { state: string; reason?: string; jobStatus?: string };
};

const old = 'n-old-head';
/** The new head answers RUNNING for the job, whose driver ran on the old head's node, DEAD since t=60. */
const runningOnDeadHead = (now: number, rayJob = inState('Running', 'HTTPMode')) => ({
  rayJob,
  dashboard: found('RUNNING', { driverNodeId: old }),
  driverNode: { kind: 'dead', nodeId: old } as const,
  memory: { driverNodeLostSince: { jobId: JOB_ID, nodeId: old, since: at(60).toISOString() } },
  now: at(now),
});

const cases: Array<Case & { cluster?: () => RayCluster }> = [
  {
    name: 'the new head still says RUNNING on the old head\'s dead node 30 s on: followed, not declared lost (F waits for Ray)',
    input: runningOnDeadHead(100),
    without: { state: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', jobStatus: 'FAILED' },
    with: { state: 'Running', jobStatus: 'RUNNING' },
  },
  {
    name: '... until the reconnect timeout (600 s) passed without Ray\'s verdict: addition F then',
    input: runningOnDeadHead(660),
    without: { state: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', jobStatus: 'FAILED' },
    with: { state: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', jobStatus: 'FAILED' },
  },
  {
    name: 'K8sJobMode, the submitter ended with the old head 60 s ago, the new head says RUNNING: followed (rule 4 waits)',
    input: { ...runningOnDeadHead(120, inState('Running', 'K8sJobMode', { jobStatus: 'RUNNING' })), submitterJob: submitterJob({ type: 'Failed', at: 60, reason: 'BackoffLimitExceeded' }) },
    without: { state: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', jobStatus: 'FAILED' },
    with: { state: 'Running', jobStatus: 'RUNNING' },
  },
  {
    name: 'the head has not answered for 400 s (being replaced): still waiting under FT',
    input: { rayJob: inState('Running', 'HTTPMode', { jobStatus: 'RUNNING', jobStatusCheckFailureStartTime: iso(0) }), dashboard: { kind: 'unreachable', reason: 'connect ECONNREFUSED' }, now: at(400) },
    without: { state: 'Failed', reason: 'JobStatusCheckTimeoutExceeded' },
    with: { state: 'Running', jobStatus: 'RUNNING' },
  },
  {
    name: '... and at 600 s the status-check timeout gives its verdict',
    input: { rayJob: inState('Running', 'HTTPMode', { jobStatus: 'RUNNING', jobStatusCheckFailureStartTime: iso(0) }), dashboard: { kind: 'unreachable', reason: 'connect ECONNREFUSED' }, now: at(600) },
    without: { state: 'Failed', reason: 'JobStatusCheckTimeoutExceeded' },
    with: { state: 'Failed', reason: 'JobStatusCheckTimeoutExceeded' },
  },
  {
    name: 'a worker group\'s own reconnect timeout (900 s) is the bound: still waiting at 700 s',
    cluster: () => withFt(makeCluster('ready'), '900'),
    input: { rayJob: inState('Running', 'HTTPMode', { jobStatus: 'RUNNING', jobStatusCheckFailureStartTime: iso(0) }), dashboard: { kind: 'unreachable', reason: 'connect ECONNREFUSED' }, now: at(700) },
    without: { state: 'Failed', reason: 'JobStatusCheckTimeoutExceeded' },
    with: { state: 'Running', jobStatus: 'RUNNING' },
  },
  {
    name: 'a shorter one (120 s) never shortens the status-check timeout (300 s)',
    cluster: () => withFt(makeCluster('ready'), '120'),
    input: { rayJob: inState('Running', 'HTTPMode', { jobStatus: 'RUNNING', jobStatusCheckFailureStartTime: iso(0) }), dashboard: { kind: 'unreachable', reason: 'connect ECONNREFUSED' }, now: at(200) },
    without: { state: 'Running', jobStatus: 'RUNNING' },
    with: { state: 'Running', jobStatus: 'RUNNING' },
  },
  {
    name: 'the new head knows the job and Ray says FAILED (its supervisor died with the old head): Ray\'s verdict, Ray\'s status',
    input: { rayJob: inState('Running', 'HTTPMode', { jobStatus: 'RUNNING' }), dashboard: found('FAILED', { driverNodeId: old, message: 'Job supervisor actor died', endTime: at(90).getTime() }), driverNode: { kind: 'dead', nodeId: old }, now: at(95) },
    without: { state: 'Failed', reason: 'AppFailed', jobStatus: 'FAILED' },
    with: { state: 'Failed', reason: 'AppFailed', jobStatus: 'FAILED' },
  },
  {
    name: 'the new head answers and does not know the job: lost with its head, as without FT, and not submitted again',
    input: { rayJob: inState('Running', 'HTTPMode', { jobStatus: 'RUNNING' }), dashboard: { kind: 'not-found' }, now: at(95) },
    without: { state: 'Failed', reason: 'AppFailed', jobStatus: 'FAILED' },
    with: { state: 'Failed', reason: 'AppFailed', jobStatus: 'FAILED' },
  },
  {
    name: 'the legacy annotation form counts as FT',
    cluster: legacyFt,
    input: runningOnDeadHead(100),
    without: { state: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', jobStatus: 'FAILED' },
    with: { state: 'Running', jobStatus: 'RUNNING' },
  },
];

describe('a head replaced under GCS fault tolerance', () => {
  it.each(cases)('$name', ({ input, without, with: withFtVerdict, cluster }) => {
    const plain = run({ ...noFt(), ...input });
    expect(plain.status).toMatchObject({ jobDeploymentStatus: without.state, ...(without.reason && { reason: without.reason }), ...(without.jobStatus && { jobStatus: without.jobStatus }) });
    const d = run({ ...ft(cluster?.() ?? withFt()), ...input });
    expect(d.status).toMatchObject({ jobDeploymentStatus: withFtVerdict.state, ...(withFtVerdict.reason && { reason: withFtVerdict.reason }), ...(withFtVerdict.jobStatus && { jobStatus: withFtVerdict.jobStatus }) });
    if (withFtVerdict.state === 'Running') expect(d.status.reason ?? '').toBe('');
    // Never a second submission, whatever the head says.
    expect(actionTypes(d)).not.toContain('submitRayJob');
    expect(actionTypes(d)).not.toContain('createSubmitterJob');
  });

  it('the lost-with-its-head message is today\'s', () => {
    const d = run({ ...ft(), rayJob: inState('Running', 'HTTPMode', { jobStatus: 'RUNNING' }), dashboard: { kind: 'not-found' }, now: at(95) });
    expect(d.status.message).toBe(messages.headLost(JOB_ID, 'RUNNING'));
  });

  it('a followed job ends with what Ray says once it finishes: SUCCEEDED after the new head came back', () => {
    const d = run({ ...ft(), rayJob: inState('Running', 'HTTPMode', { jobStatus: 'RUNNING' }), dashboard: found('SUCCEEDED', { endTime: at(200).getTime() }), now: at(201) });
    expect(d.status).toMatchObject({ jobDeploymentStatus: 'Complete', jobStatus: 'SUCCEEDED' });
  });
});
