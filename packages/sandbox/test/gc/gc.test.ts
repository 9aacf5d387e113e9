// Garbage collection through the API: background, foreground (blockOwnerDeletion) and orphan
// propagation, chosen by DeleteOptions body or query, plus dependents of owners that no longer exist.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, http, startHarness, type Harness, type Json } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

const base = '/api/v1/namespaces/default/configmaps';
const exists = async (name: string): Promise<boolean> => (await http(h.server, 'GET', `${base}/${name}`)).status === 200;
const get = async (name: string): Promise<Json> => (await http(h.server, 'GET', `${base}/${name}`)).body;

async function family(prefix: string, block = true): Promise<void> {
  const owner = (await http(h.server, 'POST', base, { metadata: { name: `${prefix}-owner` } })).body;
  const ref = { apiVersion: 'v1', kind: 'ConfigMap', name: owner.metadata.name, uid: owner.metadata.uid, blockOwnerDeletion: block };
  for (const i of [1, 2]) {
    const child = (await http(h.server, 'POST', base, { metadata: { name: `${prefix}-child-${i}`, ownerReferences: [ref] } })).body;
    await http(h.server, 'POST', base, {
      metadata: { name: `${prefix}-grandchild-${i}`, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: child.metadata.name, uid: child.metadata.uid, blockOwnerDeletion: block }] },
    });
  }
}

const all = (prefix: string) => [`${prefix}-owner`, `${prefix}-child-1`, `${prefix}-child-2`, `${prefix}-grandchild-1`, `${prefix}-grandchild-2`];

describe('ownerReference garbage collection', () => {
  it.each([
    ['body', 'Background'],
    ['query', 'Background'],
  ])('background (policy in the %s): owner goes at once, dependents follow', async (where, policy) => {
    const prefix = `bg-${where}`;
    await family(prefix);
    const res =
      where === 'body'
        ? await http(h.server, 'DELETE', `${base}/${prefix}-owner`, { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: policy })
        : await http(h.server, 'DELETE', `${base}/${prefix}-owner?propagationPolicy=${policy}`);
    expect(res.status).toBe(200);
    expect(await exists(`${prefix}-owner`)).toBe(false);
    await eventually(async () => (await Promise.all(all(prefix).map(exists))).every((e) => !e), 3000, 'dependents to be collected');
  });

  it('foreground: the owner keeps deletionTimestamp + foregroundDeletion until blocking dependents are gone', async () => {
    await family('fg');
    // A blocking dependent held by a finalizer keeps the whole chain waiting.
    const owner = await get('fg-owner');
    await http(h.server, 'PATCH', `${base}/fg-child-1`, { metadata: { finalizers: ['test/hold'] } }, 'application/merge-patch+json');
    const res = await http(h.server, 'DELETE', `${base}/fg-owner`, { propagationPolicy: 'Foreground' });
    expect(res.status).toBe(202);
    expect(res.body.metadata.finalizers).toContain('foregroundDeletion');
    expect(res.body.metadata.deletionTimestamp).toBeDefined();
    await eventually(async () => !(await exists('fg-child-2')) && !(await exists('fg-grandchild-1')), 3000, 'non-held dependents to go');
    expect((await get('fg-owner')).metadata.uid).toBe(owner.metadata.uid);
    expect((await get('fg-child-1')).metadata.deletionTimestamp).toBeDefined();
    await http(h.server, 'PATCH', `${base}/fg-child-1`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    await eventually(async () => !(await exists('fg-child-1')), 3000, 'held child to go after its finalizer is removed');
    await eventually(async () => !(await exists('fg-owner')), 3000, 'owner to go once blocking dependents are gone');
  });

  it('foreground does not wait for dependents without blockOwnerDeletion', async () => {
    await family('fgnb', false);
    await http(h.server, 'PATCH', `${base}/fgnb-child-1`, { metadata: { finalizers: ['test/hold'] } }, 'application/merge-patch+json');
    await http(h.server, 'DELETE', `${base}/fgnb-owner?propagationPolicy=Foreground`);
    await eventually(async () => !(await exists('fgnb-owner')), 3000, 'owner to go');
    expect(await exists('fgnb-child-1')).toBe(true);
    await http(h.server, 'PATCH', `${base}/fgnb-child-1`, { metadata: { finalizers: null } }, 'application/merge-patch+json');
  });

  it('orphan: dependents stay and lose the ownerReference', async () => {
    await family('or');
    await http(h.server, 'DELETE', `${base}/or-owner`, { propagationPolicy: 'Orphan' });
    await eventually(async () => !(await exists('or-owner')), 3000, 'owner to go');
    const child = await get('or-child-1');
    expect(child.metadata.ownerReferences).toBeUndefined();
    expect(await exists('or-grandchild-1')).toBe(true);
  });

  it('batch/v1 Jobs orphan their pods by default (no propagationPolicy), like the real server', async () => {
    const job = await h.batch.createNamespacedJob({
      namespace: 'default',
      body: { metadata: { name: 'orphaner' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'x' }] } } } },
    });
    await h.core.createNamespacedPod({
      namespace: 'default',
      body: { metadata: { name: 'orphaner-pod', ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'orphaner', uid: job.metadata?.uid ?? '', controller: true }] }, spec: { containers: [{ name: 'c', image: 'x' }] } },
    });
    await http(h.server, 'DELETE', '/apis/batch/v1/namespaces/default/jobs/orphaner');
    await eventually(async () => (await http(h.server, 'GET', '/apis/batch/v1/namespaces/default/jobs/orphaner')).status === 404, 3000, 'job to go');
    const pod = (await http(h.server, 'GET', '/api/v1/namespaces/default/pods/orphaner-pod')).body;
    expect(pod.metadata.ownerReferences).toBeUndefined();
  });

  it('a dependent whose owner does not exist is deleted', async () => {
    await http(h.server, 'POST', base, { metadata: { name: 'dangling', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'ghost', uid: '00000000-0000-0000-0000-000000000000' }] } });
    await eventually(async () => !(await exists('dangling')), 3000, 'dangling dependent to be collected');
  });
});
