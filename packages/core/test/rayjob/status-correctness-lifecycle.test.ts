/**
 * The cases of status-correctness.md that core decides, each asserting the whole decision: status, reason, exact
 * message, actions and requeue time. Where we differ from KubeRay on purpose, the row says so.
 * C14–C25: grace periods, deadlines, submitter Jobs, downtime, retries, suspension and a deleted cluster.
 */
import { expect } from 'vitest';
import { at, CLUSTER, DRIVER_NODE, found, healthyCluster, inState, iso, JOB_ID, ms, submitterJob } from './fixtures.ts';
import { running, runStatusCorrectnessCases } from './status-correctness-table.ts';

runStatusCorrectnessCases([
  {
    id: 'C14',
    behaviour: 'the Ray job ended but the submitter never finishes: 300 s after Ray\'s end time, Complete with the grace reason',
    input: () => ({ rayJob: running(), ...healthyCluster(), submitterJob: submitterJob(), dashboard: found('SUCCEEDED', { endTime: ms(10) }), now: at(310) }),
    expected: {
      deployment: 'Complete', jobStatus: 'SUCCEEDED', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded',
      message: 'JobDeploymentStatus does not transition to Complete or Failed within the grace period after JobStatus reaches a terminal state.',
      actions: [], requeue: 3,
    },
  },
  {
    id: 'C14 (before)',
    behaviour: 'within the grace period the RayJob waits for the submitter (#1919), showing the terminal jobStatus',
    input: () => ({ rayJob: running(), ...healthyCluster(), submitterJob: submitterJob(), dashboard: found('SUCCEEDED', { endTime: ms(10) }), now: at(309) }),
    expected: { deployment: 'Running', jobStatus: 'SUCCEEDED', actions: [], requeue: 3 },
  },
  {
    id: 'C15',
    behaviour: 'activeDeadlineSeconds passes: DeadlineExceeded, and the Ray job is stopped (KubeRay leaves it running)',
    input: () => ({ rayJob: running({ activeDeadlineSeconds: 30 }), ...healthyCluster(), submitterJob: submitterJob(), dashboard: found('RUNNING'), now: at(30) }),
    expected: {
      deployment: 'Failed', jobStatus: 'RUNNING', reason: 'DeadlineExceeded',
      message: 'The RayJob has passed the activeDeadlineSeconds. StartTime: 2026-12-02 10:00:00 +0000 UTC. ActiveDeadlineSeconds: 30',
      actions: ['stopRayJob'], requeue: 3,
    },
    also: (d) => expect(d.writeStatusFirst).toBe(true),
  },
  {
    id: 'C15 (addition E)',
    behaviour: 'the job ended inside the deadline while nobody looked: its real result, not DeadlineExceeded',
    input: () => ({ rayJob: running({ activeDeadlineSeconds: 30 }), ...healthyCluster(), submitterJob: submitterJob({ type: 'Complete', at: 21 }), dashboard: found('SUCCEEDED', { endTime: ms(20) }), now: at(90) }),
    expected: { deployment: 'Complete', jobStatus: 'SUCCEEDED', reason: undefined, message: 'Job is succeeded.', actions: [], requeue: 3 },
  },
  {
    id: 'C17',
    behaviour: 'a submitter retried after a successful submit (one failed pod, one active): nothing changes',
    input: () => ({
      rayJob: running(),
      ...healthyCluster(),
      submitterJob: { ...submitterJob(), status: { active: 1, failed: 1 } },
      dashboard: found('RUNNING'),
      driverNode: { kind: 'alive', nodeId: DRIVER_NODE },
    }),
    expected: { deployment: 'Running', jobStatus: 'RUNNING', actions: [], requeue: 3 },
  },
  {
    id: 'C19',
    behaviour: 'the submitter Job deleted mid-run: recreated (it re-attaches), still Running (KubeRay: stuck)',
    input: () => ({ rayJob: running(), ...healthyCluster(), submitterJob: undefined, dashboard: found('RUNNING'), driverNode: { kind: 'alive', nodeId: DRIVER_NODE } }),
    expected: { deployment: 'Running', jobStatus: 'RUNNING', actions: ['createSubmitterJob', 'event:CreatedRayJobSubmitter'], requeue: 3 },
    also: (d) => expect(d.actions[0]).toMatchObject({ type: 'createSubmitterJob', recreated: true, job: { metadata: { name: 'rayjob-sample' } } }),
  },
  {
    id: 'C19 (job ended)',
    behaviour: 'the submitter Job deleted and Ray reports the end: nothing left to wait for, Complete',
    input: () => ({ rayJob: running(), ...healthyCluster(), submitterJob: undefined, dashboard: found('SUCCEEDED', { endTime: ms(50) }) }),
    expected: { deployment: 'Complete', jobStatus: 'SUCCEEDED', reason: undefined, message: 'Job is succeeded.', actions: [], requeue: 3 },
  },
  {
    id: 'C20',
    behaviour: 'the operator was down 2 min while the job succeeded: Complete/SUCCEEDED after restart',
    input: () => ({ rayJob: running(), ...healthyCluster(), submitterJob: submitterJob({ type: 'Complete', at: 30 }), dashboard: found('SUCCEEDED', { endTime: ms(29) }), now: at(150) }),
    expected: { deployment: 'Complete', jobStatus: 'SUCCEEDED', reason: undefined, message: 'Job is succeeded.', actions: [], requeue: 3 },
  },
  {
    id: 'C21 (first failure)',
    behaviour: 'backoffLimit 2, the job FAILED: Retrying, failed=1, no stop (the cluster goes next)',
    input: () => ({ rayJob: running({ backoffLimit: 2 }), ...healthyCluster(), submitterJob: submitterJob({ type: 'Failed', at: 40, reason: 'PodFailurePolicy', message: 'exit code 1' }), dashboard: found('FAILED', { endTime: ms(39), message: 'Job entrypoint command failed with exit code 1' }), now: at(41) }),
    expected: { deployment: 'Retrying', jobStatus: 'FAILED', reason: 'AppFailed', message: 'Job entrypoint command failed with exit code 1', actions: [], requeue: 3 },
    also: (d) => expect(d.status).toMatchObject({ failed: 1, succeeded: 0 }),
  },
  {
    id: 'C21 (retrying)',
    behaviour: 'Retrying with the cluster and Job still present: delete both, wait',
    input: () => ({ rayJob: inState('Retrying', 'K8sJobMode', { jobStatus: 'FAILED', failed: 1 }, { backoffLimit: 2 }), ...healthyCluster(), submitterJob: submitterJob({ type: 'Failed', at: 40 }) }),
    expected: { deployment: 'Retrying', jobStatus: 'FAILED', actions: ['deleteCluster', 'deleteSubmitterJob'], requeue: 3 },
  },
  {
    id: 'C21 (new attempt)',
    behaviour: 'Retrying with everything released: New, attempt fields reset, counters kept',
    input: () => ({ rayJob: inState('Retrying', 'K8sJobMode', { jobStatus: 'FAILED', failed: 1, reason: 'AppFailed', message: 'x' }, { backoffLimit: 2 }) }),
    expected: { deployment: '', jobStatus: '', reason: undefined, message: undefined, actions: [], requeue: 0 },
    also: (d) => {
      expect(d.status).toMatchObject({ failed: 1, succeeded: 0, startTime: iso(0) });
      expect(d.status.jobId).toBeUndefined();
      expect(d.status.rayClusterName).toBeUndefined();
      expect(d.status.dashboardURL).toBeUndefined();
    },
  },
  {
    id: 'C21 (last attempt)',
    behaviour: 'backoffLimit 2 and two failures already: the third failure stays Failed, failed=3',
    input: () => ({ rayJob: running({ backoffLimit: 2 }, { failed: 2 }), ...healthyCluster(), submitterJob: submitterJob({ type: 'Failed', at: 40 }), dashboard: found('FAILED', { endTime: ms(39), message: 'boom' }), now: at(41) }),
    expected: { deployment: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: 'boom', actions: [], requeue: 3 },
    also: (d) => expect(d.status.failed).toBe(3),
  },
  {
    id: 'C22 (suspend)',
    behaviour: 'suspend a Running RayJob: Suspending',
    input: () => ({ rayJob: running({ suspend: true, shutdownAfterJobFinishes: true }), ...healthyCluster(), submitterJob: submitterJob(), dashboard: found('RUNNING') }),
    expected: { deployment: 'Suspending', jobStatus: 'RUNNING', actions: [], requeue: 3 },
  },
  {
    id: 'C22 (suspended)',
    behaviour: 'Suspending with resources gone: Suspended, attempt reset',
    input: () => ({ rayJob: inState('Suspending', 'K8sJobMode', { jobStatus: 'RUNNING' }, { suspend: true, shutdownAfterJobFinishes: true }) }),
    expected: { deployment: 'Suspended', jobStatus: '', actions: [], requeue: 0 },
  },
  {
    id: 'C22 (resume)',
    behaviour: 'Suspended and suspend=false: New',
    input: () => ({ rayJob: inState('Suspended', 'K8sJobMode', { jobStatus: '', jobId: undefined, rayClusterName: undefined, dashboardURL: undefined }, { suspend: false, shutdownAfterJobFinishes: true }) }),
    expected: { deployment: '', jobStatus: '', actions: [], requeue: 0 },
  },
  {
    id: 'C23',
    behaviour: 'HTTPMode, driver node killed while RUNNING: Failed 30 s later (KubeRay: Running forever)',
    input: () => ({
      rayJob: inState('Running', 'HTTPMode'),
      ...healthyCluster(),
      dashboard: found('RUNNING'),
      driverNode: { kind: 'missing', nodeId: DRIVER_NODE },
      memory: { driverNodeLostSince: { jobId: JOB_ID, nodeId: DRIVER_NODE, since: at(30).toISOString() } },
      now: at(60),
    }),
    expected: {
      deployment: 'Failed', jobStatus: 'FAILED', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded',
      message: `The Ray job's driver node ${DRIVER_NODE} has been DEAD or missing since 2026-12-02 10:00:30; the job cannot finish (no evidence of life within 30s)`,
      actions: ['stopRayJob'], requeue: 3,
    },
  },
  {
    id: 'C24',
    behaviour: 'the job SUCCEEDED during 6 min of downtime after a check failure was recorded: Complete/SUCCEEDED (KubeRay: JobStatusCheckTimeoutExceeded)',
    input: () => ({
      rayJob: running({}, { jobStatusCheckFailureStartTime: iso(10) }),
      ...healthyCluster(),
      submitterJob: submitterJob({ type: 'Complete', at: 101 }),
      dashboard: found('SUCCEEDED', { endTime: ms(100) }),
      now: at(370),
    }),
    expected: { deployment: 'Complete', jobStatus: 'SUCCEEDED', reason: undefined, message: 'Job is succeeded.', actions: [], requeue: 3 },
    also: (d) => expect(d.status.jobStatusCheckFailureStartTime).toBeUndefined(),
  },
  {
    id: 'C25',
    behaviour: 'a FAILED Ray job fails the submitter Job at once (podFailurePolicy): Failed/AppFailed with Ray\'s message',
    input: () => ({
      rayJob: running({ submitterConfig: { backoffLimit: 2 } }),
      ...healthyCluster(),
      submitterJob: submitterJob({ type: 'Failed', at: 40, reason: 'PodFailurePolicy', message: 'Container ray-job-submitter for pod default/rayjob-sample-abcde failed with exit code 1 matching FailJob rule at index 0' }),
      dashboard: found('FAILED', { endTime: ms(39), message: 'Job entrypoint command failed with exit code 1' }),
      now: at(41),
    }),
    expected: { deployment: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: 'Job entrypoint command failed with exit code 1', actions: [], requeue: 3 },
  },
  {
    id: 'cluster deleted',
    behaviour: 'the RayCluster vanished under a Running RayJob: AppFailed saying so, the lost job recorded FAILED (KubeRay silently recreates it)',
    input: () => ({ rayJob: running(), cluster: undefined, submitterJob: submitterJob(), dashboard: { kind: 'unreachable', reason: 'getaddrinfo ENOTFOUND' } }),
    expected: { deployment: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: `RayCluster default/${CLUSTER} was deleted while the RayJob was running; the Ray job is lost.`, actions: [], requeue: 3 },
  },
]);
