// SidecarMode, HTTPMode and InteractiveMode lifecycles on the sandbox, with the objects each mode builds
// checked against KubeRay's reference (§3.1, §3.4, §2.4.11, §2.4.12).
import { createRayClient } from '@rayjob/ray-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { createRayJob, rayJobManifest, startEnv, SUBMITTER_IMAGE, waitForDeployment, type Env } from './support/env.ts';

let env: Env;
beforeAll(async () => {
  env = await startEnv();
});
afterAll(async () => {
  await env?.stop();
});

const clusterOf = async (rayJob: Json): Promise<Json> =>
  (await api(env.url, 'GET', `/apis/ray.io/v1/namespaces/default/rayclusters/${rayJob.status.rayClusterName}`)).body;

describe('SidecarMode', { timeout: 150_000 }, () => {
  it('the submitter runs beside the head; a job that ends before the head is seen ready still completes', async () => {
    await createRayJob(env.url, rayJobManifest('side-ok', { submissionMode: 'SidecarMode', entrypoint: 'echo quick' }));
    const running = await eventually('the cluster name', async () => {
      const r = (await api(env.url, 'GET', '/apis/ray.io/v1/namespaces/default/rayjobs/side-ok')).body;
      return r.status?.rayClusterName ? r : undefined;
    });
    const cluster = await eventually('the RayCluster', async () => {
      const c = await clusterOf(running);
      return c.kind === 'RayCluster' ? c : undefined;
    });
    expect(cluster.metadata.labels['ray.io/job-submission-mode']).toBe('SidecarMode');
    expect(cluster.metadata.annotations).toEqual({ 'ray.io/disable-provisioned-head-restart': 'true' });
    const podSpec = cluster.spec.headGroupSpec.template.spec;
    expect(podSpec.restartPolicy).toBe('Never');
    expect(podSpec.containers.map((c: Json) => c.name)).toEqual(['ray-head', 'ray-job-submitter']);
    const sidecar = podSpec.containers[1];
    expect(sidecar).toMatchObject({ image: SUBMITTER_IMAGE, command: ['/submitter'] });
    const envVars = Object.fromEntries(sidecar.env.map((e: Json) => [e.name, e.value]));
    expect(envVars).toMatchObject({ PYTHONUNBUFFERED: '1', RAY_DASHBOARD_ADDRESS: 'http://127.0.0.1:8265', RAY_JOB_SUBMISSION_ID: running.status.jobId });

    const done = await waitForDeployment(env.url, 'side-ok', 'Complete', 60_000);
    expect(done.status).toMatchObject({ jobStatus: 'SUCCEEDED', succeeded: 1 });
    // No submitter Job in SidecarMode.
    expect((await api(env.url, 'GET', '/apis/batch/v1/namespaces/default/jobs/side-ok')).status).toBe(404);
  });

  it('C12: the head pod deleted mid-job -> Failed/AppFailed "Ray head pod not found."', async () => {
    await createRayJob(env.url, rayJobManifest('side-head', { submissionMode: 'SidecarMode', entrypoint: 'sleep 60' }));
    const running = await waitForDeployment(env.url, 'side-head', 'Running', 60_000);
    const head = await eventually('the head pod', () => env.standIn.heads.get(running.status.rayClusterName));
    await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${head}?gracePeriodSeconds=0`);
    const failed = await waitForDeployment(env.url, 'side-head', 'Failed', 30_000);
    expect(failed.status).toMatchObject({ reason: 'AppFailed', message: 'Ray head pod not found.' });
  });
});

describe('HTTPMode', { timeout: 150_000 }, () => {
  it('the operator submits; no submitter Job; the log tail brings the end without 3 s polling', async () => {
    await createRayJob(env.url, rayJobManifest('http-ok', { submissionMode: 'HTTPMode', entrypoint: 'sleep 4; echo done', runtimeEnvYAML: 'env_vars:\n  A: "1"\n' }));
    const running = await waitForDeployment(env.url, 'http-ok', 'Running', 60_000);
    const cluster = await clusterOf(running);
    expect(cluster.metadata.labels['ray.io/job-submission-mode']).toBe('HTTPMode');
    expect(cluster.spec.headGroupSpec.template.spec.containers).toHaveLength(1);
    await eventually('the operator to follow the job log tail', () => env.rayjob.followers.isFollowing('default/http-ok'));
    // The poll interval is 30 s in this suite: only the tail closing can bring Complete this soon.
    const done = await waitForDeployment(env.url, 'http-ok', 'Complete', 25_000);
    expect(done.status).toMatchObject({ jobStatus: 'SUCCEEDED', succeeded: 1 });
    expect((await api(env.url, 'GET', '/apis/batch/v1/namespaces/default/jobs/http-ok')).status).toBe(404);
    expect(env.rayjob.followers.isFollowing('default/http-ok')).toBe(false);
  });
});

describe('InteractiveMode', { timeout: 150_000 }, () => {
  it('Waiting until the user sets spec.jobId; then Running -> Complete', async () => {
    await createRayJob(env.url, rayJobManifest('inter', { submissionMode: 'InteractiveMode', entrypoint: undefined }));
    const waiting = await waitForDeployment(env.url, 'inter', 'Waiting', 60_000);
    expect(waiting.status.jobId ?? '').toBe('');
    const lookup = env.sandbox.node?.lookup;
    const ray = createRayClient({ address: `http://${waiting.status.dashboardURL}`, ...(lookup && { lookup }) });
    const submitted = await ray.submit({ entrypoint: 'sleep 3; echo interactive', submission_id: 'user-job-1' });
    expect(submitted.kind).toBe('ok');
    await ray.close();
    await api(env.url, 'PATCH', '/apis/ray.io/v1/namespaces/default/rayjobs/inter', { spec: { jobId: 'user-job-1' } }, 'application/merge-patch+json');
    const running = await waitForDeployment(env.url, 'inter', 'Running');
    expect(running.status.jobId).toBe('user-job-1');
    const done = await waitForDeployment(env.url, 'inter', 'Complete', 25_000);
    expect(done.status.jobStatus).toBe('SUCCEEDED');
  });
});
