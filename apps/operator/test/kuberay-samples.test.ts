// Every in-scope KubeRay sample RayCluster (reference §15), and one of each kind whose feature is out of scope
// (compat R17, R19), and the autoscaler sample with its sidecar (R20), as our own manifests modelled on them, reconciled by our RayCluster controller to `ready`
// on the sandbox. Six clusters at a time keep the 2-core CI machine usable.
import { describe, expect, it } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { clusterPath, getCluster, useRayClusterEnv } from './support/raycluster-env.ts';
import { SAMPLE_CASES, type SampleCase } from './fixtures/kuberay-samples.ts';

const env = useRayClusterEnv({ extraImages: { 'fluent/fluent-bit': { entrypoint: ['sleep', 'infinity'] } } });

const collection: Record<string, string> = {
  ConfigMap: '/api/v1/namespaces/default/configmaps',
  Secret: '/api/v1/namespaces/default/secrets',
  ServiceAccount: '/api/v1/namespaces/default/serviceaccounts',
  Ingress: '/apis/networking.k8s.io/v1/namespaces/default/ingresses',
  RayCluster: '/apis/ray.io/v1/namespaces/default/rayclusters',
};

async function apply(doc: Json): Promise<void> {
  const res = await api(env.url, 'POST', collection[doc.kind] as string, doc);
  expect(res.status, `${doc.kind} ${doc.metadata.name}: ${JSON.stringify(res.body)}`).toBe(201);
}

const service = async (name: string): Promise<Json> => (await api(env.url, 'GET', `/api/v1/namespaces/default/services/${name}`)).body;
const headPod = async (cluster: string): Promise<Json> =>
  (await api(env.url, 'GET', `/api/v1/namespaces/default/pods?labelSelector=${encodeURIComponent(`ray.io/cluster=${cluster},ray.io/node-type=head`)}`)).body.items[0];

const workerPods = async (cluster: string): Promise<Json[]> =>
  ((await api(env.url, 'GET', `/api/v1/namespaces/default/pods?labelSelector=${encodeURIComponent(`ray.io/cluster=${cluster},ray.io/node-type=worker`)}`)).body.items as Json[])
    .filter((p) => !p.metadata.deletionTimestamp);
const envOf = (container: Json, name: string): string | undefined => container.env?.find((e: Json) => e.name === name)?.value;

