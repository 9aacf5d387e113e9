// status.conditions on the sandbox, with our RayCluster controller: a ResourceQuota that forbids the cluster's
// pods shows on the RayJob within seconds, told once; a status write on the RayCluster reaches the RayJob's
// rayClusterStatus (KubeRay's e2e "RayCluster status update propagates to RayJob").
import { describe, expect, it } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { RAY_IMAGE, useRayClusterEnv } from './support/raycluster-env.ts';

const env = useRayClusterEnv({ withRayJobs: true });

const rayJob = (name: string, namespace: string, spec: Json = {}): Json => ({
  apiVersion: 'ray.io/v1',
  kind: 'RayJob',
  metadata: { name, namespace },
  spec: {
    entrypoint: 'sleep 60',
    rayClusterSpec: {
      rayVersion: '2.58.0',
      headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: RAY_IMAGE, ports: [{ name: 'dashboard', containerPort: 8265 }] }] } } },
    },
    ...spec,
  },
});
const getJob = async (namespace: string, name: string): Promise<Json> => (await api(env.url, 'GET', `/apis/ray.io/v1/namespaces/${namespace}/rayjobs/${name}`)).body;
const events = async (namespace: string, name: string): Promise<Json[]> =>
  ((await api(env.url, 'GET', `/apis/events.k8s.io/v1/namespaces/${namespace}/events`)).body?.items ?? []).filter((e: Json) => e.regarding?.kind === 'RayJob' && e.regarding?.name === name);

describe('RayJob conditions on the sandbox', { timeout: 150_000 }, () => {
  it('a ResourceQuota that forbids the RayCluster\'s pods shows in RayClusterProvisioned within seconds, with one event', async () => {
    const ns = 'quota';
    expect((await api(env.url, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } })).status).toBe(201);
    expect((await api(env.url, 'POST', `/api/v1/namespaces/${ns}/resourcequotas`, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'no-pods' }, spec: { hard: { pods: '0' } } })).status).toBe(201);
    const started = Date.now();
    expect((await api(env.url, 'POST', `/apis/ray.io/v1/namespaces/${ns}/rayjobs`, rayJob('forbidden', ns))).status).toBe(201);
    const condition = await eventually('RayClusterProvisioned False with the quota\'s refusal', async () => {
      const c = ((await getJob(ns, 'forbidden'))?.status?.conditions ?? []).find((x: Json) => x.type === 'RayClusterProvisioned');
      return c?.status === 'False' && c.reason === 'FailedCreateHeadPod' ? c : undefined;
    }, 30_000, 100);
    const seconds = (Date.now() - started) / 1000;
    console.log(`quota refusal on the RayJob after ${seconds.toFixed(1)} s: ${condition.message}`);
    expect(seconds).toBeLessThan(15);
    const job = await getJob(ns, 'forbidden');
    expect(job.status.jobDeploymentStatus).toBe('Initializing');
    // The RayCluster controller keeps retrying (and failing); the RayJob tells the change once, not per reconcile.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const told = (await events(ns, 'forbidden')).filter((e) => e.reason === 'FailedCreateHeadPod');
    expect(told).toHaveLength(1);
    // The note is the refusal the condition first showed; the pod name in it changes with each retry of the create
    // (generateName), so the condition read here may already name a later attempt.
    const refusal = /^RayCluster quota\/forbidden-\w+ cannot create its pods: .*exceeded quota: no-pods/;
    expect(told[0]).toMatchObject({ type: 'Warning', action: 'RayClusterProvisioned', note: expect.stringMatching(refusal) });
    expect(told[0].series?.count ?? 1).toBe(1);
    expect(condition.message).toMatch(refusal);
  });

  it('a status write on the RayCluster reaches the RayJob\'s rayClusterStatus', async () => {
    const ns = 'default';
    const workers = [{ groupName: 'small', replicas: 1, minReplicas: 1, maxReplicas: 2, rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-worker', image: RAY_IMAGE }] } } }];
    const body = rayJob('mirror', ns);
    body.spec.rayClusterSpec.workerGroupSpecs = workers;
    expect((await api(env.url, 'POST', `/apis/ray.io/v1/namespaces/${ns}/rayjobs`, body)).status).toBe(201);
    const running = await eventually('RayJob mirror RUNNING', async () => {
      const j = await getJob(ns, 'mirror');
      return j?.status?.jobStatus === 'RUNNING' ? j : undefined;
    }, 120_000, 250);
    expect(running.status.rayClusterStatus.maxWorkerReplicas).toBe(2);
    expect((running.status.conditions ?? []).find((c: Json) => c.type === 'JobRunning')).toMatchObject({ status: 'True', reason: 'Running' });
    const cluster = running.status.rayClusterName;
    const patched = await api(env.url, 'PATCH', `/apis/ray.io/v1/namespaces/${ns}/rayclusters/${cluster}`, { spec: { workerGroupSpecs: [{ ...workers[0], maxReplicas: 4 }] } }, 'application/merge-patch+json');
    expect(patched.status).toBe(200);
    const started = Date.now();
    await eventually('the RayCluster\'s new maxWorkerReplicas on the RayJob', async () => (await getJob(ns, 'mirror'))?.status?.rayClusterStatus?.maxWorkerReplicas === 4 || undefined, 10_000, 100);
    console.log(`RayCluster status change on the RayJob after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
});
