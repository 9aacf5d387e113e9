// Object semantics through @kubernetes/client-node and raw HTTP: names, uids, resourceVersion conflicts,
// generation, the status split, finalizers, selectors, patches, MicroTime, dryRun, error bodies.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startHarness, type Harness, type Json } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.stop();
});

const ns = 'default';
const pod = (name: string, labels: Record<string, string> = {}): k8s.V1Pod => ({
  metadata: { name, labels },
  spec: { containers: [{ name: 'main', image: 'busybox', env: [{ name: 'A', value: '1' }] }] },
});
const apiError = async (p: Promise<unknown>): Promise<{ code: number; body: Json }> => {
  try {
    await p;
  } catch (e) {
    const err = e as k8s.ApiException<string>;
    return { code: err.code, body: typeof err.body === 'string' ? JSON.parse(err.body) : err.body };
  }
  throw new Error('expected the call to fail');
};

describe('names, uids and errors', () => {
  it('fills generateName, uid, creationTimestamp, resourceVersion, generation', async () => {
    const created = await h.core.createNamespacedPod({ namespace: ns, body: { ...pod(''), metadata: { generateName: 'gen-' } } });
    expect(created.metadata?.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.metadata?.resourceVersion).toMatch(/^\d+$/);
    expect(created.metadata?.generation).toBe(1);
    expect(created.status?.phase).toBe('Pending');
  });

  it.each([
    ['AlreadyExists', 409, 'pods "dup" already exists'],
    ['NotFound', 404, 'pods "missing" not found'],
  ])('%s has the Status body clients parse', async (reason, code, message) => {
    await h.core.createNamespacedPod({ namespace: ns, body: pod('dup') }).catch(() => undefined);
    const call = reason === 'NotFound' ? h.core.readNamespacedPod({ name: 'missing', namespace: ns }) : h.core.createNamespacedPod({ namespace: ns, body: pod('dup') });
    const err = await apiError(call);
    expect(err.code).toBe(code);
    expect(err.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason, code, message });
  });

  it('a stale resourceVersion gets 409 Conflict with the real message', async () => {
    const first = await h.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'cas' }, data: { a: '1' } } });
    await h.core.replaceNamespacedConfigMap({ name: 'cas', namespace: ns, body: { ...first, data: { a: '2' } } });
    const err = await apiError(h.core.replaceNamespacedConfigMap({ name: 'cas', namespace: ns, body: { ...first, data: { a: '3' } } }));
    expect(err.code).toBe(409);
    expect(err.body.reason).toBe('Conflict');
    expect(err.body.message).toBe(
      'Operation cannot be fulfilled on configmaps "cas": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('an update carrying another uid (the object was recreated) is a Conflict', async () => {
    const first = await h.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'reborn' } } });
    await h.core.deleteNamespacedConfigMap({ name: 'reborn', namespace: ns });
    const second = await h.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'reborn' } } });
    const err = await apiError(h.core.replaceNamespacedConfigMap({ name: 'reborn', namespace: ns, body: { ...first, metadata: { ...first.metadata, resourceVersion: second.metadata?.resourceVersion } } }));
    expect(err.code).toBe(409);
    expect(err.body.message).toMatch(/^Operation cannot be fulfilled on configmaps "reborn": Precondition failed: UID in precondition/);
  });

  it('creating in a missing namespace is 404 namespaces "x" not found', async () => {
    const err = await apiError(h.core.createNamespacedConfigMap({ namespace: 'nowhere', body: { metadata: { name: 'x' } } }));
    expect(err.body.message).toBe('namespaces "nowhere" not found');
  });

  it('an invalid name is 422 with the field error', async () => {
    const err = await apiError(h.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'Bad_Name' } } }));
    expect(err.code).toBe(422);
    expect(err.body.message).toMatch(/^ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
  });

  it('dryRun=All validates and answers without storing', async () => {
    const res = await http(h.server, 'POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { metadata: { name: 'dry' } });
    expect(res.status).toBe(201);
    expect((await http(h.server, 'GET', '/api/v1/namespaces/default/configmaps/dry')).status).toBe(404);
  });
});

