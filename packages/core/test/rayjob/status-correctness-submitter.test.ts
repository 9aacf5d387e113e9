/**
 * The cases of status-correctness.md that core decides, each asserting the whole decision: status, reason, exact
 * message, actions and requeue time. Where we differ from KubeRay on purpose, the row says so.
 * C1–C6: a lost submitter, a JobHead restart, the sidecar, submitter failures and a lost head.
 */
import { expect } from 'vitest';
import { formatTerminationMessage } from '../../src/index.ts';
import { at, DRIVER_NODE, found, headPod, healthyCluster, inState, iso, JOB_ID, ms, submitterJob, submitterPod } from './fixtures.ts';
import { backoffFailed, running, runStatusCorrectnessCases } from './status-correctness-table.ts';

runStatusCorrectnessCases([
  {
    id: 'C1',
    behaviour: 'a submitter pod deleted mid-job (backoff 0, Job Failed) does not fail a job Ray reports RUNNING on a live node',
    input: () => ({
      rayJob: running({ submitterConfig: { backoffLimit: 0 } }),
      ...healthyCluster(),
      submitterJob: submitterJob({ ...backoffFailed, at: 20 }),
      dashboard: found('RUNNING'),
      driverNode: { kind: 'alive', nodeId: DRIVER_NODE },
      now: at(120),
    }),
    expected: { deployment: 'Running', jobStatus: 'RUNNING', reason: undefined, message: 'Job is running.', actions: [], requeue: 3 },
  },
  {
    id: 'C1 (end)',
    behaviour: 'after the lost submitter, the job SUCCEEDED: Complete/SUCCEEDED, the cluster kept until then',
    input: () => ({
      rayJob: running({ submitterConfig: { backoffLimit: 0 } }),
      ...healthyCluster(),
      submitterJob: submitterJob({ ...backoffFailed, at: 20 }),
      dashboard: found('SUCCEEDED', { endTime: ms(200) }),
      now: at(201),
    }),
    expected: { deployment: 'Complete', jobStatus: 'SUCCEEDED', reason: undefined, message: 'Job is succeeded.', actions: [], requeue: 3 },
    also: (d) => expect(d.status).toMatchObject({ succeeded: 1, failed: 0, endTime: iso(201) }),
  },
  {
    id: 'C2',
    behaviour: 'a JobHead restart (dashboard answers 500) with shutdownAfterJobFinishes only records the failing check; nothing is deleted',
    input: () => ({
      rayJob: running({ shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 0, submitterConfig: { backoffLimit: 0 } }),
      ...healthyCluster(),
      submitterJob: submitterJob(),
      dashboard: { kind: 'unreachable', reason: 'HTTP 500' },
      now: at(90),
    }),
    expected: { deployment: 'Running', jobStatus: 'RUNNING', actions: [], requeue: 3 },
    also: (d) => expect(d.status.jobStatusCheckFailureStartTime).toBe(iso(90)),
  },
  {
    id: 'C2 (end)',
    behaviour: 'once Complete, shutdownAfterJobFinishes with ttl 0 deletes the cluster',
    input: () => ({
      rayJob: inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED', endTime: iso(300) }, { shutdownAfterJobFinishes: true }),
      ...healthyCluster(),
      now: at(300),
    }),
    expected: { deployment: 'Complete', jobStatus: 'SUCCEEDED', actions: ['deleteCluster'], requeue: undefined },
  },
  {
    id: 'C3',
    behaviour: 'SidecarMode: the sidecar survives a JobHead restart; Running while Ray says RUNNING',
    input: () => ({
      rayJob: inState('Running', 'SidecarMode'),
      ...healthyCluster(),
      headPods: [headPod()],
      dashboard: found('RUNNING'),
      driverNode: { kind: 'alive', nodeId: DRIVER_NODE },
    }),
    expected: { deployment: 'Running', jobStatus: 'RUNNING', actions: [], requeue: 3 },
  },
  {
    id: 'C3 (end)',
    behaviour: 'SidecarMode: sidecar exited 0 and Ray SUCCEEDED: Complete',
    input: () => ({
      rayJob: inState('Running', 'SidecarMode'),
      ...healthyCluster(),
      headPods: [headPod({ exitCode: 0, finishedAt: 100, reason: 'Completed' })],
      dashboard: found('SUCCEEDED', { endTime: ms(99) }),
      now: at(101),
    }),
    expected: { deployment: 'Complete', jobStatus: 'SUCCEEDED', reason: undefined, message: 'Job is succeeded.', actions: [], requeue: 3 },
  },
  {
    id: 'C4',
    behaviour: 'the submitter fails before the job was ever seen (not found): SubmissionFailed at once with the Job condition',
    input: () => ({
      rayJob: running({}, { jobStatus: '' }),
      ...healthyCluster(),
      submitterJob: submitterJob({ ...backoffFailed, at: 30 }),
      dashboard: { kind: 'not-found' },
      now: at(31),
    }),
    expected: {
      deployment: 'Failed', jobStatus: '', reason: 'SubmissionFailed',
      message: 'Job submission has failed. Reason: BackoffLimitExceeded. Message: Job has reached the specified backoff limit',
      actions: [], requeue: 3,
    },
  },
  {
    id: 'C4 (PENDING)',
    behaviour: 'the submitter fails while the job is PENDING: SubmissionFailed, and the pending job is stopped (addition C)',
    input: () => ({
      rayJob: running({}, { jobStatus: 'PENDING' }),
      ...healthyCluster(),
      submitterJob: submitterJob({ ...backoffFailed, at: 30 }),
      dashboard: found('PENDING', { driverNodeId: undefined }),
      now: at(31),
    }),
    expected: {
      deployment: 'Failed', jobStatus: 'PENDING', reason: 'SubmissionFailed',
      message: 'Job submission has failed. Reason: BackoffLimitExceeded. Message: Job has reached the specified backoff limit',
      actions: ['stopRayJob'], requeue: 3,
    },
    also: (d) => expect(d.writeStatusFirst).toBe(true),
  },
  {
    id: 'C5',
    behaviour: 'the submitter fails and the CR already says FAILED: AppFailed, message kept',
    input: () => ({
      rayJob: running({}, { jobStatus: 'FAILED', message: 'Job entrypoint command failed with exit code 1' }),
      ...healthyCluster(),
      submitterJob: submitterJob({ ...backoffFailed, at: 30 }),
      dashboard: { kind: 'unreachable', reason: 'connect ECONNREFUSED' },
      now: at(31),
    }),
    expected: { deployment: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: 'Job entrypoint command failed with exit code 1', actions: [], requeue: 3 },
  },
  {
    id: 'C6',
    behaviour: 'head force-deleted: the submitter finished and the fresh head knows no job: AppFailed at once, the lost job recorded FAILED (not left RUNNING)',
    input: () => ({
      rayJob: running(),
      ...healthyCluster(),
      submitterJob: submitterJob({ type: 'Failed', at: 50, reason: 'PodFailurePolicy', message: 'Container ray-job-submitter for pod default/x failed with exit code 3 matching FailJob rule at index 0' }),
      dashboard: { kind: 'not-found' },
      now: at(52),
    }),
    expected: { deployment: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: 'Submitter completed but Ray job not found in RayCluster.', actions: [], requeue: 3 },
  },
  {
    id: 'C6 (addition A)',
    behaviour: 'head lost after the job ended: the submitter\'s termination message for this ID says SUCCEEDED, so Complete',
    input: () => ({
      rayJob: running(),
      ...healthyCluster(),
      submitterJob: submitterJob({ type: 'Complete', at: 50 }),
      submitterPods: [submitterPod(formatTerminationMessage({ kind: 'rayjob.io/submitter-result', version: 1, submissionId: JOB_ID, lastStatus: 'SUCCEEDED', exitCode: 0, reason: 'Succeeded', endTime: ms(49) }), 50)],
      dashboard: { kind: 'not-found' },
      now: at(52),
    }),
    expected: {
      deployment: 'Complete', jobStatus: 'SUCCEEDED', reason: undefined,
      message: 'The Ray head can no longer answer; the submitter recorded the job as SUCCEEDED before it exited.', actions: [], requeue: 3,
    },
    also: (d) => expect(d.status.rayJobInfo?.endTime).toBe(iso(49)),
  },
  {
    id: 'C6 (addition A, other ID)',
    behaviour: 'a termination message for another submission ID is not evidence: AppFailed',
    input: () => ({
      rayJob: running(),
      ...healthyCluster(),
      submitterJob: submitterJob({ type: 'Complete', at: 50 }),
      submitterPods: [submitterPod(formatTerminationMessage({ kind: 'rayjob.io/submitter-result', version: 1, submissionId: 'someone-else', lastStatus: 'SUCCEEDED', exitCode: 0, reason: 'Succeeded' }), 50)],
      dashboard: { kind: 'not-found' },
      now: at(52),
    }),
    expected: { deployment: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: 'Submitter completed but Ray job not found in RayCluster.', actions: [], requeue: 3 },
  },
  {
    id: 'C6 (never seen)',
    behaviour: 'the submitter finished and Ray never reported the job: AppFailed, and no status is invented for it',
    input: () => ({
      rayJob: running({}, { jobStatus: '' }),
      ...healthyCluster(),
      submitterJob: submitterJob({ type: 'Complete', at: 50 }),
      dashboard: { kind: 'not-found' },
      now: at(52),
    }),
    expected: { deployment: 'Failed', jobStatus: '', reason: 'AppFailed', message: 'Submitter completed but Ray job not found in RayCluster.', actions: [], requeue: 3 },
  },
]);
