// Deployments and ReplicaSets against the API server and a kubelet: pods start, a new template rolls out, and
// `kubectl rollout status` agrees.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppsControllers } from '../../src/apps-controllers/controller.ts';
import { startAppsControllers } from '../../src/apps-controllers/controller.ts';
import type { Deployment, ReplicaSet } from '../../src/apps-controllers/types.ts';
import { resources } from '@rayjob/kube-runtime';
import type { Pod } from '../../src/kube-objects/types.ts';
import { startHarness, waitFor } from '../kubelet/harness.ts';
import type { Harness } from '../kubelet/harness.ts';

let h: Harness;
let controllers: AppsControllers;
beforeAll(async () => {
  h = await startHarness();
  controllers = startAppsControllers({ client: h.client, log: () => {} });
  await controllers.synced;
});
afterAll(async () => { await controllers?.stop(); await h?.stop(); });

const kubectl = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile('kubectl', ['--kubeconfig', h.api.kubeconfigPath, ...args], { timeout: 40_000, env: { ...process.env, HOME: h.dir } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }));
  });

const getDeployment = async (name: string): Promise<Deployment | undefined> => {
  const got = await h.client.get<Deployment>(resources.deployments, { namespace: 'default', name });
  return got.ok ? got.value : undefined;
};
const podsOf = async (selector: string): Promise<Pod[]> => {
  const list = await h.client.list<Pod>(resources.pods, { namespace: 'default', labelSelector: selector });
  return list.ok ? list.value.items.filter((p) => p.metadata.deletionTimestamp === undefined) : [];
};
const ready = (pod: Pod): boolean => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

describe('Deployment controller', () => {
  it('starts the pods of a Deployment through its ReplicaSet, with owner references and status', async () => {
    const created = await h.client.create<Deployment>(resources.deployments, {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'busybox', command: ['sleep', '300'], env: [{ name: 'V', value: '1' }] }] } } },
    }, { namespace: 'default' });
    expect(created.ok).toBe(true);
    const done = await waitFor('deployment available', async () => {
      const d = await getDeployment('web');
      return d?.status?.availableReplicas === 2 && d.status.updatedReplicas === 2 ? d : undefined;
    }, 30_000);
    expect(done.status?.conditions?.map((c) => `${c.type}=${c.status}/${c.reason ?? ''}`)).toEqual(['Available=True/MinimumReplicasAvailable', 'Progressing=True/NewReplicaSetAvailable']);
    expect(done.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('1');
    const pods = await podsOf('app=web');
    expect(pods).toHaveLength(2);
    const rsName = pods[0]?.metadata.ownerReferences?.[0]?.name ?? '';
    expect(rsName).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);
    expect(pods[0]?.metadata.name).toMatch(new RegExp(`^${rsName}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    const rs = await h.client.get<ReplicaSet>(resources.replicaSets, { namespace: 'default', name: rsName });
    expect(rs.ok && rs.value.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Deployment', name: 'web', controller: true });
    expect(rs.ok && rs.value.status).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 2 });
    expect((await kubectl(['rollout', 'status', 'deployment/web', '--timeout=20s'])).stdout).toContain('deployment "web" successfully rolled out');
    // kubectl get prints kube-apiserver's columns for both kinds.
    const rows = (out: string): string[][] => out.trim().split('\n').map((l) => l.split(/\s+/));
    expect(rows((await kubectl(['get', 'rs', rsName, '-o', 'wide'])).stdout).map((r) => r.filter((_, i) => i !== 4))).toEqual([
      ['NAME', 'DESIRED', 'CURRENT', 'READY', 'CONTAINERS', 'IMAGES', 'SELECTOR'],
      [rsName, '2', '2', '2', 'c', 'busybox', `app=web,pod-template-hash=${rsName.slice('web-'.length)}`],
    ]);
    expect(rows((await kubectl(['get', 'deploy', 'web'])).stdout).map((r) => r.slice(0, 4))).toEqual([['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE'], ['web', '2/2', '2', '2']]);
  });

  it('rolls out a new template: a new ReplicaSet takes over and the old one goes to zero', async () => {
    const before = await podsOf('app=web');
    const patched = await h.client.patch(resources.deployments, { namespace: 'default', name: 'web' }, { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '300'], env: [{ name: 'V', value: '2' }] }] } } } }, 'strategic');
    expect(patched.ok).toBe(true);
    const rollout = await kubectl(['rollout', 'status', 'deployment/web', '--timeout=40s']);
    expect(rollout.stdout).toContain('deployment "web" successfully rolled out');
    const after = await waitFor('only new pods', async () => {
      const pods = await podsOf('app=web');
      return pods.length === 2 && pods.every((p) => !before.some((b) => b.metadata.name === p.metadata.name)) && pods.every(ready) ? pods : undefined;
    }, 30_000);
    expect(after.every((p) => p.spec.containers[0]?.env?.[0]?.value === '2')).toBe(true);
    const sets = await h.client.list<ReplicaSet>(resources.replicaSets, { namespace: 'default' });
    const byRevision = (sets.ok ? sets.value.items : []).map((rs) => [rs.metadata.annotations?.['deployment.kubernetes.io/revision'], rs.spec.replicas]).sort();
    expect(byRevision).toEqual([['1', 0], ['2', 2]]);
    expect((await getDeployment('web'))?.metadata.annotations?.['deployment.kubernetes.io/revision']).toBe('2');
  });

  it('scales with the scale subresource (kubectl scale)', async () => {
    expect((await kubectl(['scale', 'deployment/web', '--replicas=1'])).code).toBe(0);
    await waitFor('one pod', async () => ((await podsOf('app=web')).length === 1 ? true : undefined), 20_000);
    await waitFor('status replicas 1', async () => ((await getDeployment('web'))?.status?.replicas === 1 ? true : undefined), 20_000);
  });
});
