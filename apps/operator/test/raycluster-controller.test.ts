// The RayCluster controller on the sandbox: Pods as processes (the Ray emulator as head, workers registering with
// it), the status and conditions KubeRay writes, scaling, workersToDelete, suspend/resume, head and worker loss.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { oomKillContainer } from '@rayjob/sandbox';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { api, eventually, type Json } from './support/api.ts';
import { clusterEvents, clusterPath, clusterPods, condition, getCluster, RAY_IMAGE, useRayClusterEnv, waitForState } from './support/raycluster-env.ts';

const env = useRayClusterEnv();

const group = (groupName: string, replicas: number, extra: Json = {}) => ({
  groupName,
  replicas,
  minReplicas: 0,
  maxReplicas: 5,
  rayStartParams: {},
  template: { spec: { containers: [{ name: 'ray-worker', image: RAY_IMAGE, resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } } }], ...extra } },
});

function manifest(name: string, groups: Json[], extra: { annotations?: Record<string, string> } = {}): Json {
  return {
    apiVersion: 'ray.io/v1',
    kind: 'RayCluster',
    metadata: { name, namespace: 'default', ...(extra.annotations && { annotations: extra.annotations }) },
    spec: {
      rayVersion: '2.58.0',
      headGroupSpec: {
        rayStartParams: {},
        template: {
          spec: {
            containers: [{
              name: 'ray-head',
              image: RAY_IMAGE,
              ports: [{ name: 'gcs-server', containerPort: 6379 }, { name: 'dashboard', containerPort: 8265 }, { name: 'client', containerPort: 10001 }],
              resources: { limits: { cpu: '1', memory: '2Gi' } },
            }],
          },
        },
      },
      workerGroupSpecs: groups,
    },
  };
}

