/**
 * The decision scenarios of kuberay-rayjob.md §5 (KubeRay's unit, envtest and e2e suites), one row each,
 * asserting the whole decision. Rows marked "(ours)" differ from KubeRay on purpose (docs/compatibility.md).
 * New, Initializing and Waiting: from a new RayJob to its job running.
 */
import { expect } from 'vitest';
import { at, CLUSTER, clusterHeadService, DASHBOARD, headPod, inState, iso, makeCluster, makeRayJob, NAME, submitterJob } from './fixtures.ts';
import { runStateMachineRows } from './state-machine-table.ts';

runStateMachineRows('KubeRay state machine scenarios: New, Initializing, Waiting', [
  {
    behaviour: 'New: adds the finalizer, persists a generated job ID and cluster name, Initializing with startTime',
    input: () => ({ rayJob: makeRayJob({ metadata: { finalizers: [] } }), now: at(0) }),
    deployment: 'Initializing', actions: ['addFinalizer'], requeue: 0,
    check: (d) => {
      expect(d.status.jobId).toMatch(/^rayjob-sample-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(d.status.rayClusterName).toMatch(/^rayjob-sample-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
      expect(d.status.jobId).not.toBe(d.status.rayClusterName);
      expect(d.status).toMatchObject({ startTime: iso(0), failed: 0, succeeded: 0 });
    },
  },
  {
    behaviour: 'New: spec.jobId and the clusterSelector name are used as given',
    input: () => ({ rayJob: makeRayJob({ spec: { jobId: 'my-id', clusterSelector: { 'ray.io/cluster': 'shared' }, rayClusterSpec: undefined } }) }),
    deployment: 'Initializing', actions: [], requeue: 0,
    check: (d) => expect(d.status).toMatchObject({ jobId: 'my-id', rayClusterName: 'shared' }),
  },
  {
    behaviour: 'New: InteractiveMode generates no job ID',
    input: () => ({ rayJob: makeRayJob({ spec: { submissionMode: 'InteractiveMode' } }) }),
    deployment: 'Initializing', actions: [], requeue: 0,
    check: (d) => expect(d.status.jobId).toBeUndefined(),
  },
  {
    behaviour: 'Initializing without a cluster: creates the RayCluster with the persisted name, labels, annotations and owner',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode', { dashboardURL: undefined }, {}) }),
    deployment: 'Initializing', actions: ['createCluster'], requeue: 3, statusChanged: false,
    check: (d) => expect(d.actions[0]).toMatchObject({
      cluster: {
        metadata: {
          name: CLUSTER,
          labels: { 'ray.io/originated-from-cr-name': NAME, 'ray.io/originated-from-crd': 'RayJob', 'ray.io/job-submission-mode': 'K8sJobMode' },
          ownerReferences: [{ kind: 'RayJob', name: NAME, controller: true, blockOwnerDeletion: true }],
        },
      },
    }),
  },
  {
    behaviour: 'Initializing, clusterSelector cluster missing: RayClusterNotFound warning, requeue',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode', { dashboardURL: undefined, rayClusterName: 'shared' }, { clusterSelector: { 'ray.io/cluster': 'shared' }, rayClusterSpec: undefined }) }),
    deployment: 'Initializing', actions: ['event:RayClusterNotFound'], requeue: 3, statusChanged: false,
    check: (d) => expect(d.actions[0]).toMatchObject({ event: { type: 'Warning', note: 'RayCluster default/shared set in the clusterSelector is not found. It must be created manually' } }),
  },
  {
    behaviour: 'Initializing, cluster not ready: mirrors the cluster status and waits (nothing new to write when the copy is current)',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode', { dashboardURL: undefined }), cluster: makeCluster(undefined, { status: { conditions: [{ type: 'HeadPodReady', status: 'False', reason: 'Pending', message: '', lastTransitionTime: iso(1) }] } } as never) }),
    deployment: 'Initializing', actions: [], requeue: 3, statusChanged: false,
    check: (d) => expect(d.status.rayClusterStatus?.conditions?.[0]?.type).toBe('HeadPodReady'),
  },
  {
    behaviour: 'Initializing, cluster ready: persists the dashboard URL before creating anything that embeds it',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode', { dashboardURL: undefined }), cluster: makeCluster('ready'), clusterHeadService: clusterHeadService() }),
    deployment: 'Initializing', actions: [], requeue: 0, statusChanged: true,
    check: (d) => expect(d.status.dashboardURL).toBe(DASHBOARD),
  },
  {
    behaviour: 'Initializing, HTTPMode, cluster ready: the dashboard URL and Running in one write (nothing is built from the URL before Running)',
    input: () => ({ rayJob: inState('Initializing', 'HTTPMode', { dashboardURL: undefined }), cluster: makeCluster('ready'), clusterHeadService: clusterHeadService() }),
    deployment: 'Running', actions: [], requeue: 0, statusChanged: true,
    check: (d) => expect(d.status.dashboardURL).toBe(DASHBOARD),
  },
  {
    behaviour: 'Initializing, cluster ready but its head Service has no dashboard port: waits',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode', { dashboardURL: undefined }), cluster: makeCluster('ready'), clusterHeadService: { metadata: { name: 'x' }, spec: { ports: [] } } }),
    deployment: 'Initializing', actions: [], requeue: 3, statusChanged: false,
    check: (d) => expect(d.notes.join()).toContain('dashboard port is not found'),
  },
  {
    behaviour: 'Initializing, K8sJobMode: creates the submitter Job and stays until it is seen',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode'), cluster: makeCluster('ready') }),
    deployment: 'Initializing', actions: ['createSubmitterJob'], requeue: 3, statusChanged: false,
    check: (d) => expect(d.actions[0]).toMatchObject({ recreated: false, job: { metadata: { name: NAME, labels: { 'app.kubernetes.io/created-by': 'kuberay-operator' } }, spec: { backoffLimit: 2 } } }),
  },
  {
    behaviour: 'Initializing, K8sJobMode with the Job present: Running',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode'), cluster: makeCluster('ready'), submitterJob: submitterJob() }),
    deployment: 'Running', actions: [], requeue: 0,
  },
  {
    behaviour: 'Initializing, HTTPMode and SidecarMode go straight to Running',
    input: () => ({ rayJob: inState('Initializing', 'HTTPMode'), cluster: makeCluster('ready') }),
    deployment: 'Running', actions: [], requeue: 0,
  },
  {
    behaviour: 'Initializing, SidecarMode: a sidecar that already exited (head pod NotReady for good) does not leave the RayJob waiting for ready',
    input: () => ({ rayJob: inState('Initializing', 'SidecarMode', { dashboardURL: undefined }), cluster: makeCluster(''), clusterHeadService: clusterHeadService(), headPods: [headPod({ exitCode: 0, reason: 'Completed', finishedAt: 50 })] }),
    deployment: 'Initializing', actions: [], requeue: 0, statusChanged: true,
    check: (d) => expect(d.status.dashboardURL).toBe(DASHBOARD),
  },
  {
    behaviour: 'Initializing, SidecarMode: a running sidecar still waits for the cluster to be ready',
    input: () => ({ rayJob: inState('Initializing', 'SidecarMode', { dashboardURL: undefined }), cluster: makeCluster(''), clusterHeadService: clusterHeadService(), headPods: [headPod()] }),
    deployment: 'Initializing', actions: [], requeue: 3,
    check: (d) => expect(d.status.dashboardURL).toBeUndefined(),
  },
  {
    behaviour: 'Initializing, InteractiveMode: Waiting once the cluster is ready',
    input: () => ({ rayJob: inState('Initializing', 'InteractiveMode', { jobId: undefined }), cluster: makeCluster('ready') }),
    deployment: 'Waiting', actions: [], requeue: 3,
  },
  {
    behaviour: 'Initializing past activeDeadlineSeconds: Failed/DeadlineExceeded, not retried',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode', {}, { activeDeadlineSeconds: 3, backoffLimit: 2 }), now: at(3) }),
    deployment: 'Failed', actions: [], requeue: 3,
    check: (d) => expect(d.status).toMatchObject({ reason: 'DeadlineExceeded', failed: 1, endTime: iso(3) }),
  },
  {
    behaviour: 'Initializing past preRunningDeadlineSeconds: Failed/PreRunningDeadlineExceeded, retryable',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode', {}, { preRunningDeadlineSeconds: 5, backoffLimit: 1 }), now: at(5) }),
    deployment: 'Retrying', actions: [], requeue: 3,
    check: (d) => expect(d.status).toMatchObject({
      reason: 'PreRunningDeadlineExceeded',
      message: 'The RayJob has passed the preRunningDeadlineSeconds. StartTime: 2026-12-02 10:00:00 +0000 UTC. PreRunningDeadlineSeconds: 5',
      failed: 1,
    }),
  },
  {
    behaviour: 'Initializing, a deadline ahead: the requeue lands on it',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode', { dashboardURL: undefined }, { preRunningDeadlineSeconds: 5 }), cluster: makeCluster('provisioning'), now: at(4) }),
    deployment: 'Initializing', actions: [], requeue: 1,
  },
  {
    behaviour: 'Initializing with suspend: Suspending',
    input: () => ({ rayJob: inState('Initializing', 'K8sJobMode', {}, { suspend: true, shutdownAfterJobFinishes: true }) }),
    deployment: 'Suspending', actions: [], requeue: 3,
  },
  {
    behaviour: 'Waiting without spec.jobId: no write, requeue',
    input: () => ({ rayJob: inState('Waiting', 'InteractiveMode', { jobId: undefined }) }),
    deployment: 'Waiting', actions: [], requeue: 3, statusChanged: false,
  },
  {
    behaviour: 'Waiting with spec.jobId: Running with that ID',
    input: () => ({ rayJob: inState('Waiting', 'InteractiveMode', { jobId: undefined }, { jobId: 'fake-id' }) }),
    deployment: 'Running', actions: [], requeue: 0,
    check: (d) => expect(d.status.jobId).toBe('fake-id'),
  },
  {
    behaviour: 'Waiting past preRunningDeadlineSeconds: Failed',
    input: () => ({ rayJob: inState('Waiting', 'InteractiveMode', { jobId: undefined }, { preRunningDeadlineSeconds: 60 }), now: at(60) }),
    deployment: 'Failed', actions: [], requeue: 3,
  },
  {
    behaviour: 'Waiting with suspend (ours: KubeRay ignores it there): Suspending',
    input: () => ({ rayJob: inState('Waiting', 'InteractiveMode', { jobId: undefined }, { suspend: true, shutdownAfterJobFinishes: true }) }),
    deployment: 'Suspending', actions: [], requeue: 3,
  },
  {
    behaviour: 'Waiting past activeDeadlineSeconds (ours): Failed/DeadlineExceeded',
    input: () => ({ rayJob: inState('Waiting', 'InteractiveMode', { jobId: undefined }, { activeDeadlineSeconds: 10 }), now: at(10) }),
    deployment: 'Failed', actions: [], requeue: 3,
    check: (d) => expect(d.status.reason).toBe('DeadlineExceeded'),
  },
]);
