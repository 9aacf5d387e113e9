// K8sJobMode lifecycle on the sandbox: New -> Initializing -> Running -> Complete, with every created object
// checked against KubeRay's reference (§3.1 RayCluster, §3.2-3.3 submitter Job, §3.5 RayJob head Service).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { createRayJob, getRayJob, listEvents, rayJobManifest, startEnv, SUBMITTER_IMAGE, waitForDeployment, type Env } from './support/env.ts';

let env: Env;
beforeAll(async () => {
  env = await startEnv(['--enable-metrics', '--metrics-addr=127.0.0.1:0', '--health-probe-bind-address=127.0.0.1:0']);
});
afterAll(async () => {
  await env?.stop();
});

const SUFFIX = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;
const ownerRefTo = (rayJob: Json) => ({ apiVersion: 'ray.io/v1', kind: 'RayJob', name: rayJob.metadata.name, uid: rayJob.metadata.uid, controller: true, blockOwnerDeletion: true });

describe('K8sJobMode', { timeout: 150_000 }, () => {
  it('runs to Complete/SUCCEEDED; cluster, submitter Job and head Service are as KubeRay builds them; shutdown deletes the cluster, keeps the Job', async () => {
    await createRayJob(env.url, rayJobManifest('k8s-ok', { shutdownAfterJobFinishes: true, metadata: { team: 'a' } }));
    const done = await waitForDeployment(env.url, 'k8s-ok', 'Complete');
    const status = done.status;
    expect(status).toMatchObject({ jobStatus: 'SUCCEEDED', succeeded: 1, failed: 0 });
    expect(status.rayClusterName.slice(0, 'k8s-ok-'.length)).toBe('k8s-ok-');
    expect(status.rayClusterName.slice('k8s-ok-'.length)).toMatch(SUFFIX);
    expect(status.jobId.slice('k8s-ok-'.length)).toMatch(SUFFIX);
    expect(status.dashboardURL).toBe(`${status.rayClusterName}-head-svc.default.svc.cluster.local:8265`);
    expect(status.startTime).toBeTruthy();
    expect(status.endTime).toBeTruthy();
    expect(done.metadata.finalizers).toContain('ray.io/rayjob-finalizer');

    const job = (await api(env.url, 'GET', '/apis/batch/v1/namespaces/default/jobs/k8s-ok')).body;
    expect(job.metadata.labels).toEqual({ 'ray.io/originated-from-cr-name': 'k8s-ok', 'ray.io/originated-from-crd': 'RayJob', 'app.kubernetes.io/created-by': 'kuberay-operator' });
    expect(job.metadata.ownerReferences).toEqual([ownerRefTo(done)]);
    expect(job.spec.backoffLimit).toBe(2);
    expect(job.spec.template.metadata.labels).toMatchObject(job.metadata.labels);
    expect(job.spec.template.spec.restartPolicy).toBe('Never');
    const container = job.spec.template.spec.containers[0];
    expect(container).toMatchObject({ name: 'ray-job-submitter', image: SUBMITTER_IMAGE, command: ['/submitter'] });
    expect(container.resources).toEqual({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '200Mi' } });
    expect(container.args.slice(-2)).toEqual(['--', 'echo hello; sleep 1; echo done']);
    expect(container.args).toContain('--metadata-json');
    const env_ = Object.fromEntries(container.env.map((e: Json) => [e.name, e.value]));
    expect(env_).toMatchObject({ PYTHONUNBUFFERED: '1', RAY_DASHBOARD_ADDRESS: `http://${status.dashboardURL}`, RAY_JOB_SUBMISSION_ID: status.jobId });
    // Addition H: our submitter's final exit codes fail the Job at once; disruptions do not count.
    expect(job.spec.podFailurePolicy.rules[0]).toMatchObject({ action: 'FailJob', onExitCodes: { containerName: 'ray-job-submitter', operator: 'In' } });
    expect(job.spec.podFailurePolicy.rules[1]).toMatchObject({ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] });

    const svc = (await api(env.url, 'GET', '/api/v1/namespaces/default/services/k8s-ok-head-svc')).body;
    expect(svc.metadata.labels).toEqual({ 'ray.io/originated-from-cr-name': 'k8s-ok', 'ray.io/originated-from-crd': 'RayJob', 'ray.io/node-type': 'head', 'ray.io/identifier': 'k8s-ok-head' });
    expect(svc.metadata.ownerReferences).toEqual([ownerRefTo(done)]);
    expect(svc.spec).toMatchObject({ clusterIP: 'None', publishNotReadyAddresses: true, selector: { 'ray.io/cluster': status.rayClusterName, 'ray.io/node-type': 'head' } });

    // shutdownAfterJobFinishes (ttl 0): the cluster goes, the submitter Job stays for its logs.
    await eventually('the cluster to be deleted', async () => (await api(env.url, 'GET', `/apis/ray.io/v1/namespaces/default/rayclusters/${status.rayClusterName}`)).status === 404);
    expect((await api(env.url, 'GET', '/apis/batch/v1/namespaces/default/jobs/k8s-ok')).status).toBe(200);

    const reasons = (await listEvents(env.url, 'k8s-ok')).map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['CreatedRayCluster', 'CreatedRayJobSubmitter', 'CreatedService', 'DeletedRayCluster']));

    // KubeRay's and controller-runtime's metrics, and the probes.
    const { metrics, probes } = env.operator.addresses;
    const text = await (await fetch(`http://${metrics}/metrics`)).text();
    expect(text).toContain(`kuberay_job_info{name="k8s-ok",namespace="default",uid="${done.metadata.uid}"} 1`);
    expect(text).toContain(`kuberay_job_deployment_status{name="k8s-ok",namespace="default",uid="${done.metadata.uid}",deployment_status="Complete"} 1`);
    expect(text).toMatch(new RegExp(`kuberay_job_execution_duration_seconds\\{name="k8s-ok",namespace="default",uid="${done.metadata.uid}",job_deployment_status="Complete",retry_count="0"\\} \\d`));
    expect(text).toMatch(/controller_runtime_reconcile_total\{controller="rayjob",result="(success|requeue_after)"\} \d+/);
    expect(text).toMatch(/workqueue_adds_total\{controller="rayjob",name="rayjob"\} \d+/);
    expect((await fetch(`http://${probes}/readyz`)).status).toBe(200);
    expect((await fetch(`http://${probes}/healthz`)).status).toBe(200);
  });

  it('the RayCluster carries the RayJob labels and annotations, KubeRay provenance labels and a controller ownerReference', async () => {
    const manifest = rayJobManifest('k8s-labels', { entrypoint: 'sleep 30' });
    manifest.metadata.labels = { app: 'demo' };
    manifest.metadata.annotations = { note: 'kept' };
    await createRayJob(env.url, manifest);
    const running = await waitForDeployment(env.url, 'k8s-labels', 'Running');
    const cluster = (await api(env.url, 'GET', `/apis/ray.io/v1/namespaces/default/rayclusters/${running.status.rayClusterName}`)).body;
    expect(cluster.metadata.labels).toEqual({ app: 'demo', 'ray.io/originated-from-cr-name': 'k8s-labels', 'ray.io/originated-from-crd': 'RayJob', 'ray.io/job-submission-mode': 'K8sJobMode' });
    expect(cluster.metadata.annotations).toEqual({ note: 'kept' });
    expect(cluster.metadata.ownerReferences).toEqual([ownerRefTo(running)]);
    expect(cluster.spec.headGroupSpec.template.spec.containers).toHaveLength(1);
    await api(env.url, 'DELETE', '/apis/ray.io/v1/namespaces/default/rayjobs/k8s-labels');
    await eventually('the RayJob to be gone (finalizer released)', async () => (await getRayJob(env.url, 'k8s-labels'))?.kind !== 'RayJob');
  });

  it('a failing entrypoint: Failed/AppFailed with Ray\'s message', async () => {
    await createRayJob(env.url, rayJobManifest('k8s-fail', { entrypoint: 'echo boom; exit 3' }));
    const failed = await waitForDeployment(env.url, 'k8s-fail', 'Failed');
    expect(failed.status).toMatchObject({ jobStatus: 'FAILED', reason: 'AppFailed', failed: 1 });
  });

  it('an invalid RayJob: ValidationFailed with KubeRay\'s message and a Warning event; nothing created', async () => {
    await createRayJob(env.url, rayJobManifest('k8s-invalid', { suspend: true }));
    const invalid = await waitForDeployment(env.url, 'k8s-invalid', 'ValidationFailed');
    expect(invalid.status).toMatchObject({
      reason: 'ValidationFailed',
      message: 'The RayJob spec is invalid: a RayJob with shutdownAfterJobFinishes set to false is not allowed to be suspended',
    });
    const events = await eventually('the Warning event', async () => {
      const list = await listEvents(env.url, 'k8s-invalid');
      return list.length ? list : undefined;
    });
    expect(events[0]).toMatchObject({ type: 'Warning', reason: 'InvalidRayJobSpec', action: 'Validate', reportingController: 'rayjob-controller' });
    expect(events[0].note).toBe(`default/k8s-invalid: ${invalid.status.message}`);
    const clusters = (await api(env.url, 'GET', '/apis/ray.io/v1/namespaces/default/rayclusters?labelSelector=ray.io%2Foriginated-from-cr-name%3Dk8s-invalid')).body.items;
    expect(clusters).toEqual([]);
    expect((await api(env.url, 'GET', '/apis/batch/v1/namespaces/default/jobs/k8s-invalid')).status).toBe(404);
  });
});
