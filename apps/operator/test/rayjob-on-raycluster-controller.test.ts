// The whole path on our own code, no KubeRay and no stand-in: a RayJob in each submission mode runs to Complete
// with our RayCluster controller turning its RayCluster into a head (and, for K8sJobMode, a worker group).
import { createRayClient } from '@rayjob/ray-client';
import { describe, expect, it } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { getRayJob, rayJobManifest } from './support/env.ts';
import { useRayClusterEnv } from './support/raycluster-env.ts';

const env = useRayClusterEnv({ withRayJobs: true });


const getJob = (name: string): Promise<Json> => getRayJob(env.url, name);
const waitFor = (name: string, status: string, ms = 150_000) =>
  eventually(`RayJob ${name} ${status}`, async () => {
    const j = await getJob(name);
    return j?.status?.jobDeploymentStatus === status ? j : undefined;
  }, ms, 250);

describe('RayJobs on our RayCluster controller', () => {
  it('K8sJobMode, HTTPMode and SidecarMode run to Complete; InteractiveMode once the user submits', async () => {
    const create = async (body: Json) => expect((await api(env.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', body)).status).toBe(201);
    await create(rayJobManifest('job-k8s', {}, true));
    await create(rayJobManifest('job-http', { submissionMode: 'HTTPMode' }));
    await create(rayJobManifest('job-sidecar', { submissionMode: 'SidecarMode' }));
    await create(rayJobManifest('job-interactive', { submissionMode: 'InteractiveMode', entrypoint: undefined }));

    const waiting = await waitFor('job-interactive', 'Waiting');
    const lookup = env.sandbox.node?.lookup;
    const ray = createRayClient({ address: `http://${waiting.status.dashboardURL}`, ...(lookup && { lookup }) });
    expect((await ray.submit({ entrypoint: 'echo interactive', submission_id: 'user-job-1' })).kind).toBe('ok');
    await ray.close();
    await api(env.url, 'PATCH', '/apis/ray.io/v1/namespaces/default/rayjobs/job-interactive', { spec: { jobId: 'user-job-1' } }, 'application/merge-patch+json');

    for (const name of ['job-k8s', 'job-http', 'job-sidecar', 'job-interactive']) {
      const done = await waitFor(name, 'Complete');
      expect(done.status.jobStatus).toBe('SUCCEEDED');
      const cluster = (await api(env.url, 'GET', `/apis/ray.io/v1/namespaces/default/rayclusters/${done.status.rayClusterName}`)).body;
      expect(cluster.status.state).toBe('ready');
      expect(cluster.status.conditions.find((c: Json) => c.type === 'RayClusterProvisioned')).toMatchObject({ status: 'True' });
    }
    const k8s = await getJob('job-k8s');
    const cluster = (await api(env.url, 'GET', `/apis/ray.io/v1/namespaces/default/rayclusters/${k8s.status.rayClusterName}`)).body;
    expect(cluster.status).toMatchObject({ readyWorkerReplicas: 1, desiredWorkerReplicas: 1 });
  }, 240_000);
});