describe('generation and the status split', () => {
  it.each([
    ['a spec change', { spec: { parallelism: 2 } }, 2],
    ['a label change', { metadata: { labels: { a: 'b' } } }, 1],
    ['a status change through the main endpoint (ignored)', { status: { active: 5 } }, 1],
  ])('%s -> generation %s', async (_what, patch, generation) => {
    const name = `gen-${generation}-${Object.keys(patch)[0]}`;
    await h.batch.createNamespacedJob({
      namespace: ns,
      body: { metadata: { name }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
    });
    const res = await http(h.server, 'PATCH', `/apis/batch/v1/namespaces/default/jobs/${name}`, patch, 'application/merge-patch+json');
    expect(res.status).toBe(200);
    expect(res.body.metadata.generation).toBe(generation);
    expect(res.body.status.active).toBeUndefined();
  });

  it('/status changes only status', async () => {
    await h.core.createNamespacedPod({ namespace: ns, body: pod('split') });
    const res = await http(h.server, 'PATCH', '/api/v1/namespaces/default/pods/split/status', { status: { phase: 'Running', podIP: '127.0.0.9' }, metadata: { labels: { x: 'y' } }, spec: { nodeName: 'n' } }, 'application/merge-patch+json');
    expect(res.status).toBe(200);
    expect(res.body.status).toMatchObject({ phase: 'Running', podIP: '127.0.0.9' });
    expect(res.body.metadata.labels?.x).toBeUndefined();
    expect(res.body.spec.nodeName).toBeUndefined();
  });

  it('a no-op update keeps the resourceVersion (no event)', async () => {
    const cm = await h.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'noop' }, data: { a: '1' } } });
    const same = await h.core.replaceNamespacedConfigMap({ name: 'noop', namespace: ns, body: cm });
    expect(same.metadata?.resourceVersion).toBe(cm.metadata?.resourceVersion);
  });
});

describe('finalizers and deletion', () => {
  it('delete with a finalizer sets deletionTimestamp; removing the finalizer removes the object', async () => {
    await h.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'fin', finalizers: ['test.rayjob.dev/hold'] } } });
    const del = await http(h.server, 'DELETE', '/api/v1/namespaces/default/configmaps/fin');
    expect(del.status).toBe(202);
    const held = await h.core.readNamespacedConfigMap({ name: 'fin', namespace: ns });
    expect(held.metadata?.deletionTimestamp).toBeDefined();
    const last = await h.core.patchNamespacedConfigMap({ name: 'fin', namespace: ns, body: [{ op: 'remove', path: '/metadata/finalizers' }] }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.JsonPatch));
    // kube-apiserver 1.32 (checked on kube-reference): the answer is the object as the patch left it, finalizers
    // gone, at the resourceVersion it had: the write that removed it moved no version a cache could show.
    expect(last.metadata?.finalizers).toBeUndefined();
    expect(last.metadata?.deletionTimestamp).toBeDefined();
    expect(last.metadata?.resourceVersion).toBe(held.metadata?.resourceVersion);
    expect((await http(h.server, 'GET', '/api/v1/namespaces/default/configmaps/fin')).status).toBe(404);
  });

  it('preconditions on delete are checked', async () => {
    await h.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'pre' } } });
    const res = await http(h.server, 'DELETE', '/api/v1/namespaces/default/configmaps/pre', { preconditions: { uid: 'nope' } });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/^Operation cannot be fulfilled on configmaps "pre": Precondition failed: UID in precondition: nope/);
  });

  it('deleting a namespace deletes its contents, then the namespace', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await h.core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'x' } } });
    await h.core.deleteNamespace({ name: 'doomed' });
    const deadline = Date.now() + 5000;
    while ((await http(h.server, 'GET', '/api/v1/namespaces/doomed')).status !== 404) {
      if (Date.now() > deadline) throw new Error('namespace not removed');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await http(h.server, 'GET', '/api/v1/namespaces/doomed/configmaps/x')).status).toBe(404);
  });
});

describe('selectors', () => {
  beforeAll(async () => {
    for (const [name, labels] of [
      ['sel-a', { app: 'ray', tier: 'head' }],
      ['sel-b', { app: 'ray', tier: 'worker' }],
      ['sel-c', { app: 'web' }],
    ] as const) {
      await h.core.createNamespace({ body: { metadata: { name: 'sel' } } }).catch(() => undefined);
      await h.core.createNamespacedPod({ namespace: 'sel', body: pod(name, labels) });
    }
    await http(h.server, 'PATCH', '/api/v1/namespaces/sel/pods/sel-b/status', { status: { phase: 'Running' } }, 'application/merge-patch+json');
  });

  it.each([
    ['app=ray', ['sel-a', 'sel-b']],
    ['app==ray,tier=head', ['sel-a']],
    ['app!=ray', ['sel-c']],
    ['tier in (head, worker)', ['sel-a', 'sel-b']],
    ['tier notin (head)', ['sel-b', 'sel-c']],
    ['tier', ['sel-a', 'sel-b']],
    ['!tier', ['sel-c']],
  ])('labelSelector %s', async (labelSelector, names) => {
    const list = await h.core.listNamespacedPod({ namespace: 'sel', labelSelector });
    expect(list.items.map((p) => p.metadata?.name)).toEqual(names);
  });

  it.each([
    ['metadata.name=sel-c', ['sel-c']],
    ['status.phase=Running', ['sel-b']],
    ['status.phase!=Running,metadata.namespace=sel', ['sel-a', 'sel-c']],
  ])('fieldSelector %s', async (fieldSelector, names) => {
    const list = await h.core.listNamespacedPod({ namespace: 'sel', fieldSelector });
    expect(list.items.map((p) => p.metadata?.name)).toEqual(names);
  });
});

