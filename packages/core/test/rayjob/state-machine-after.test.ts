/**
 * The decision scenarios of kuberay-rayjob.md §5 (KubeRay's unit, envtest and e2e suites), one row each,
 * asserting the whole decision. Rows marked "(ours)" differ from KubeRay on purpose (docs/compatibility.md).
 * After Running: suspension, completion, failure, validation and deletion.
 */
import { expect } from 'vitest';
import { at, CLUSTER, DASHBOARD, found, healthyCluster, inState, iso, JOB_ID, makeCluster, makeRayJob, testSettings } from './fixtures.ts';
import { runStateMachineRows } from './state-machine-table.ts';

runStateMachineRows('KubeRay state machine scenarios: Suspending, Complete, Failed, validation, deletion', [
  {
    behaviour: 'Suspending with resources being deleted: waits without deleting again',
    input: () => ({ rayJob: inState('Suspending', 'K8sJobMode', {}, { suspend: true, shutdownAfterJobFinishes: true }), cluster: makeCluster('ready', { metadata: { name: CLUSTER, deletionTimestamp: iso(1) } } as never) }),
    deployment: 'Suspending', actions: [], requeue: 3, statusChanged: false,
  },
  {
    behaviour: 'Suspending in clusterSelector mode never deletes the selected cluster',
    input: () => ({ rayJob: inState('Suspending', 'HTTPMode', {}, { clusterSelector: { 'ray.io/cluster': 'shared' }, rayClusterSpec: undefined }), cluster: makeCluster('ready') }),
    deployment: 'Suspended', actions: [], requeue: 0,
  },
  {
    behaviour: 'Suspended with suspend=true: nothing, no requeue',
    input: () => ({ rayJob: inState('Suspended', 'K8sJobMode', { jobStatus: '' }, { suspend: true, shutdownAfterJobFinishes: true }) }),
    deployment: 'Suspended', actions: [], requeue: undefined, statusChanged: false,
  },
  {
    behaviour: 'Created with suspend=true: New -> Initializing -> Suspending without creating a cluster',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode', { dashboardURL: undefined }, { suspend: true, shutdownAfterJobFinishes: true }) }),
    deployment: 'Suspending', actions: [], requeue: 3,
  },
  {
    behaviour: 'Complete, shutdownAfterJobFinishes with a TTL ahead: requeue 2 s after it',
    input: () => ({ rayJob: inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED', endTime: iso(100) }, { shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 10 }), ...healthyCluster(), now: at(105) }),
    deployment: 'Complete', actions: [], requeue: 7, statusChanged: false,
  },
  {
    behaviour: 'Complete, DELETE_RAYJOB_CR_AFTER_JOB_FINISHES: the RayJob itself is deleted',
    input: () => ({ rayJob: inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED', endTime: iso(100) }, { shutdownAfterJobFinishes: true }), ...healthyCluster(), settings: { ...testSettings, deleteRayJobAfterJobFinishes: true }, now: at(100) }),
    deployment: 'Complete', actions: ['deleteRayJob'], requeue: undefined, statusChanged: false,
  },
  {
    behaviour: 'Complete without any cleanup policy: nothing, no requeue',
    input: () => ({ rayJob: inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED', endTime: iso(100) }), ...healthyCluster(), now: at(500) }),
    deployment: 'Complete', actions: [], requeue: undefined, statusChanged: false,
  },
  {
    behaviour: 'Complete in clusterSelector mode with shutdownAfterJobFinishes: the selected cluster is never deleted',
    input: () => ({ rayJob: inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED', endTime: iso(100) }, { shutdownAfterJobFinishes: true, clusterSelector: { 'ray.io/cluster': CLUSTER }, rayClusterSpec: undefined }), ...healthyCluster(), now: at(100) }),
    deployment: 'Complete', actions: [], requeue: undefined, statusChanged: false,
  },
  {
    behaviour: 'Failed with a live Ray job (addition C): stop it, come back soon',
    input: () => ({ rayJob: inState('Failed', 'K8sJobMode', { jobStatus: 'RUNNING', reason: 'DeadlineExceeded', endTime: iso(30) }), ...healthyCluster(), dashboard: found('RUNNING') }),
    deployment: 'Failed', actions: ['stopRayJob'], requeue: 3, statusChanged: false,
  },
  {
    behaviour: 'Failed, the stop was acknowledged and the job is still RUNNING: poll less often',
    input: () => ({ rayJob: inState('Failed', 'K8sJobMode', { jobStatus: 'RUNNING', reason: 'DeadlineExceeded', endTime: iso(30) }), ...healthyCluster(), dashboard: found('RUNNING'), memory: { stopAcknowledged: { jobId: JOB_ID } } }),
    deployment: 'Failed', actions: [], requeue: 30, statusChanged: false,
  },
  {
    behaviour: 'Failed, Ray now reports the job STOPPED: record the final status (one more write, ours)',
    input: () => ({ rayJob: inState('Failed', 'K8sJobMode', { jobStatus: 'RUNNING', reason: 'DeadlineExceeded', endTime: iso(30) }), ...healthyCluster(), dashboard: found('STOPPED', { endTime: at(33).getTime() }) }),
    deployment: 'Failed', actions: [], requeue: undefined, statusChanged: true,
    check: (d) => expect(d.status).toMatchObject({ jobStatus: 'STOPPED', endTime: iso(30), rayJobInfo: { endTime: iso(33) } }),
  },
  {
    behaviour: 'Failed, a stopped PENDING job stays PENDING once Ray acknowledged',
    input: () => ({ rayJob: inState('Failed', 'K8sJobMode', { jobStatus: 'PENDING', reason: 'SubmissionFailed', endTime: iso(30) }), ...healthyCluster(), dashboard: found('PENDING'), memory: { stopAcknowledged: { jobId: JOB_ID } } }),
    deployment: 'Failed', actions: [], requeue: undefined, statusChanged: false,
  },
  {
    behaviour: 'Failed, dashboard unreachable with the cluster still there: retry the stop later',
    input: () => ({ rayJob: inState('Failed', 'K8sJobMode', { jobStatus: 'RUNNING', reason: 'JobStatusCheckTimeoutExceeded', endTime: iso(30) }), ...healthyCluster(), dashboard: { kind: 'unreachable', reason: 'x' } }),
    deployment: 'Failed', actions: [], requeue: 3, statusChanged: false,
  },
  {
    behaviour: 'Failed with DeadlineExceeded and shutdown ttl 0: stop the job and delete the cluster in one pass',
    input: () => ({ rayJob: inState('Failed', 'K8sJobMode', { jobStatus: 'RUNNING', reason: 'DeadlineExceeded', endTime: iso(30) }, { shutdownAfterJobFinishes: true }), ...healthyCluster(), dashboard: found('RUNNING'), now: at(30) }),
    deployment: 'Failed', actions: ['stopRayJob', 'deleteCluster'], requeue: 3, statusChanged: false,
  },
  {
    behaviour: 'Complete RayJob edited into an invalid spec stays Complete (addition G)',
    input: () => ({ rayJob: inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED', endTime: iso(100) }, { suspend: true }), ...healthyCluster() }),
    deployment: 'Complete', actions: [], requeue: undefined, statusChanged: false,
  },
  {
    behaviour: 'Invalid spec (suspend without shutdown): ValidationFailed with KubeRay\'s message and a Warning event',
    input: () => ({ rayJob: inState('Running', 'K8sJobMode', {}, { suspend: true }) }),
    deployment: 'ValidationFailed', actions: ['event:InvalidRayJobSpec'], requeue: undefined, statusChanged: true,
    check: (d) => {
      expect(d.status).toMatchObject({ reason: 'ValidationFailed', message: 'The RayJob spec is invalid: a RayJob with shutdownAfterJobFinishes set to false is not allowed to be suspended' });
      expect(d.actions[0]).toMatchObject({ event: { type: 'Warning', action: 'Validate', note: 'default/rayjob-sample: The RayJob spec is invalid: a RayJob with shutdownAfterJobFinishes set to false is not allowed to be suspended' } });
    },
  },
  {
    behaviour: 'ValidationFailed with the spec fixed (ours: KubeRay stays stuck): back to New, names kept',
    input: () => ({ rayJob: inState('ValidationFailed', 'K8sJobMode', { reason: 'ValidationFailed', message: 'bad' }) }),
    deployment: '', actions: [], requeue: 0,
    check: (d) => expect(d.status).toMatchObject({ jobId: JOB_ID, rayClusterName: CLUSTER }),
  },
  {
    behaviour: 'managedBy another controller: skipped entirely',
    input: () => ({ rayJob: makeRayJob({ spec: { managedBy: 'kueue.x-k8s.io/multikueue' }, metadata: { finalizers: [] } }) }),
    deployment: '', actions: [], requeue: undefined, statusChanged: false,
  },
  {
    behaviour: 'Deletion of a Running RayJob: stop the Ray job (best effort) and remove the finalizer',
    input: () => ({ rayJob: makeRayJob({ metadata: { deletionTimestamp: iso(50) }, status: { jobDeploymentStatus: 'Running', jobId: JOB_ID, dashboardURL: DASHBOARD, jobStatus: 'RUNNING' } }) }),
    deployment: 'Running', actions: ['stopRayJob', 'removeFinalizer'], requeue: undefined, statusChanged: false,
  },
  {
    behaviour: 'Deletion of a never-initialised RayJob: no stop with empty IDs (KubeRay tries), just the finalizer',
    input: () => ({ rayJob: makeRayJob({ metadata: { deletionTimestamp: iso(50) } }) }),
    deployment: '', actions: ['removeFinalizer'], requeue: undefined, statusChanged: false,
  },
  {
    behaviour: 'Deletion without our finalizer: nothing',
    input: () => ({ rayJob: makeRayJob({ metadata: { deletionTimestamp: iso(50), finalizers: [] } }) }),
    deployment: '', actions: [], requeue: undefined, statusChanged: false,
  },
]);