/** What each sample is about, checked once it is ready. */
const checks: Record<string, (c: Json) => Promise<void>> = {
  'ray-cluster.custom-head-service.yaml': async (c) => {
    const svc = await service('s-custom-head');
    expect(svc.spec.type).toBe('LoadBalancer');
    expect(svc.spec.ports[0]).toMatchObject({ name: 'extra-port', port: 12345 });
    expect(svc.metadata.labels).toMatchObject({ team: 'ml', 'ray.io/node-type': 'head' });
    expect(c.status.head.serviceName).toBe('s-custom-head');
  },
  'ray-cluster.head-command.yaml': async () => {
    expect((await headPod('s-head-cmd')).spec.containers[0].args[0]).toMatch(/^ echo before-ray {2}start {2}&& ulimit -n/);
  },
  'ray-cluster.overwrite-command.yaml': async () => {
    expect((await headPod('s-overwrite')).spec.containers[0].args).toEqual(['ulimit -n 65536; echo head; $KUBERAY_GEN_RAY_START_CMD']);
  },
  'ray-cluster-label-selector.yaml': async () => {
    const start = (await headPod('s-labels')).spec.containers[0].env.find((e: Json) => e.name === 'KUBERAY_GEN_RAY_START_CMD').value;
    expect(start).toContain(' --labels=ray.io/region=us-central2 ');
    expect(start).toContain(' --num-cpus=0 ');
  },
  'ray-cluster.auth.yaml': async () => {
    const secret = (await api(env.url, 'GET', '/api/v1/namespaces/default/secrets/s-auth')).body;
    expect(Buffer.from(secret.data.auth_token, 'base64').toString()).toHaveLength(44);
  },
  // The autoscaler sidecar (the sandbox's stand-in on the emulator) and its RBAC; the workers stay within the
  // group's bounds (the stand-in may scale the idle second worker down after idleTimeoutSeconds).
  'ray-cluster.autoscaler.yaml': async (c) => {
    const head = await headPod('s-autoscaler');
    expect(head.spec.containers.map((x: Json) => x.name)).toEqual(['ray-head', 'autoscaler']);
    expect(head.spec.serviceAccountName).toBe('s-autoscaler');
    expect(envOf(head.spec.containers[0], 'KUBERAY_GEN_RAY_START_CMD')).toContain(' --no-monitor ');
    const count = (await workerPods('s-autoscaler')).length;
    expect(count >= 1 && count <= 2, `${count} workers`).toBe(true);
    expect(c.status).toMatchObject({ minWorkerReplicas: 1, maxWorkerReplicas: 10 });
    expect((await api(env.url, 'GET', '/api/v1/namespaces/default/serviceaccounts/s-autoscaler')).status).toBe(200);
    expect((await api(env.url, 'GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/s-autoscaler')).status).toBe(200);
    expect((await api(env.url, 'GET', '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/s-autoscaler')).status).toBe(200);
  },
  // GCS fault tolerance as KubeRay builds it (the Redis itself is not part of this case: see raycluster-gcs-ft.test.ts).
  'ray-cluster.external-redis.yaml': async (c) => {
    expect(c.metadata.finalizers ?? []).toContain('ray.io/gcs-ft-redis-cleanup-finalizer');
    const head = await headPod('s-ext-redis');
    expect(head.metadata.annotations).toMatchObject({ 'ray.io/ft-enabled': 'true', 'ray.io/external-storage-namespace': c.metadata.uid });
    const ray = head.spec.containers[0];
    expect(envOf(ray, 'RAY_REDIS_ADDRESS')).toBe('redis:6379');
    expect(envOf(ray, 'RAY_external_storage_namespace')).toBe(c.metadata.uid);
    expect(ray.env.find((e: Json) => e.name === 'REDIS_PASSWORD').valueFrom).toEqual({ secretKeyRef: { name: 's-redis-password', key: 'password' } });
    expect(envOf(ray, 'KUBERAY_GEN_RAY_START_CMD')).toContain(' --redis-password=$REDIS_PASSWORD ');
    for (const worker of await workerPods('s-ext-redis')) expect(envOf(worker.spec.containers[0], 'RAY_gcs_rpc_server_reconnect_timeout_s')).toBe('600');
  },
  // R19 (R13): the scheduler label is the platform's; Pods keep the default scheduler.
  'ray-cluster.volcano-scheduler.yaml': async () => {
    for (const pod of [await headPod('s-volcano'), ...(await workerPods('s-volcano'))]) expect(pod.spec.schedulerName).toBe('default-scheduler');
  },
  // R19: TLS set up by the user's env and init containers is kept as written (KubeRay's own init container added).
  'ray-cluster.tls.yaml': async () => {
    for (const [role, pod] of [['head', await headPod('s-tls')], ['worker', (await workerPods('s-tls'))[0]]] as const) {
      const ray = pod.spec.containers[0];
      expect(envOf(ray, 'RAY_USE_TLS')).toBe('1');
      expect(envOf(ray, 'RAY_TLS_CA_CERT')).toBe('/tmp/ray-tls/ca.crt');
      const init = pod.spec.initContainers.find((x: Json) => x.name === `ray-${role}-tls`);
      expect(init.command[2]).toContain('tls.crt');
      expect(pod.status.initContainerStatuses.find((x: Json) => x.name === `ray-${role}-tls`).state.terminated).toMatchObject({ exitCode: 0 });
    }
  },
  'ray-cluster.separate-ingress.yaml': async (c) => {
    expect((await service('s-ingress-head-svc')).spec.type).toBe('NodePort');
    expect(c.status.endpoints.dashboard).toMatch(/^\d+$/);
  },
};

function batches<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

describe('KubeRay samples reach ready', () => {
  it.each(batches(SAMPLE_CASES, 6).map((batch) => [batch.map((s) => s.sample).join(', '), batch] as [string, SampleCase[]]))('%s', async (_names, batch) => {
    for (const s of batch) {
      for (const doc of s.before ?? []) await apply(doc);
      await apply(s.cluster);
    }
    for (const s of batch) {
      const name = s.cluster.metadata.name;
      const ready = await eventually(`${s.sample} ready`, async () => {
        const c = await getCluster(env.url, name);
        return c?.status?.state === 'ready' ? c : undefined;
      }, 150_000, 500);
      expect(ready.status.conditions.find((x: Json) => x.type === 'RayClusterProvisioned')).toMatchObject({ status: 'True' });
      await checks[s.sample]?.(ready);
    }
    for (const s of batch) await api(env.url, 'DELETE', clusterPath(s.cluster.metadata.name));
  }, 240_000);
});