async function create(body: Json): Promise<void> {
  const res = await api(env.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayclusters', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

/** GET, change, PUT (retried on conflicts: the controller writes status meanwhile). */
async function update(name: string, change: (c: Json) => void): Promise<void> {
  await eventually(`update of ${name}`, async () => {
    const c = await getCluster(env.url, name);
    change(c);
    const res = await api(env.url, 'PUT', clusterPath(name), c);
    return res.status === 200;
  }, 10_000);
}

const live = (pods: Json[]) => pods.filter((p) => !p.metadata.deletionTimestamp);
const names = (pods: Json[]) => pods.map((p) => p.metadata.name).sort();
const groupPods = async (cluster: string, g: string) => live(await clusterPods(env.url, cluster, `ray.io/group=${g}`));

/** Worker nodes the head's Ray emulator knows: proof the worker processes run and found their head. */
async function registeredWorkers(headIP: string): Promise<number> {
  const res = await fetch(`http://${headIP}:8265/nodes?view=summary`, { signal: AbortSignal.timeout(3000) });
  const body = (await res.json()) as Json;
  return (body.data.summary as Json[]).filter((n) => !n.raylet.isHeadNode).length;
}

describe('a RayCluster with a head and two worker groups', () => {
  const name = 'two-groups';
  let ready: Json;

  it('becomes ready with its processes running; status as KubeRay writes it', async () => {
    await create(manifest(name, [group('small', 2), group('large', 1)]));
    ready = await waitForState(env.url, name, 'ready');
    const pods = live(await clusterPods(env.url, name));
    expect(pods).toHaveLength(4);
    const head = pods.find((p) => p.metadata.labels['ray.io/node-type'] === 'head');
    expect(ready.status).toMatchObject({
      readyWorkerReplicas: 3,
      availableWorkerReplicas: 3,
      desiredWorkerReplicas: 3,
      minWorkerReplicas: 0,
      maxWorkerReplicas: 10,
      desiredCPU: '2500m',
      desiredMemory: '5Gi',
      desiredGPU: '0',
      desiredTPU: '0',
      observedGeneration: 1,
      endpoints: { client: '10001', dashboard: '8265', 'gcs-server': '6379', metrics: '8080' },
      head: { podName: head.metadata.name, podIP: head.status.podIP, serviceIP: head.status.podIP, serviceName: `${name}-head-svc` },
    });
    expect(ready.status.stateTransitionTimes.ready).toBeTruthy();
    expect(condition(ready, 'HeadPodReady')).toMatchObject({ status: 'True', reason: 'HeadPodRunningAndReady' });
    expect(condition(ready, 'RayClusterProvisioned')).toMatchObject({ status: 'True', reason: 'AllPodRunningAndReadyFirstTime', message: 'All Ray Pods are ready for the first time' });
    expect(condition(ready, 'RayClusterSuspended')).toMatchObject({ status: 'False', reason: 'RayClusterSuspended' });
    expect(condition(ready, 'RayClusterSuspending')).toMatchObject({ status: 'False', reason: 'RayClusterSuspending' });
    expect(await eventually('3 workers registered with the head', async () => (await registeredWorkers(head.status.podIP)) >= 3 || undefined)).toBe(true);
    const svc = (await api(env.url, 'GET', `/api/v1/namespaces/default/services/${name}-head-svc`)).body;
    expect(svc.spec).toMatchObject({ clusterIP: 'None', publishNotReadyAddresses: true });
    const reasons = (await clusterEvents(env.url, name)).map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['CreatedService', 'CreatedHeadPod', 'CreatedWorkerPod']));
    expect(await env.controller.registry.metrics()).toMatch(/kuberay_cluster_provisioned_duration_seconds\{name="two-groups",namespace="default",uid="[^"]+"\} \d/);
  }, 120_000);

  it('scales a group up and down', async () => {
    await update(name, (c) => { c.spec.workerGroupSpecs[0].replicas = 3; });
    await eventually('small has 3 Pods', async () => (await groupPods(name, 'small')).length === 3, 30_000);
    await waitForState(env.url, name, 'ready');
    await eventually('desired 4 in status', async () => (await getCluster(env.url, name)).status.desiredWorkerReplicas === 4, 30_000);
    await update(name, (c) => { c.spec.workerGroupSpecs[0].replicas = 1; });
    await eventually('small has 1 Pod', async () => (await groupPods(name, 'small')).length === 1, 30_000);
    const events = await clusterEvents(env.url, name);
    expect(events.filter((e) => e.reason === 'DeletedWorkerPod' && /^Deleted Pod default\//.test(e.note))).toHaveLength(2);
  }, 90_000);

  it('deletes workersToDelete and replaces them while replicas stays', async () => {
    const [victim] = names(await groupPods(name, 'large'));
    await update(name, (c) => { c.spec.workerGroupSpecs[1].scaleStrategy = { workersToDelete: [victim] }; });
    const after = await eventually('large replaced', async () => {
      const current = names(await groupPods(name, 'large'));
      return current.length === 1 && current[0] !== victim ? current : undefined;
    }, 30_000);
    expect(after).not.toContain(victim);
    expect((await clusterEvents(env.url, name)).some((e) => e.note === `Deleted pod default/${victim}`)).toBe(true);
  }, 60_000);

  it('recreates a deleted head', async () => {
    const [head] = live(await clusterPods(env.url, name, 'ray.io/node-type=head'));
    await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${head.metadata.name}?gracePeriodSeconds=0`);
    const next = await eventually('a new head Pod', async () => {
      const heads = live(await clusterPods(env.url, name, 'ray.io/node-type=head'));
      return heads.length === 1 && heads[0].metadata.name !== head.metadata.name ? heads[0] : undefined;
    }, 30_000);
    await eventually('the new head ready', async () => condition(await getCluster(env.url, name), 'HeadPodReady')?.status === 'True' && (await getCluster(env.url, name)).status.head.podName === next.metadata.name, 60_000);
  }, 90_000);

  it('suspends (every Pod deleted, Suspended) and resumes with suspend: false', async () => {
    await update(name, (c) => { c.spec.suspend = true; });
    const suspended = await waitForState(env.url, name, 'suspended');
    expect(live(await clusterPods(env.url, name))).toHaveLength(0);
    expect(condition(suspended, 'RayClusterSuspended')).toMatchObject({ status: 'True' });
    expect(condition(suspended, 'RayClusterSuspending')).toMatchObject({ status: 'False' });
    expect(condition(suspended, 'RayClusterProvisioned')).toMatchObject({ status: 'False', message: 'RayCluster has been suspended' });
    await update(name, (c) => { c.spec.suspend = false; });
    const back = await waitForState(env.url, name, 'ready');
    expect(condition(back, 'RayClusterSuspended')).toMatchObject({ status: 'False' });
    expect(live(await clusterPods(env.url, name))).toHaveLength(3);
  }, 150_000);

  it('deleting the RayCluster garbage-collects its Pods and Services', async () => {
    await api(env.url, 'DELETE', clusterPath(name));
    await eventually('Pods gone', async () => (await clusterPods(env.url, name)).length === 0, 30_000);
    expect((await api(env.url, 'GET', `/api/v1/namespaces/default/services/${name}-head-svc`)).status).toBe(404);
  }, 60_000);
});

describe('the repository\'s sample RayCluster (e2e/samples/raycluster.yaml, for trying by hand)', () => {
  it('applies as written and becomes ready with both workers registered with its head', async () => {
    const sample = parse(readFileSync(new URL('../../../e2e/samples/raycluster.yaml', import.meta.url), 'utf8')) as Json;
    const name = sample.metadata.name as string;
    await create(sample);
    const ready = await waitForState(env.url, name, 'ready');
    expect(ready.status).toMatchObject({ readyWorkerReplicas: 2, desiredWorkerReplicas: 2, maxWorkerReplicas: 4 });
    expect(await eventually('2 workers registered with the head', async () => (await registeredWorkers(ready.status.head.podIP)) >= 2 || undefined)).toBe(true);
    await api(env.url, 'DELETE', clusterPath(name));
    await eventually('its Pods gone', async () => (await clusterPods(env.url, name)).length === 0, 30_000);
  }, 120_000);
});

describe('Pod loss', () => {
  it('replaces a failed worker (restartPolicy Never)', async () => {
    const name = 'failing-worker';
    await create(manifest(name, [group('never', 1, { restartPolicy: 'Never' })]));
    await waitForState(env.url, name, 'ready');
    const [worker] = await groupPods(name, 'never');
    const killed = oomKillContainer(env.sandbox.node!.kubelet, 'default', worker.metadata.name, 'ray-worker');
    expect(killed).toEqual({ ok: true });
    const replacement = await eventually('a new worker', async () => {
      const current = await groupPods(name, 'never');
      return current.length === 1 && current[0].metadata.name !== worker.metadata.name ? current[0] : undefined;
    }, 30_000);
    expect(replacement.metadata.labels['ray.io/worker-group-replica-index']).toBe('0');
    const deleted = (await clusterEvents(env.url, name)).find((e) => e.reason === 'DeletedWorkerPod');
    expect(deleted.note).toMatch(new RegExp(`^Deleted worker Pod default/${worker.metadata.name}; Pod status: Failed; Pod restart policy: Never`));
    await api(env.url, 'DELETE', clusterPath(name));
  }, 90_000);

  it('does not recreate a provisioned head annotated disable-provisioned-head-restart (workers wait too)', async () => {
    const name = 'sidecar-like';
    await create(manifest(name, [group('small', 1)], { annotations: { 'ray.io/disable-provisioned-head-restart': 'true' } }));
    await waitForState(env.url, name, 'ready');
    const [head] = live(await clusterPods(env.url, name, 'ray.io/node-type=head'));
    await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${head.metadata.name}?gracePeriodSeconds=0`);
    await eventually('HeadPodNotFound', async () => condition(await getCluster(env.url, name), 'HeadPodReady')?.reason === 'HeadPodNotFound', 30_000);
    // Absence can only be shown by waiting: several reconciles (2 s requeues after each status write) pass here.
    await sleep(5_000);
    expect(live(await clusterPods(env.url, name, 'ray.io/node-type=head'))).toHaveLength(0);
    expect((await clusterEvents(env.url, name)).filter((e) => e.reason === 'CreatedHeadPod')).toHaveLength(1);
    await api(env.url, 'DELETE', clusterPath(name));
  }, 90_000);
});

describe('validation', () => {
  it('an invalid spec gets KubeRay\'s Warning event and no status', async () => {
    const name = 'invalid';
    const body = manifest(name, [{ ...group('bad', 1), minReplicas: 3, maxReplicas: 2 }]);
    await create(body);
    const event = await eventually('InvalidRayClusterSpec', async () => (await clusterEvents(env.url, name)).find((e) => e.reason === 'InvalidRayClusterSpec'), 20_000);
    expect(event).toMatchObject({ type: 'Warning', note: 'The RayCluster spec is invalid default/invalid: worker group bad has minReplicas 3 greater than maxReplicas 2' });
    expect((await getCluster(env.url, name)).status).toBeUndefined();
    expect(await clusterPods(env.url, name)).toHaveLength(0);
    await api(env.url, 'DELETE', clusterPath(name));
  }, 40_000);

  // Compat R18: the sample RayClusters whose feature gates are off by default (KubeRay's too) are rejected, not run.
  it.each<[string, string, Json, string]>([
    ['ray-cluster.embedded-gcs-ft.yaml', 'r18-rocksdb', { gcsFaultToleranceOptions: { backend: 'rocksdb' } }, "the embedded RocksDB GCS fault tolerance backend (GcsFaultToleranceOptions.Backend: 'rocksdb') requires the GCSFaultToleranceEmbeddedStorage feature gate to be enabled"],
    ['ray-cluster.mtls.yaml', 'r18-mtls', { tlsOptions: { enabled: true } }, 'spec.tlsOptions requires the RayClusterMTLS feature gate to be enabled'],
    ['ray-cluster.network-policy-deny-all.yaml', 'r18-netpol', { networkPolicy: {} }, 'spec.networkPolicy requires the RayClusterNetworkPolicy feature gate to be enabled'],
    ['ray-cluster.historyserver.yaml', 'r18-history', { historyServerOptions: { collectorOptions: { image: 'collector:1', env: [{ name: 'STORAGE_BACKEND', value: 's3' }] } } }, 'RayClusterHistoryServer feature gate is not enabled'],
  ])('%s (gate off): KubeRay\'s validation event, no Pods', async (_sample, name, extra, message) => {
    const body = manifest(name, [group('g', 1)]);
    Object.assign(body.spec, extra);
    await create(body);
    const event = await eventually('InvalidRayClusterSpec', async () => (await clusterEvents(env.url, name)).find((e) => e.reason === 'InvalidRayClusterSpec'), 20_000);
    expect(event).toMatchObject({ type: 'Warning', note: `The RayCluster spec is invalid default/${name}: ${message}` });
    expect(await clusterPods(env.url, name)).toHaveLength(0);
    await api(env.url, 'DELETE', clusterPath(name));
  }, 40_000);
});
