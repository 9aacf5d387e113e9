/**
 * The cases of status-correctness.md that core decides, each asserting the whole decision: status, reason, exact
 * message, actions and requeue time. Where we differ from KubeRay on purpose, the row says so.
 * C7–C13: the driver node's death, the submitter's exit, liveness calls and an unreachable dashboard.
 */
import { expect } from 'vitest';
import { at, DRIVER_NODE, found, healthyCluster, inState, iso, JOB_ID, ms, submitterJob } from './fixtures.ts';
import { finishedTimeoutMessage, running, runStatusCorrectnessCases } from './status-correctness-table.ts';

runStatusCorrectnessCases([
  {
    id: 'C7 (first sight)',
    behaviour: 'the driver node is first seen DEAD: Running, and the operator starts counting',
    input: () => ({ rayJob: running(), ...healthyCluster(), submitterJob: submitterJob(), dashboard: found('RUNNING'), driverNode: { kind: 'dead', nodeId: DRIVER_NODE }, now: at(20) }),
    expected: { deployment: 'Running', jobStatus: 'RUNNING', actions: [], requeue: 3 },
    also: (d) => expect(d.memory.driverNodeLostSince).toEqual({ jobId: JOB_ID, nodeId: DRIVER_NODE, since: at(20).toISOString() }),
  },
  {
    id: 'C7',
    behaviour: 'the driver node DEAD for 30 s of our observation while the submitter still runs: Failed, jobStatus FAILED, job stopped (addition F)',
    input: () => ({
      rayJob: running(),
      ...healthyCluster(),
      submitterJob: submitterJob(),
      dashboard: found('RUNNING'),
      driverNode: { kind: 'dead', nodeId: DRIVER_NODE },
      memory: { driverNodeLostSince: { jobId: JOB_ID, nodeId: DRIVER_NODE, since: at(20).toISOString() } },
      now: at(50),
    }),
    expected: {
      deployment: 'Failed', jobStatus: 'FAILED', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded',
      message: `The Ray job's driver node ${DRIVER_NODE} has been DEAD or missing since 2026-12-02 10:00:20; the job cannot finish (no evidence of life within 30s)`,
      actions: ['stopRayJob'], requeue: 3,
    },
  },
  {
    id: 'C7 (submitter exited 5)',
    behaviour: 'the submitter exited (driver lost) 30 s ago and the node is DEAD: rule 4 with KubeRay\'s message',
    input: () => ({
      rayJob: running(),
      ...healthyCluster(),
      submitterJob: submitterJob({ type: 'Failed', at: 40, reason: 'PodFailurePolicy', message: 'exit code 5' }),
      dashboard: found('RUNNING'),
      driverNode: { kind: 'dead', nodeId: DRIVER_NODE },
      now: at(70),
    }),
    expected: { deployment: 'Failed', jobStatus: 'FAILED', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', message: finishedTimeoutMessage(40), actions: ['stopRayJob'], requeue: 3 },
  },
  {
    id: 'C8',
    behaviour: 'the submitter exited 0 while the job runs on a live node: still Running after 3 x 30 s (KubeRay: Failed after 30 s)',
    input: () => ({
      rayJob: running(),
      ...healthyCluster(),
      submitterJob: submitterJob({ type: 'Complete', at: 10 }),
      dashboard: found('RUNNING'),
      driverNode: { kind: 'alive', nodeId: DRIVER_NODE },
      now: at(100),
    }),
    expected: { deployment: 'Running', jobStatus: 'RUNNING', actions: [], requeue: 3 },
  },
  {
    id: 'C9 (29 s)',
    behaviour: 'exited 0, job PENDING without a driver node: still Running 29 s later',
    input: () => ({ rayJob: running({}, { jobStatus: 'PENDING' }), ...healthyCluster(), submitterJob: submitterJob({ type: 'Complete', at: 10 }), dashboard: found('PENDING', { driverNodeId: undefined }), now: at(39) }),
    expected: { deployment: 'Running', jobStatus: 'PENDING', actions: [], requeue: 3 },
  },
  {
    id: 'C9',
    behaviour: 'exited 0, job PENDING without a driver node: Failed 30 s after the submitter finished, pending job stopped',
    input: () => ({ rayJob: running({}, { jobStatus: 'PENDING' }), ...healthyCluster(), submitterJob: submitterJob({ type: 'Complete', at: 10 }), dashboard: found('PENDING', { driverNodeId: undefined }), now: at(40) }),
    expected: { deployment: 'Failed', jobStatus: 'FAILED', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', message: finishedTimeoutMessage(10), actions: ['stopRayJob'], requeue: 3 },
  },
  {
    id: 'C10',
    behaviour: '30 s expired, the CR says RUNNING, the fresh status is SUCCEEDED: Complete, not Failed',
    input: () => ({ rayJob: running(), ...healthyCluster(), submitterJob: submitterJob({ type: 'Complete', at: 10 }), dashboard: found('SUCCEEDED', { endTime: ms(9) }), now: at(100) }),
    expected: { deployment: 'Complete', jobStatus: 'SUCCEEDED', reason: undefined, message: 'Job is succeeded.', actions: [], requeue: 3 },
  },
  {
    id: 'C11',
    behaviour: 'the liveness call fails (5xx, network, error body): inconclusive is not dead, left Running',
    input: () => ({
      rayJob: running(),
      ...healthyCluster(),
      submitterJob: submitterJob({ type: 'Complete', at: 10 }),
      dashboard: found('RUNNING'),
      driverNode: { kind: 'inconclusive', nodeId: DRIVER_NODE, reason: 'HTTP 503' },
      memory: { driverNodeLostSince: { jobId: JOB_ID, nodeId: DRIVER_NODE, since: at(0).toISOString() } },
      now: at(100),
    }),
    expected: { deployment: 'Running', jobStatus: 'RUNNING', actions: [], requeue: 3 },
    also: (d) => expect(d.memory.driverNodeLostSince).toBeUndefined(),
  },
  {
    id: 'C12',
    behaviour: 'SidecarMode, head pod deleted: AppFailed "Ray head pod not found.", the lost job recorded FAILED',
    input: () => ({ rayJob: inState('Running', 'SidecarMode'), ...healthyCluster(), headPods: [], dashboard: { kind: 'unreachable', reason: 'connect ECONNREFUSED' } }),
    expected: { deployment: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: 'Ray head pod not found.', actions: [], requeue: 3 },
  },
  {
    id: 'C13',
    behaviour: 'the dashboard stays unreachable past the status-check timeout: JobStatusCheckTimeoutExceeded, not retried',
    input: () => ({
      rayJob: running({ backoffLimit: 2 }, { jobStatusCheckFailureStartTime: iso(10) }),
      ...healthyCluster(),
      submitterJob: submitterJob(),
      dashboard: { kind: 'unreachable', reason: 'connect ECONNREFUSED' },
      now: at(310),
    }),
    expected: {
      deployment: 'Failed', jobStatus: 'RUNNING', reason: 'JobStatusCheckTimeoutExceeded',
      message: 'Job status checks have been failing since 2026-12-02 10:00:10; exceeded timeout of 300s', actions: ['stopRayJob'], requeue: 3,
    },
    also: (d) => expect(d.status.failed).toBe(1),
  },
]);
