/**
 * The decision scenarios of kuberay-rayjob.md §5 (KubeRay's unit, envtest and e2e suites), one row each,
 * asserting the whole decision. Rows marked "(ours)" differ from KubeRay on purpose (docs/compatibility.md).
 * Running: judging the Ray job, the submitter and the dashboard.
 */
import { expect } from 'vitest';
import { at, CLUSTER, clusterHeadService, DASHBOARD, DRIVER_NODE, found, headPod, healthyCluster, inState, iso, JOB_ID, makeCluster, NAME, submitterJob, testSettings, submitterPod } from './fixtures.ts';
import { runStateMachineRows } from './state-machine-table.ts';

runStateMachineRows('KubeRay state machine scenarios: Running', [
  {
    behaviour: 'Running, dashboard SUCCEEDED but the submitter Job not finished: stays Running (#1919)',
    input: () => ({ rayJob: inState('Running'), ...healthyCluster(), submitterJob: submitterJob(), dashboard: found('SUCCEEDED', { endTime: at(50).getTime() }) }),
    deployment: 'Running', actions: [], requeue: 3,
    check: (d) => expect(d.status.jobStatus).toBe('SUCCEEDED'),
  },
  {
    behaviour: 'Running, SUCCEEDED and the submitter container exited 0 before the Job controller marked the Job Complete: Complete at once',
    input: () => ({ rayJob: inState('Running'), ...healthyCluster(), submitterJob: submitterJob(), submitterPods: [submitterPod(undefined, 51)], dashboard: found('SUCCEEDED', { endTime: at(50).getTime() }), now: at(51) }),
    deployment: 'Complete', actions: [], requeue: 3,
    check: (d) => expect(d.status).toMatchObject({ jobStatus: 'SUCCEEDED', succeeded: 1 }),
  },
  {
    behaviour: 'Running, FAILED and the submitter container exited 1 with the Job not yet Failed: stays Running (the Job may retry the pod)',
    input: () => ({ rayJob: inState('Running'), ...healthyCluster(), submitterJob: submitterJob(), submitterPods: [submitterPod(undefined, 51, 1)], dashboard: found('FAILED', { endTime: at(50).getTime() }), now: at(51) }),
    deployment: 'Running', actions: [], requeue: 3,
    check: (d) => expect(d.status.jobStatus).toBe('FAILED'),
  },
  {
    behaviour: 'Running, STOPPED and the submitter finished: Complete',
    input: () => ({ rayJob: inState('Running'), ...healthyCluster(), submitterJob: submitterJob({ type: 'Complete', at: 50 }), dashboard: found('STOPPED', { endTime: at(49).getTime() }) }),
    deployment: 'Complete', actions: [], requeue: 3,
    check: (d) => expect(d.status).toMatchObject({ jobStatus: 'STOPPED', succeeded: 0 }),
  },
  {
    behaviour: 'Running, first run creates the RayJob head Service pointing at the cluster head',
    input: () => ({ rayJob: inState('Running'), cluster: makeCluster('ready'), clusterHeadService: clusterHeadService(), submitterJob: submitterJob(), dashboard: found('RUNNING'), driverNode: { kind: 'alive', nodeId: DRIVER_NODE } }),
    deployment: 'Running', actions: ['applyHeadService'], requeue: 3,
    check: (d) => expect(d.actions[0]).toMatchObject({ existing: 'absent', service: { metadata: { name: `${NAME}-head-svc` }, spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: { 'ray.io/cluster': CLUSTER, 'ray.io/node-type': 'head' } } } }),
  },
  {
    behaviour: 'Running, not found while the submitter runs: requeue without a write',
    input: () => ({ rayJob: inState('Running', 'K8sJobMode', { jobStatus: '' }), ...healthyCluster(), submitterJob: submitterJob(), dashboard: { kind: 'not-found' } }),
    deployment: 'Running', actions: [], requeue: 3, statusChanged: false,
  },
  {
    behaviour: 'Running, InteractiveMode not found: requeue',
    input: () => ({ rayJob: inState('Running', 'InteractiveMode', { jobStatus: '' }), ...healthyCluster(), dashboard: { kind: 'not-found' } }),
    deployment: 'Running', actions: [], requeue: 3, statusChanged: false,
  },
  {
    behaviour: 'Running, HTTPMode not found: submits the job over HTTP with the persisted ID, PENDING to be recorded once Ray accepts it (onAccept)',
    input: () => ({ rayJob: inState('Running', 'HTTPMode', { jobStatus: '' }, { entrypointNumCpus: 1, entrypointResources: '{"R1": 2}', runtimeEnvYAML: 'env_vars:\n  A: b\n' }), ...healthyCluster(), dashboard: { kind: 'not-found' } }),
    deployment: 'Running', actions: ['submitRayJob'], requeue: 3, statusChanged: false,
    check: (d) => {
      expect(d.onAccept?.status.jobStatus).toBe('PENDING');
      expect(d.actions[0]).toEqual({
        type: 'submitRayJob', dashboardURL: DASHBOARD,
        request: { entrypoint: 'python /home/ray/samples/sample_code.py', submission_id: JOB_ID, entrypoint_num_cpus: 1, entrypoint_resources: { R1: 2 }, runtime_env: { env_vars: { A: 'b' } } },
      });
    },
  },
  {
    behaviour: 'Running, HTTPMode after a failed submission: the status-check timer starts, submit again',
    input: () => ({ rayJob: inState('Running', 'HTTPMode', { jobStatus: '' }), ...healthyCluster(), dashboard: { kind: 'not-found' }, memory: { submitFailure: { jobId: JOB_ID, at: iso(30), message: 'HTTP 500' } } }),
    deployment: 'Running', actions: ['submitRayJob'], requeue: 3, statusChanged: true,
    check: (d) => expect(d.status.jobStatusCheckFailureStartTime).toBe(iso(30)),
  },
  {
    behaviour: 'Running, HTTPMode submissions failing past the timeout: JobStatusCheckTimeoutExceeded',
    input: () => ({ rayJob: inState('Running', 'HTTPMode', { jobStatus: '', jobStatusCheckFailureStartTime: iso(0) }), ...healthyCluster(), dashboard: { kind: 'not-found' }, memory: { submitFailure: { jobId: JOB_ID, at: iso(0), message: 'HTTP 500' } }, now: at(300) }),
    deployment: 'Failed', actions: [], requeue: 3,
    check: (d) => expect(d.status.reason).toBe('JobStatusCheckTimeoutExceeded'),
  },
  {
    behaviour: 'Running, HTTPMode recovery: a found job clears a 30 s old failure timer',
    input: () => ({ rayJob: inState('Running', 'HTTPMode', { jobStatusCheckFailureStartTime: iso(0) }), ...healthyCluster(), dashboard: found('RUNNING'), driverNode: { kind: 'alive', nodeId: DRIVER_NODE }, now: at(30) }),
    deployment: 'Running', actions: [], requeue: 3,
    check: (d) => expect(d.status.jobStatusCheckFailureStartTime).toBeUndefined(),
  },
  {
    behaviour: 'Running, second failed check: no write, requeue',
    input: () => ({ rayJob: inState('Running', 'K8sJobMode', { jobStatusCheckFailureStartTime: iso(10) }), ...healthyCluster(), submitterJob: submitterJob(), dashboard: { kind: 'unreachable', reason: 'timeout' }, now: at(20) }),
    deployment: 'Running', actions: [], requeue: 3, statusChanged: false,
  },
  {
    behaviour: 'Running, dashboard not queried: nothing to judge, requeue',
    input: () => ({ rayJob: inState('Running'), ...healthyCluster(), submitterJob: submitterJob() }),
    deployment: 'Running', actions: [], requeue: 3, statusChanged: false,
  },
  {
    behaviour: 'Running, SidecarMode submitter exited non-zero before the job ran: SubmissionFailed with the container message',
    input: () => ({ rayJob: inState('Running', 'SidecarMode', { jobStatus: '' }), ...healthyCluster(), headPods: [headPod({ exitCode: 2, reason: 'Error' })], dashboard: { kind: 'not-found' } }),
    deployment: 'Failed', actions: [], requeue: 3,
    check: (d) => expect(d.status).toMatchObject({ reason: 'SubmissionFailed', message: 'Ray head pod container ray-job-submitter terminated with exit code 2: Error' }),
  },
  {
    behaviour: 'Running, SidecarMode with the restart gate: restart count 2 exceeded before the job ran',
    input: () => ({ rayJob: inState('Running', 'SidecarMode', { jobStatus: '' }), ...healthyCluster(), headPods: [headPod({ restartCount: 2, lastTerminated: true })], dashboard: { kind: 'not-found' }, settings: { ...testSettings, featureGates: { rayJobDeletionPolicy: true, sidecarSubmitterRestart: true } } }),
    deployment: 'Failed', actions: [], requeue: 3,
    check: (d) => expect(d.status.message).toBe('Ray head pod submitter container ray-job-submitter terminated after exceeding the maximum restart count'),
  },
  {
    behaviour: 'Running, SidecarMode with the restart gate: restart count 1 is not exceeded',
    input: () => ({ rayJob: inState('Running', 'SidecarMode', { jobStatus: '' }), ...healthyCluster(), headPods: [headPod({ restartCount: 1, lastTerminated: true })], dashboard: { kind: 'not-found' }, settings: { ...testSettings, featureGates: { rayJobDeletionPolicy: true, sidecarSubmitterRestart: true } } }),
    deployment: 'Running', actions: [], requeue: 3, statusChanged: false,
  },
  {
    behaviour: 'Running, SidecarMode with the restart gate: restart count 3 but the last run exited 0 is not exceeded',
    input: () => ({ rayJob: inState('Running', 'SidecarMode', { jobStatus: '' }), ...healthyCluster(), headPods: [headPod({ restartCount: 3, lastTerminated: true, exitCode: 0, reason: 'Completed' })], dashboard: { kind: 'not-found' }, settings: { ...testSettings, featureGates: { rayJobDeletionPolicy: true, sidecarSubmitterRestart: true } } }),
    deployment: 'Failed', actions: [], requeue: 3,
    check: (d) => expect(d.status.message).toBe('Submitter completed but Ray job not found in RayCluster.'),
  },
  {
    behaviour: 'suspend on a Complete RayJob does nothing (only Running and Initializing suspend)',
    input: () => ({ rayJob: inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED', endTime: iso(10) }, { suspend: true, shutdownAfterJobFinishes: true }), ...healthyCluster() }),
    deployment: 'Complete', actions: ['deleteCluster'], requeue: undefined, statusChanged: false,
  },
  {
    behaviour: 'a message-only change while Running waits for the next write, which carries it (as KubeRay: status-writes.test.ts)',
    input: () => ({ rayJob: inState('Running', 'K8sJobMode', { message: 'old', rayClusterStatus: { state: 'ready' } }), ...healthyCluster(), submitterJob: submitterJob(), dashboard: found('RUNNING', { message: 'new', startTime: undefined }), driverNode: { kind: 'alive', nodeId: DRIVER_NODE } }),
    deployment: 'Running', actions: [], requeue: 3, statusChanged: false,
    check: (d) => expect(d.status.message).toBe('new'),
  },
  {
    behaviour: 'Running, SidecarMode with two head pods: wait for the cluster to settle',
    input: () => ({ rayJob: inState('Running', 'SidecarMode'), ...healthyCluster(), headPods: [headPod(), headPod()], dashboard: found('RUNNING') }),
    deployment: 'Running', actions: [], requeue: 3, statusChanged: false,
  },
  {
    behaviour: 'Running, unreachable dashboard with the Job missing: the submitter is recreated while checks fail',
    input: () => ({ rayJob: inState('Running'), ...healthyCluster(), submitterJob: undefined, dashboard: { kind: 'unreachable', reason: 'timeout' } }),
    deployment: 'Running', actions: ['createSubmitterJob', 'event:CreatedRayJobSubmitter'], requeue: 3,
  },
  {
    behaviour: 'Running, unreachable dashboard but the submitter recorded FAILED before exiting (addition A): AppFailed',
    input: () => ({
      rayJob: inState('Running'), ...healthyCluster(),
      submitterJob: submitterJob({ type: 'Failed', at: 40 }),
      submitterPods: [{ metadata: { name: 'p' }, spec: { containers: [{ name: 'ray-job-submitter' }] }, status: { containerStatuses: [{ name: 'ray-job-submitter', state: { terminated: { exitCode: 1, finishedAt: iso(40), message: JSON.stringify({ kind: 'rayjob.io/submitter-result', version: 1, submissionId: JOB_ID, lastStatus: 'FAILED', exitCode: 1, reason: 'JobFailed' }) } } }] } } as never],
      dashboard: { kind: 'unreachable', reason: 'connect ECONNREFUSED' },
    }),
    deployment: 'Failed', actions: [], requeue: 3,
    check: (d) => expect(d.status).toMatchObject({ reason: 'AppFailed', jobStatus: 'FAILED' }),
  },
]);