describe('list chunking', () => {
  it('limit/continue pages through everything once, in order', async () => {
    await h.core.createNamespace({ body: { metadata: { name: 'paged' } } });
    for (let i = 0; i < 7; i++) await h.core.createNamespacedConfigMap({ namespace: 'paged', body: { metadata: { name: `cm-${i}` } } });
    const names: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await h.core.listNamespacedConfigMap({ namespace: 'paged', limit: 3, ...(token && { _continue: token }) });
      names.push(...page.items.map((c) => c.metadata?.name ?? ''));
      token = page.metadata?._continue;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(names).toEqual(['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4', 'cm-5', 'cm-6']);
  });
});

describe('patch types', () => {
  it.each([
    [
      'strategic: containers merge by name, env by name, $patch: delete removes',
      'application/strategic-merge-patch+json',
      { spec: { containers: [{ name: 'main', env: [{ name: 'B', value: '2' }, { name: 'A', $patch: 'delete' }] }, { name: 'side', image: 'nginx' }] } },
      (p: Json) => [p.spec.containers.map((c: Json) => c.name), p.spec.containers[0].env, p.spec.containers[0].image],
      [['main', 'side'], [{ name: 'B', value: '2' }], 'busybox'],
    ],
    [
      'merge: null deletes, lists replace',
      'application/merge-patch+json',
      { metadata: { labels: { keep: null, add: 'y' } } },
      (p: Json) => p.metadata.labels,
      { add: 'y' },
    ],
    [
      'json: add, replace, test',
      'application/json-patch+json',
      [{ op: 'test', path: '/spec/containers/0/name', value: 'main' }, { op: 'add', path: '/metadata/labels/j', value: 'p' }, { op: 'replace', path: '/spec/containers/0/image', value: 'alpine' }],
      (p: Json) => [p.metadata.labels.j, p.spec.containers[0].image],
      ['p', 'alpine'],
    ],
  ])('%s', async (title, contentType, patch, read, expected) => {
    const name = `patch-${title.split(':')[0]}`;
    await h.core.createNamespacedPod({ namespace: ns, body: pod(name, { keep: 'x' }) });
    const res = await http(h.server, 'PATCH', `/api/v1/namespaces/default/pods/${name}`, patch, contentType);
    expect(res.status).toBe(200);
    expect(read(res.body)).toEqual(expected);
  });

  it('a failing json-patch test op is 422', async () => {
    await h.core.createNamespacedPod({ namespace: ns, body: pod('jp-fail') });
    const res = await http(h.server, 'PATCH', '/api/v1/namespaces/default/pods/jp-fail', [{ op: 'test', path: '/spec/containers/0/name', value: 'other' }], 'application/json-patch+json');
    expect(res.status).toBe(422);
  });

  it('server-side apply takes a YAML body (test/apply has the rest)', async () => {
    const res = await http(h.server, 'PATCH', '/api/v1/namespaces/default/pods/jp-fail?fieldManager=x', 'apiVersion: v1\nkind: Pod\nmetadata:\n  labels:\n    via: yaml\n', 'application/apply-patch+yaml');
    expect(res.status).toBe(200);
    expect(res.body.metadata.labels).toMatchObject({ via: 'yaml' });
    expect(res.body.metadata.managedFields.map((e: { manager: string; operation: string }) => `${e.manager}/${e.operation}`)).toEqual(['before-first-apply/Update', 'x/Apply']);
  });
});

describe('MicroTime fields need exactly six fractional digits', () => {
  const lease = (renewTime: string) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { generateName: 'l-' }, spec: { holderIdentity: 'me', renewTime } });
  it.each([
    ['2026-01-01T00:00:00.000Z', 400],
    ['2026-01-01T00:00:00Z', 400],
    ['2026-01-01T00:00:00.000000Z', 201],
  ])('Lease renewTime %s -> %i', async (renewTime, status) => {
    const res = await http(h.server, 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', lease(renewTime));
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.message).toMatch(/^Lease in version "v1" cannot be handled as a Lease: unable to parse time/);
  });

  it('client-node V1MicroTime round-trips', async () => {
    const coord = h.kc.makeApiClient(k8s.CoordinationV1Api);
    const created = await coord.createNamespacedLease({ namespace: ns, body: { metadata: { name: 'micro' }, spec: { holderIdentity: 'a', renewTime: new k8s.V1MicroTime(), leaseDurationSeconds: 15 } } });
    expect(String((created.spec as Json).renewTime instanceof Date ? (created.spec?.renewTime as Date).toISOString() : created.spec?.renewTime)).toMatch(/Z$/);
  });

  it('events.k8s.io eventTime with three digits is 400', async () => {
    const res = await http(h.server, 'POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
      metadata: { generateName: 'e-' },
      eventTime: new Date().toISOString(),
      reportingController: 'x',
      reportingInstance: 'y',
      action: 'A',
      reason: 'R',
      regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
    });
    expect(res.status).toBe(400);
  });
});
