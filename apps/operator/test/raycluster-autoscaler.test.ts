// Autoscaling RayClusters on the sandbox with the Ray emulator (the fast tier): the head Pod's `autoscaler`
// sidecar runs the sandbox's stand-in for Ray's autoscaler, which reaches the API server from inside the pod with
// the pod's ServiceAccount token and patches replicas / workersToDelete as Ray's does; the demand it scales for is
// set on the head's emulator. The real autoscaler (Ray 2.58) is the real-Ray tier's (e2e/test/real-ray.test.ts).
// Throughout, a watcher checks that no group ever has more live workers than maxReplicas or loses a worker it
// did not name, across an autoscaler crash, a user deleting a named worker and an operator restart.
import { oomKillContainer } from '@rayjob/sandbox';
import { describe, expect, it } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { clusterEvents, clusterPath, clusterPods, getCluster, RAY_IMAGE, useRayClusterEnv, waitForState } from './support/raycluster-env.ts';

const env = useRayClusterEnv();

const worker = (groupName: string, min: number, max: number, replicas: number) => ({
  groupName,
  replicas,
  minReplicas: min,
  maxReplicas: max,
  rayStartParams: {},
  template: { spec: { containers: [{ name: 'ray-worker', image: RAY_IMAGE, resources: { limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } } }] } },
});

function manifest(name: string, groups: Json[], autoscalerOptions: Json): Json {
  return {
    apiVersion: 'ray.io/v1',
    kind: 'RayCluster',
    metadata: { name, namespace: 'default' },
    spec: {
      rayVersion: '2.58.0',
      enableInTreeAutoscaling: true,
      autoscalerOptions: { ...autoscalerOptions, env: [{ name: 'AUTOSCALER_UPDATE_INTERVAL_S', value: '1' }] },
      headGroupSpec: {
        rayStartParams: { 'num-cpus': '0' },
        template: { spec: { containers: [{ name: 'ray-head', image: RAY_IMAGE, resources: { limits: { cpu: '1', memory: '2Gi' } } }] } },
      },
      workerGroupSpecs: groups,
    },
  };
}

