// Server-side apply (PATCH application/apply-patch+yaml) with real kubectl: `kubectl apply --server-side` creates
// and updates, managedFields record who owns what (FieldsV1), a second manager changing an owned field gets
// kube-apiserver's 409 conflict text, `--force-conflicts` takes the field, fields an applier drops are removed,
// lists merge by their type (containers by name), and the project's CRDs apply server-side.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startHarness, type Harness, type Json } from '../harness.ts';

const crdDir = join(import.meta.dirname, '..', '..', '..', 'core', 'crds');

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

const ssa = (doc: Json, ...flags: string[]) => h.kubectl(['apply', '--server-side', ...flags, '-f', '-'], JSON.stringify(doc));
const get = async (path: string): Promise<Json> => (await http(h.server, 'GET', path)).body;
const configMap = (data: Record<string, string>, labels?: Record<string, string>): Json => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default', ...(labels && { labels }) }, data });
const entry = (obj: Json, manager: string): Json => (obj.metadata.managedFields as Json[]).find((e) => e.manager === manager);

describe('server-side apply', () => {
  it('creates, records the applier in managedFields, and refuses another manager a changed field with the real 409', async () => {
    const created = await ssa(configMap({ a: '1', b: '2' }, { app: 'x' }));
    expect(created.stdout.trim()).toBe('configmap/cm serverside-applied');
    const cm = await get('/api/v1/namespaces/default/configmaps/cm');
    expect(cm.metadata.managedFields).toEqual([
      { manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: expect.any(String), fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} }, 'f:metadata': { 'f:labels': { 'f:app': {} } } } },
    ]);
    const conflict = await ssa(configMap({ a: 'changed' }), '--field-manager=other');
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain('error: Apply failed with 1 conflict: conflict with "kubectl": .data.a\nPlease review the fields above--they currently have other managers.');
    const raw = await http(h.server, 'PATCH', '/api/v1/namespaces/default/configmaps/cm?fieldManager=other', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { a: 'changed', b: 'too' } }, 'application/apply-patch+yaml');
    expect(raw.status).toBe(409);
    expect(raw.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 2 conflicts: conflicts with "kubectl":\n- .data.a\n- .data.b',
      reason: 'Conflict',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.data.a' }, { reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.data.b' }] },
      code: 409,
    });
    // The same value is shared, not a conflict.
    expect((await ssa(configMap({ b: '2' }), '--field-manager=other')).code).toBe(0);
    expect(entry(await get('/api/v1/namespaces/default/configmaps/cm'), 'other').fieldsV1).toEqual({ 'f:data': { 'f:b': {} } });
  });

  it('--force-conflicts takes the field over; an applier that drops a field removes it unless someone else owns it', async () => {
    expect((await ssa(configMap({ a: 'forced' }), '--field-manager=other', '--force-conflicts')).code).toBe(0);
    let cm = await get('/api/v1/namespaces/default/configmaps/cm');
    expect(cm.data).toEqual({ a: 'forced', b: '2' });
    expect(entry(cm, 'kubectl').fieldsV1['f:data']).toEqual({ 'f:b': {} });
    expect(entry(cm, 'other').fieldsV1['f:data']).toEqual({ 'f:a': {} });
    // kubectl's config now leaves b out and label app out: the label goes; nobody else owns it.
    expect((await ssa(configMap({ c: '3' }))).code).toBe(0);
    cm = await get('/api/v1/namespaces/default/configmaps/cm');
    expect(cm.data).toEqual({ a: 'forced', c: '3' });
    expect(cm.metadata.labels).toBeUndefined();
  });

  it('an ordinary write to an applied object becomes its manager\'s, and a later apply conflicts with it', async () => {
    expect((await h.kubectl(['patch', 'configmap', 'cm', '--type=merge', '-p', '{"data":{"c":"patched"}}'])).code).toBe(0);
    const cm = await get('/api/v1/namespaces/default/configmaps/cm');
    expect(entry(cm, 'kubectl-patch')).toMatchObject({ operation: 'Update', apiVersion: 'v1', fieldsV1: { 'f:data': { 'f:c': {} } } });
    expect(entry(cm, 'kubectl')).toBeUndefined();
    const again = await ssa(configMap({ c: '3' }));
    expect(again.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl-patch" using v1: .data.c');
  });

  it('kubectl create then a server-side apply conflicts with kubectl-create; an object no manager ever wrote, with before-first-apply', async () => {
    expect((await h.kubectl(['create', 'configmap', 'made', '--from-literal=k=v'])).code).toBe(0);
    const made = await ssa({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'made', namespace: 'default' }, data: { k: 'other' } });
    expect(made.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl-create" using v1: .data.k');
    expect((await http(h.server, 'POST', '/api/v1/namespaces/default/configmaps', { metadata: { name: 'legacy' }, data: { k: 'v' } })).status).toBe(201);
    expect((await get('/api/v1/namespaces/default/configmaps/legacy')).metadata.managedFields).toBeUndefined();
    const legacy = await ssa({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'legacy', namespace: 'default' }, data: { k: 'new' } });
    expect(legacy.stderr).toContain('Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.k');
  });

  it('merges containers by name: two managers own their own containers, and a change to the other\'s image conflicts at its path', async () => {
    const deployment = (containers: Json[]): Json => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers } } },
    });
    expect((await ssa(deployment([{ name: 'main', image: 'busybox:1', ports: [{ containerPort: 80 }] }]))).code).toBe(0);
    expect((await ssa(deployment([{ name: 'sidecar', image: 'busybox:2' }]), '--field-manager=mesh')).code).toBe(0);
    const d = await get('/apis/apps/v1/namespaces/default/deployments/web');
    expect((d.spec.template.spec.containers as Json[]).map((c) => `${c.name}=${c.image}`)).toEqual(['main=busybox:1', 'sidecar=busybox:2']);
    expect(entry(d, 'mesh').fieldsV1['f:spec']['f:template']['f:spec']['f:containers']).toEqual({ 'k:{"name":"sidecar"}': { '.': {}, 'f:image': {}, 'f:name': {} } });
    expect(entry(d, 'kubectl').fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"main"}']['f:ports']).toEqual({ 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } });
    const conflict = await ssa(deployment([{ name: 'main', image: 'busybox:3' }, { name: 'sidecar', image: 'busybox:2' }]), '--field-manager=mesh');
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.template.spec.containers[name="main"].image');
    // kubectl drops its container: it goes, mesh's stays.
    expect((await ssa({ ...deployment([]), spec: { ...deployment([]).spec, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'other', image: 'busybox:4' }] } } } })).code).toBe(0);
    const after = await get('/apis/apps/v1/namespaces/default/deployments/web');
    expect((after.spec.template.spec.containers as Json[]).map((c) => c.name)).toEqual(['sidecar', 'other']);
  });

  it('requires a field manager on the raw API, and applies over a client-side applied object without conflicts (kubectl upgrades its fields)', async () => {
    const raw = await http(h.server, 'PATCH', '/api/v1/namespaces/default/configmaps/x', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }, 'application/apply-patch+yaml');
    expect(raw.status).toBe(422);
    expect(raw.body.message).toBe('PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch');
    const csa = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'csa', namespace: 'default' }, data: { k: 'v1' } };
    expect((await h.kubectl(['apply', '-f', '-'], JSON.stringify(csa))).code).toBe(0);
    expect(entry(await get('/api/v1/namespaces/default/configmaps/csa'), 'kubectl-client-side-apply')).toBeDefined();
    const upgraded = await ssa({ ...csa, data: { k: 'v2' } });
    expect(upgraded.stderr).toBe('');
    expect((await get('/api/v1/namespaces/default/configmaps/csa')).data).toEqual({ k: 'v2' });
  });

  it("applies the project's CRDs server-side (twice, idempotent), serves them, and applies a RayJob; a second manager conflicts on the CR", async () => {
    const first = await h.kubectl(['apply', '--server-side', '-f', crdDir]);
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain('customresourcedefinition.apiextensions.k8s.io/rayjobs.ray.io serverside-applied');
    const second = await h.kubectl(['apply', '--server-side', '-f', crdDir]);
    expect(second.code).toBe(0);
    const rayJob = (entrypoint: string): Json => ({
      apiVersion: 'ray.io/v1',
      kind: 'RayJob',
      metadata: { name: 'rj', namespace: 'default' },
      spec: { entrypoint, rayClusterSpec: { headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.46.0' }] } } } } },
    });
    let applied: Awaited<ReturnType<typeof ssa>> | undefined;
    for (let i = 0; i < 50; i += 1) {
      applied = await ssa(rayJob('python a.py'));
      if (applied.code === 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(applied?.stderr).toBe('');
    const conflict = await ssa(rayJob('python b.py'), '--field-manager=ci');
    expect(conflict.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.entrypoint');
    expect((await ssa(rayJob('python b.py'), '--field-manager=ci', '--force-conflicts')).code).toBe(0);
    expect((await get('/apis/ray.io/v1/namespaces/default/rayjobs/rj')).spec.entrypoint).toBe('python b.py');
  }, 90_000); // two 0.8 MB CRDs through kubectl twice: seconds alone, much longer on a loaded machine
});
