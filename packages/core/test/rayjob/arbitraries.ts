import fc from 'fast-check';
import {
  JOB_DEPLOYMENT_STATUSES, SUBMISSION_MODES, type DecisionInput, type JobDeploymentStatus, type K8sJob, type Pod, type SubmissionMode,
} from '../../src/index.ts';
import { at, clusterHeadService, DRIVER_NODE, headPod, inState, iso, JOB_ID, makeCluster, ms, rayJobHeadService, submitterJob, submitterPod, testSettings } from './fixtures.ts';

const rayStatus = fc.constantFrom('', 'PENDING', 'RUNNING', 'STOPPED', 'SUCCEEDED', 'FAILED');
const seconds = fc.integer({ min: 0, max: 900 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const specArb = fc.record({
  suspend: fc.boolean(),
  shutdownAfterJobFinishes: fc.boolean(),
  backoffLimit: fc.integer({ min: 0, max: 3 }),
  activeDeadlineSeconds: maybe(fc.integer({ min: 1, max: 600 })),
  preRunningDeadlineSeconds: maybe(fc.integer({ min: 1, max: 600 })),
  ttlSecondsAfterFinished: fc.integer({ min: 0, max: 30 }),
  jobId: maybe(fc.constant('user-id')),
  clusterSelector: fc.boolean(),
  deletionRules: fc.boolean(),
});

const statusArb = fc.record({
  jobStatus: rayStatus,
  hasNames: fc.boolean(),
  hasDashboard: fc.boolean(),
  checkFailingSince: maybe(seconds),
  endTime: maybe(seconds),
  rayEnd: maybe(seconds),
  failed: fc.integer({ min: 0, max: 3 }),
  message: maybe(fc.constantFrom('', 'Ray says hi')),
});

const dashboardArb: fc.Arbitrary<DecisionInput['dashboard']> = fc.oneof(
  fc.constant({ kind: 'not-queried' as const }),
  fc.constant({ kind: 'not-found' as const }),
  fc.constant({ kind: 'unreachable' as const, reason: 'connect ECONNREFUSED' }),
  fc.record({ status: fc.constantFrom('PENDING', 'RUNNING', 'STOPPED', 'SUCCEEDED', 'FAILED' as const), end: maybe(seconds), driver: fc.boolean(), message: maybe(fc.constantFrom('', 'msg')) }).map(
    ({ status, end, driver, message }) => ({
      kind: 'found' as const,
      info: { status, message, startTime: ms(1), endTime: end === undefined ? undefined : ms(end), driverNodeId: driver ? DRIVER_NODE : undefined },
    }),
  ),
);

const driverArb: fc.Arbitrary<DecisionInput['driverNode']> = fc.constantFrom(
  { kind: 'not-checked' as const },
  { kind: 'alive' as const, nodeId: DRIVER_NODE },
  { kind: 'dead' as const, nodeId: DRIVER_NODE },
  { kind: 'missing' as const, nodeId: DRIVER_NODE },
  { kind: 'inconclusive' as const, nodeId: DRIVER_NODE, reason: 'HTTP 503' },
);

const submitterJobArb: fc.Arbitrary<K8sJob | undefined> = fc.oneof(
  fc.constant<K8sJob | undefined>(undefined),
  fc.constant<K8sJob | undefined>(submitterJob()),
  seconds.map((s) => submitterJob({ type: 'Complete', at: s })),
  seconds.map((s) => submitterJob({ type: 'Failed', at: s, reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' })),
);

const headPodsArb: fc.Arbitrary<Pod[]> = fc.oneof(
  fc.constant<Pod[]>([]),
  fc.constant<Pod[]>([headPod()]),
  fc.constant<Pod[]>([headPod(), headPod()]),
  fc.record({ code: fc.constantFrom(0, 1, 5), at: seconds }).map(({ code, at: s }) => [headPod({ exitCode: code, finishedAt: s })]),
  fc.integer({ min: 0, max: 3 }).map((n) => [headPod({ restartCount: n, lastTerminated: true })]),
);

const terminationArb = fc.option(fc.constantFrom('SUCCEEDED', 'FAILED', 'RUNNING'), { nil: undefined });

export const MODES = SUBMISSION_MODES;
export const STATES = JOB_DEPLOYMENT_STATUSES;

export interface Generated {
  mode: SubmissionMode;
  state: JobDeploymentStatus;
  input: DecisionInput;
}

export interface Constraints {
  states?: readonly JobDeploymentStatus[];
  dashboard?: fc.Arbitrary<DecisionInput['dashboard']>;
  driverNode?: fc.Arbitrary<DecisionInput['driverNode']>;
  deleting?: fc.Arbitrary<boolean>;
}

/** Any RayJob in any deployment state and submission mode, with any observation of its surroundings. */
export const decisionInputArb: fc.Arbitrary<Generated> = decisionInputs({});

/** The same, narrowed (instead of filtering, which would reject most samples). */
export function decisionInputs(c: Constraints): fc.Arbitrary<Generated> {
  return fc
  .record({
    mode: fc.constantFrom(...SUBMISSION_MODES),
    state: fc.constantFrom(...(c.states ?? JOB_DEPLOYMENT_STATUSES)),
    spec: specArb,
    status: statusArb,
    clusterState: fc.constantFrom('absent', 'ready', 'provisioning', 'deleting'),
    headServiceCurrent: fc.boolean(),
    submitterJob: submitterJobArb,
    headPods: headPodsArb,
    termination: terminationArb,
    dashboard: c.dashboard ?? dashboardArb,
    driverNode: c.driverNode ?? driverArb,
    memoryLostSince: maybe(seconds),
    stopAcknowledged: fc.boolean(),
    submitFailure: fc.boolean(),
    deleting: c.deleting ?? fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    now: fc.integer({ min: 0, max: 1200 }),
    seed: fc.integer(),
    restartGate: fc.boolean(),
  })
  .map((g): Generated => {
    const spec: Record<string, unknown> = {
      submissionMode: g.mode,
      suspend: g.spec.suspend,
      shutdownAfterJobFinishes: g.spec.shutdownAfterJobFinishes,
      backoffLimit: g.spec.backoffLimit,
      activeDeadlineSeconds: g.spec.activeDeadlineSeconds,
      preRunningDeadlineSeconds: g.spec.preRunningDeadlineSeconds,
      ttlSecondsAfterFinished: g.spec.ttlSecondsAfterFinished,
      jobId: g.spec.jobId,
    };
    if (g.spec.clusterSelector) spec.clusterSelector = { 'ray.io/cluster': 'shared' };
    if (g.spec.deletionRules) spec.deletionStrategy = { deletionRules: [{ policy: 'DeleteCluster', condition: { jobStatus: 'SUCCEEDED', ttlSeconds: 5 } }, { policy: 'DeleteSelf', condition: { jobDeploymentStatus: 'Failed' } }] };
    const s = g.status;
    const rayJob = inState(g.state, g.mode, {
      jobStatus: s.jobStatus,
      jobId: s.hasNames ? JOB_ID : undefined,
      rayClusterName: s.hasNames ? (g.spec.clusterSelector ? 'shared' : makeCluster().metadata.name) : undefined,
      dashboardURL: s.hasDashboard ? `x-head-svc.default.svc.cluster.local:8265` : undefined,
      jobStatusCheckFailureStartTime: s.checkFailingSince === undefined ? undefined : iso(s.checkFailingSince),
      endTime: s.endTime === undefined ? undefined : iso(s.endTime),
      rayJobInfo: s.rayEnd === undefined ? undefined : { endTime: iso(s.rayEnd) },
      failed: s.failed,
      message: s.message,
      reason: g.state === 'Failed' ? 'AppFailed' : undefined,
    }, spec);
    if (g.deleting) rayJob.metadata.deletionTimestamp = iso(g.now);
    const cluster = g.clusterState === 'absent' ? undefined : makeCluster(g.clusterState === 'provisioning' ? undefined : 'ready');
    if (cluster && g.clusterState === 'deleting') cluster.metadata.deletionTimestamp = iso(0);
    const termination = g.termination
      ? JSON.stringify({ kind: 'rayjob.io/submitter-result', version: 1, submissionId: JOB_ID, lastStatus: g.termination, exitCode: 0, reason: 'x' })
      : undefined;
    return {
      mode: g.mode,
      state: g.state,
      input: {
        rayJob,
        cluster,
        clusterHeadService: clusterHeadService(),
        rayJobHeadService: g.headServiceCurrent ? rayJobHeadService() : undefined,
        submitterJob: g.submitterJob,
        submitterPods: termination ? [submitterPod(termination, 10)] : [],
        headPods: g.headPods,
        dashboard: g.dashboard,
        driverNode: g.driverNode,
        memory: {
          driverNodeLostSince: g.memoryLostSince === undefined ? undefined : { jobId: JOB_ID, nodeId: DRIVER_NODE, since: at(g.memoryLostSince).toISOString() },
          stopAcknowledged: g.stopAcknowledged ? { jobId: JOB_ID } : undefined,
          submitFailure: g.submitFailure ? { jobId: JOB_ID, at: iso(0), message: 'HTTP 500' } : undefined,
        },
        settings: { ...testSettings, featureGates: { rayJobDeletionPolicy: true, sidecarSubmitterRestart: g.restartGate } },
        now: at(g.now),
        random: mulberry(g.seed),
      },
    };
  });
}

function mulberry(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