const live = (pods: Json[]) => pods.filter((p) => !p.metadata.deletionTimestamp);
const names = (pods: Json[]) => pods.map((p) => p.metadata.name as string).sort();
const workers = async (cluster: string, group: string) => live(await clusterPods(env.url, cluster, `ray.io/node-type=worker,ray.io/group=${group}`));
const headPod = async (cluster: string) => live(await clusterPods(env.url, cluster, 'ray.io/node-type=head'))[0] as Json;
const isReady = (p: Json) => p.status?.phase === 'Running' && (p.status?.conditions ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True');

async function setDemand(cluster: string, cpus: number): Promise<void> {
  const head = await headPod(cluster);
  const res = await fetch(`http://${head.status.podIP}:18265/resourceDemand`, { method: 'POST', body: JSON.stringify({ CPU: cpus }) });
  expect(res.status).toBe(200);
}

/**
 * Samples the cluster's worker Pods every 100 ms: the most live workers any group had, and every worker that
 * disappeared without being named in its group's workersToDelete while replicas stayed (a random deletion).
 */
function watchInvariants(cluster: string, maxOf: Record<string, number>) {
  const most: Record<string, number> = {};
  const violations: string[] = [];
  let stop = false;
  const loop = (async () => {
    while (!stop) {
      try {
        const pods = live(await clusterPods(env.url, cluster, 'ray.io/node-type=worker'));
        for (const group of Object.keys(maxOf)) {
          const count = pods.filter((p) => p.metadata.labels['ray.io/group'] === group).length;
          most[group] = Math.max(most[group] ?? 0, count);
          if (count > (maxOf[group] ?? 0)) violations.push(`${group}: ${count} workers > maxReplicas ${maxOf[group]}`);
        }
      } catch {
        // the API server may be busy; the next sample counts
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return { most, violations, async stop() { stop = true; await loop; } };
}

describe('an autoscaling RayCluster (autoscaler v1, stand-in on the emulator)', () => {
  const name = 'as-v1';
  let watcher: ReturnType<typeof watchInvariants>;
  let otherWorker: string;

  it('gets its ServiceAccount, Role and RoleBinding, owned by it, and a head with the autoscaler sidecar running', async () => {
    const res = await api(env.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayclusters', manifest(name, [worker('cpu', 0, 3, 0), worker('other', 1, 1, 1)], { idleTimeoutSeconds: 2 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const ready = await waitForState(env.url, name, 'ready');
    const owner = { kind: 'RayCluster', name, uid: ready.metadata.uid, controller: true };
    for (const path of [
      `/api/v1/namespaces/default/serviceaccounts/${name}`,
      `/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/${name}`,
      `/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/${name}`,
    ]) {
      const got = await api(env.url, 'GET', path);
      expect(got.status, path).toBe(200);
      expect(got.body.metadata.ownerReferences).toEqual([expect.objectContaining(owner)]);
    }
    const head = await headPod(name);
    expect(head.spec.serviceAccountName).toBe(name);
    expect(head.spec.containers.map((c: Json) => c.name)).toEqual(['ray-head', 'autoscaler']);
    await eventually('the autoscaler container ready', async () => ((await headPod(name)).status.containerStatuses ?? []).some((s: Json) => s.name === 'autoscaler' && s.ready), 30_000);
    const reasons = (await clusterEvents(env.url, name)).map((e) => e.reason);
    expect(reasons).toEqual(expect.arrayContaining(['CreatedServiceAccount', 'CreatedRole', 'CreatedRoleBinding']));
    [otherWorker] = names(await workers(name, 'other')) as [string];
    watcher = watchInvariants(name, { cpu: 3, other: 1 });
  }, 120_000);

  it('scales 0 -> 3 for 3 waiting CPUs (never above maxReplicas), patched by the autoscaler\'s own ServiceAccount', async () => {
    await setDemand(name, 5);
    await eventually('3 cpu workers Ready', async () => (await workers(name, 'cpu')).filter(isReady).length === 3, 60_000, 200);
    const status = await eventually('status counts the workers', async () => {
      const c = await getCluster(env.url, name);
      return c.status?.readyWorkerReplicas === 4 ? c.status : undefined;
    }, 30_000, 200);
    expect(status).toMatchObject({ desiredWorkerReplicas: 4, minWorkerReplicas: 1, maxWorkerReplicas: 4, availableWorkerReplicas: 4 });
    expect((await getCluster(env.url, name)).spec.workerGroupSpecs[0].replicas).toBe(3);
    const patches = env.audit.filter((e) => e.verb === 'patch' && e.objectRef?.resource === 'rayclusters' && e.objectRef?.name === name);
    expect(patches.length).toBeGreaterThan(0);
    expect(patches.every((e) => e.user?.username === `system:serviceaccount:default:${name}`)).toBe(true);
  }, 90_000);

  it('a crashed autoscaler is restarted by the kubelet and scales down idle workers: named, deleted, list cleared', async () => {
    const head = await headPod(name);
    expect(oomKillContainer(env.sandbox.node!.kubelet, 'default', head.metadata.name, 'autoscaler').ok).toBe(true);
    await setDemand(name, 0);
    await eventually('the autoscaler restarted', async () => ((await headPod(name)).status.containerStatuses ?? []).some((s: Json) => s.name === 'autoscaler' && s.restartCount >= 1 && s.ready), 30_000, 200);
    await eventually('cpu back to 0 workers', async () => (await workers(name, 'cpu')).length === 0, 60_000, 200);
    const cluster = await eventually('workersToDelete cleared by the autoscaler', async () => {
      const c = await getCluster(env.url, name);
      return (c.spec.workerGroupSpecs[0].scaleStrategy?.workersToDelete ?? []).length === 0 && c.spec.workerGroupSpecs[0].replicas === 0 ? c : undefined;
    }, 30_000, 200);
    expect(cluster.spec.workerGroupSpecs[1].replicas).toBe(1);
    const notes = (await clusterEvents(env.url, name)).filter((e) => e.reason === 'DeletedWorkerPod').map((e) => e.note as string);
    expect(notes.filter((n) => n.startsWith('Deleted pod default/'))).toHaveLength(3);
    expect(notes.filter((n) => n.startsWith('Deleted Pod default/'))).toEqual([]); // no random scale-down
    expect(names(await workers(name, 'other'))).toEqual([otherWorker]);
    await watcher.stop();
    expect(watcher.violations).toEqual([]);
    expect(watcher.most).toEqual({ cpu: 3, other: 1 });
  }, 120_000);
});

describe('the autoscaler\'s writes against users and operator restarts (the test writes what Ray\'s autoscaler would)', () => {
  const name = 'as-races';
  const patchCluster = (ops: Json[]) => api(env.url, 'PATCH', clusterPath(name), ops, 'application/json-patch+json');

  it('a user deleting the worker the autoscaler named, and an operator restart mid-scale, never go below min or touch another group', async () => {
    // A long idle timeout: the stand-in leaves this cluster's replicas to the test.
    const res = await api(env.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayclusters', manifest(name, [worker('cpu', 1, 3, 3), worker('other', 1, 1, 1)], { idleTimeoutSeconds: 3600 }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await eventually('3 + 1 workers', async () => (await workers(name, 'cpu')).length === 3 && (await workers(name, 'other')).length === 1, 60_000, 200);
    const [otherWorker] = names(await workers(name, 'other'));
    const watcher = watchInvariants(name, { cpu: 3, other: 1 });

    // The autoscaler names one worker; the user deletes that same worker at once.
    const [named] = names(await workers(name, 'cpu')) as [string];
    expect((await patchCluster([
      { op: 'replace', path: '/spec/workerGroupSpecs/0/replicas', value: 2 },
      { op: 'replace', path: '/spec/workerGroupSpecs/0/scaleStrategy', value: { workersToDelete: [named] } },
    ])).status).toBe(200);
    await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${named}`);
    await eventually('cpu at 2 without the named worker', async () => {
      const now = names(await workers(name, 'cpu'));
      return now.length === 2 && !now.includes(named);
    }, 30_000, 200);
    // Ray's autoscaler clears the list once its workers are gone (its next round); its clear and our next write
    // must not race, as two unconditional JSON patches would.
    await eventually('workersToDelete cleared', async () => ((await getCluster(env.url, name)).spec.workerGroupSpecs[0].scaleStrategy?.workersToDelete ?? []).length === 0, 30_000, 200);

    // Operator down; meanwhile the autoscaler names another worker of `cpu` and, wrongly, the `other` group's
    // worker in cpu's list; replicas drops to min. The restarted operator deletes only cpu's named worker.
    await env.stopOperator();
    const [second, kept] = names(await workers(name, 'cpu')) as [string, string];
    expect((await patchCluster([
      { op: 'replace', path: '/spec/workerGroupSpecs/0/replicas', value: 1 },
      { op: 'replace', path: '/spec/workerGroupSpecs/0/scaleStrategy', value: { workersToDelete: [second, otherWorker] } },
    ])).status).toBe(200);
    await env.startOperator();
    await eventually('cpu at 1: the kept worker', async () => {
      const now = names(await workers(name, 'cpu'));
      return now.length === 1 && now[0] === kept;
    }, 30_000, 200);
    // Settled: replicas (1) is honoured, min (1) is never crossed, `other` keeps its worker.
    await new Promise((r) => setTimeout(r, 3000));
    expect(names(await workers(name, 'cpu'))).toEqual([kept]);
    expect(names(await workers(name, 'other'))).toEqual([otherWorker]);
    expect((await getCluster(env.url, name)).spec.workerGroupSpecs[0].scaleStrategy.workersToDelete).toEqual([second, otherWorker]); // kept in the spec, as KubeRay
    await watcher.stop();
    expect(watcher.violations).toEqual([]);
  }, 150_000);
});
