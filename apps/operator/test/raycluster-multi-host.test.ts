// Multi-host worker groups (numOfHosts > 1) on the sandbox: our RayCluster controller creates, replaces and removes
// a replica's hosts as a unit, labelled as KubeRay labels them (replica name, replica index, host index).
import { describe, expect, it } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { clusterEvents, clusterPath, clusterPods, getCluster, RAY_IMAGE, useRayClusterEnv, waitForState } from './support/raycluster-env.ts';

const env = useRayClusterEnv();

const name = 'multi-host';
const manifest: Json = {
  apiVersion: 'ray.io/v1',
  kind: 'RayCluster',
  metadata: { name, namespace: 'default' },
  spec: {
    rayVersion: '2.58.0',
    headGroupSpec: {
      rayStartParams: {},
      template: { spec: { containers: [{ name: 'ray-head', image: RAY_IMAGE, resources: { limits: { cpu: '1', memory: '2Gi' } } }] } },
    },
    workerGroupSpecs: [{
      groupName: 'slice',
      replicas: 2,
      minReplicas: 0,
      maxReplicas: 3,
      numOfHosts: 2,
      rayStartParams: {},
      template: { spec: { containers: [{ name: 'ray-worker', image: RAY_IMAGE, resources: { limits: { cpu: '1', memory: '1Gi' } } }] } },
    }],
  },
};

const REPLICA_NAME = 'ray.io/worker-group-replica-name';
const REPLICA_INDEX = 'ray.io/worker-group-replica-index';
const HOST_INDEX = 'ray.io/replica-host-index';

interface Replica { name: string; index: string; hosts: string[]; pods: string[] }

/** The group's live Pods as replicas: name -> replica index, host indices and Pod names (sorted by host index). */
async function replicas(): Promise<Map<string, Replica>> {
  const pods = (await clusterPods(env.url, name, 'ray.io/group=slice')).filter((p) => !p.metadata.deletionTimestamp);
  const out = new Map<string, Replica>();
  for (const p of pods.sort((a, b) => Number(a.metadata.labels[HOST_INDEX]) - Number(b.metadata.labels[HOST_INDEX]))) {
    const labels = p.metadata.labels;
    const r: Replica = out.get(labels[REPLICA_NAME]) ?? { name: labels[REPLICA_NAME], index: labels[REPLICA_INDEX], hosts: [], pods: [] };
    r.hosts.push(labels[HOST_INDEX]);
    r.pods.push(p.metadata.name);
    out.set(r.name, r);
  }
  return out;
}

const byIndex = async (index: string) => [...(await replicas()).values()].find((r) => r.index === index);

async function update(change: (c: Json) => void): Promise<void> {
  await eventually(`update of ${name}`, async () => {
    const c = await getCluster(env.url, name);
    change(c);
    return (await api(env.url, 'PUT', clusterPath(name), c)).status === 200;
  }, 10_000);
}

/** Every replica complete: two hosts 0 and 1 under one name and index. */
const complete = (rs: Map<string, Replica>) => [...rs.values()].every((r) => r.hosts.join() === '0,1');

describe('a multi-host worker group (numOfHosts 2)', () => {
  let original: Replica;

  it('becomes ready with whole replicas: two hosts per replica name, one replica index each', async () => {
    const res = await api(env.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayclusters', manifest);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const ready = await waitForState(env.url, name, 'ready');
    expect(ready.status).toMatchObject({ desiredWorkerReplicas: 4, readyWorkerReplicas: 4, minWorkerReplicas: 0, maxWorkerReplicas: 6 });
    const rs = await replicas();
    expect(rs.size).toBe(2);
    expect(complete(rs)).toBe(true);
    expect([...rs.values()].map((r) => r.index).sort()).toEqual(['0', '1']);
    for (const r of rs.values()) expect(r.name).toMatch(/^slice-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect((await api(env.url, 'GET', `/api/v1/namespaces/default/services/${name}-headless`)).status).toBe(200);
    original = (await byIndex('1'))!;
  }, 120_000);

  it('a host deleted from outside takes its replica with it; a whole new replica takes the index', async () => {
    await api(env.url, 'DELETE', `/api/v1/namespaces/default/pods/${original.pods[0]}`);
    const replaced = await eventually('replica 1 replaced whole', async () => {
      const r = await byIndex('1');
      return r && r.name !== original.name && r.hosts.join() === '0,1' ? r : undefined;
    }, 60_000, 200);
    expect(replaced.pods).not.toContain(original.pods[1]);
    expect((await replicas()).has(original.name)).toBe(false);
    const notes = (await clusterEvents(env.url, name)).map((e) => e.note);
    expect(notes).toContain(`Deleted worker Pod default/${original.pods[1]} for group slice: cleanup of incomplete multi-host group`);
    await waitForState(env.url, name, 'ready');
  }, 90_000);

  it('scales down by whole replicas', async () => {
    const keep = (await byIndex('0'))!;
    await update((c) => { c.spec.workerGroupSpecs[0].replicas = 1; });
    const rs = await eventually('one replica left', async () => {
      const current = await replicas();
      return current.size === 1 ? current : undefined;
    }, 60_000, 200);
    expect([...rs.values()]).toEqual([keep]);
    expect((await getCluster(env.url, name)).status.desiredWorkerReplicas).toBe(2);
  }, 90_000);

  it('workersToDelete naming one host replaces its whole replica', async () => {
    const victim = (await byIndex('0'))!;
    await update((c) => { c.spec.workerGroupSpecs[0].scaleStrategy = { workersToDelete: [victim.pods[1]] }; });
    const next = await eventually('replica 0 replaced whole', async () => {
      const rs = await replicas();
      const r = rs.get([...rs.keys()][0] ?? '');
      return rs.size === 1 && r && r.name !== victim.name && r.index === '0' && complete(rs) ? r : undefined;
    }, 60_000, 200);
    expect(next.pods.some((p) => victim.pods.includes(p))).toBe(false);
    const notes = (await clusterEvents(env.url, name)).map((e) => e.note);
    expect(notes).toContain(`Deleted worker Pod default/${victim.pods[0]} for group slice: autoscaler scale-down request`);
    await api(env.url, 'DELETE', clusterPath(name));
  }, 90_000);
});
