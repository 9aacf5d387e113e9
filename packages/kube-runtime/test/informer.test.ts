import { describe, expect, it } from 'vitest';
import { createInformer, keepFields, keepFieldsTransform, objectKey, resources, type KubeObject } from '../src/index.ts';
import { eventually } from './support/eventually.ts';
import { configMap } from './support/sandbox.ts';
import { useClusterPerTest } from './support/cluster-per-test.ts';

type ConfigMap = KubeObject & { data?: Record<string, string> };

const t = useClusterPerTest({ bookmarkIntervalMs: 100, historySize: 50 });

const fastBackoff = { initialMs: 10, maxMs: 100, jitter: 0.5 };
const lists = () => t.cluster.proxy.requests.filter((r) => r.startsWith('GET /api/v1/namespaces/default/configmaps') && !r.includes('watch=true'));
const watches = () => t.cluster.proxy.requests.filter((r) => r.includes('watch=true'));

function start(namespace = 'default', watchIdleTimeoutMs?: number) {
  const informer = createInformer<ConfigMap>({ client: t.cluster.client, type: resources.configmaps, namespace, pageSize: 10, backoff: fastBackoff, ...(watchIdleTimeoutMs !== undefined && { watchIdleTimeoutMs }) });
  const seen: string[] = [];
  informer.addHandlers({
    add: (o) => seen.push(`add ${o.metadata.name}`),
    update: (_old, o) => seen.push(`update ${o.metadata.name} ${o.data?.v ?? ''}`),
    delete: (o) => seen.push(`delete ${o.metadata.name}`),
  });
  const done = informer.run(t.stop.signal);
  return { informer, seen, done };
}

async function create(name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}) {
  const r = await t.cluster.direct.create(resources.configmaps, configMap(name, data, labels));
  if (!r.ok) throw new Error(r.error.message);
}

describe('informer against the sandbox API server', () => {
  it('lists in pages, then watches from the list resourceVersion with bookmarks', async () => {
    for (let i = 0; i < 25; i++) await create(`cm-${i}`);
    const { informer } = start();
    expect(await informer.waitForSync(AbortSignal.timeout(10_000))).toBe(true);
    expect(informer.cache.size()).toBe(25);
    expect(lists()).toHaveLength(3);
    expect(lists()[0]).toContain('limit=10');
    expect(lists()[1]).toContain('continue=');
    const listRv = informer.lastResourceVersion();
    await eventually(() => watches().length === 1);
    expect(watches()[0]).toContain(`resourceVersion=${listRv}`);
    expect(watches()[0]).toContain('allowWatchBookmarks=true');
    // A bookmark moves the resume point forward without any object change in this namespace.
    await t.cluster.direct.create(resources.configmaps, configMap('elsewhere', {}, {}, 'kube-system'));
    await eventually(() => Number(informer.lastResourceVersion()) > Number(listRv), 5000, 'bookmark');
  });

  it('is not synced until a list succeeds (503s and 429 with Retry-After first)', async () => {
    await create('a');
    t.cluster.proxy.fail({ status: 503, count: 3, match: /GET \/api\/v1\/namespaces\/default\/configmaps\?limit/ });
    t.cluster.proxy.fail({ status: 429, count: 1, retryAfter: '0', match: /configmaps\?limit/ });
    const { informer } = start();
    expect(informer.hasSynced()).toBe(false);
    expect(await informer.waitForSync(AbortSignal.timeout(10_000))).toBe(true);
    expect(lists().length).toBeGreaterThanOrEqual(5);
    expect(informer.cache.get('default/a')).toBeDefined();
  });

  it('delivers adds, updates and deletes from the watch to handlers and the cache', async () => {
    const { informer, seen } = start();
    await informer.waitForSync(AbortSignal.timeout(10_000));
    await create('x', { v: '1' }, { app: 'ray' });
    await eventually(() => seen.includes('add x'));
    await t.cluster.direct.patch(resources.configmaps, { namespace: 'default', name: 'x' }, { data: { v: '2' } });
    await eventually(() => seen.includes('update x 2'));
    expect(informer.cache.byLabels({ app: 'ray' }).map(objectKey)).toEqual(['default/x']);
    await t.cluster.direct.delete(resources.configmaps, { namespace: 'default', name: 'x' });
    await eventually(() => seen.includes('delete x'));
    expect(informer.cache.size()).toBe(0);
  });

  it('resumes a dropped watch from its last resourceVersion without relisting', async () => {
    const { informer, seen } = start();
    await informer.waitForSync(AbortSignal.timeout(10_000));
    await eventually(async () => (await t.cluster.server.watchCount()) === 1);
    const rv = informer.lastResourceVersion();
    expect(t.cluster.proxy.dropWatches()).toBe(1);
    await create('after-drop');
    await eventually(() => seen.includes('add after-drop'));
    expect(lists()).toHaveLength(1);
    expect(watches().length).toBeGreaterThanOrEqual(2);
    expect(watches()[1]).toContain(`resourceVersion=`);
    expect(Number(/resourceVersion=(\d+)/.exec(watches()[1]!)![1])).toBeGreaterThanOrEqual(Number(rv));
  });

  it('relists on 410 Gone and tells handlers about what changed while it was away', async () => {
    await create('stays', { v: '1' });
    await create('goes');
    const { informer, seen } = start();
    await informer.waitForSync(AbortSignal.timeout(10_000));
    await eventually(async () => (await t.cluster.server.watchCount()) === 1);
    // Cut the watch and fail re-watches so changes pile up, then forget history: the resume gets 410.
    t.cluster.proxy.fail({ status: 503, count: 2, match: /watch=true/ });
    t.cluster.proxy.dropWatches();
    await t.cluster.direct.delete(resources.configmaps, { namespace: 'default', name: 'goes' });
    await t.cluster.direct.patch(resources.configmaps, { namespace: 'default', name: 'stays' }, { data: { v: '2' } });
    await create('new');
    await t.cluster.server.compactHistory();
    await eventually(() => seen.includes('delete goes') && seen.includes('update stays 2') && seen.includes('add new'), 10_000, 'relist diff');
    expect(lists()).toHaveLength(2);
    expect(informer.cache.keys().sort()).toEqual(['default/new', 'default/stays']);
  });

  it('relists when the server ends a watch with a 410 ERROR event', async () => {
    const { informer } = start();
    await informer.waitForSync(AbortSignal.timeout(10_000));
    await eventually(async () => (await t.cluster.server.watchCount()) === 1);
    await t.cluster.server.compactHistory();
    await t.cluster.server.expireWatches();
    await eventually(() => lists().length === 2, 10_000, 'a second list');
    await create('later');
    await eventually(() => informer.cache.get('default/later'));
  });

  it('keeps retrying with backoff through a burst of watch failures and then catches up', async () => {
    const { informer, seen } = start();
    await informer.waitForSync(AbortSignal.timeout(10_000));
    await eventually(async () => (await t.cluster.server.watchCount()) === 1);
    t.cluster.proxy.fail({ status: 500, count: 4, match: /watch=true/ });
    t.cluster.proxy.dropWatches();
    await create('through-burst');
    await eventually(() => seen.includes('add through-burst'), 10_000);
    expect(watches().length).toBeGreaterThanOrEqual(6);
  });

  it('re-opens a watch that went silent (half-open connection) from its last resourceVersion', async () => {
    const { informer, seen } = start('default', 500);
    await informer.waitForSync(AbortSignal.timeout(10_000));
    await eventually(async () => (await t.cluster.server.watchCount()) === 1);
    await eventually(() => t.cluster.proxy.stallWatches() === 1, 5000, 'a watch to stall');
    await create('after-stall');
    await eventually(() => seen.includes('add after-stall'), 10_000, 'the event after a stalled watch');
    expect(lists()).toHaveLength(1);
    expect(watches().length).toBeGreaterThanOrEqual(2);
  });
});

describe('informer cache transform', () => {
  it('trims every listed and watched object before the cache and the handlers see it', async () => {
    await create('listed', { keep: 'a', drop: 'x'.repeat(1000) }, { app: 'x' });
    const informer = createInformer<ConfigMap>({
      client: t.cluster.client,
      type: resources.configmaps,
      namespace: 'default',
      backoff: fastBackoff,
      transform: keepFieldsTransform<ConfigMap>({ metadata: { name: true, namespace: true, resourceVersion: true, labels: true }, data: { keep: true } }),
    });
    const handled: ConfigMap[] = [];
    informer.addHandlers({ add: (o) => handled.push(o), update: (_old, o) => handled.push(o), delete: (o) => handled.push(o) });
    void informer.run(t.stop.signal);
    expect(await informer.waitForSync(AbortSignal.timeout(10_000))).toBe(true);
    await create('watched', { keep: 'b', drop: 'y' });
    await eventually(() => informer.cache.size() === 2);
    for (const obj of [...informer.cache.list(), ...handled]) {
      expect(Object.keys(obj).sort()).toEqual(['data', 'metadata']);
      expect(Object.keys(obj.metadata).sort()).toEqual(expect.arrayContaining(['name', 'namespace', 'resourceVersion']));
      expect(obj.metadata).not.toHaveProperty('uid');
      expect(obj.metadata).not.toHaveProperty('creationTimestamp');
      expect(obj.data).toEqual({ keep: expect.any(String) });
    }
    expect(informer.cache.getByName('default', 'listed')?.metadata.labels).toEqual({ app: 'x' });
  });
});

describe('keepFields', () => {
  it('keeps named keys, whole subtrees, array elements by rule and map keys by "*", and drops the rest', () => {
    const pod = {
      metadata: { name: 'p', labels: { a: 'b' }, annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}', keep: 'y' }, managedFields: [{ manager: 'x' }] },
      spec: { containers: [{ name: 'c', image: 'i', env: [{ name: 'E', value: 'v' }] }], volumes: [{ name: 'v' }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }], qosClass: 'BestEffort' },
    };
    const rule = { metadata: { name: true, labels: true, annotations: { '*': true, 'kubectl.kubernetes.io/last-applied-configuration': false } }, spec: { containers: [{ name: true }] }, status: { phase: true, conditions: [{ type: true, status: true }] } } as const;
    expect(keepFields(pod, rule)).toEqual({
      metadata: { name: 'p', labels: { a: 'b' }, annotations: { keep: 'y' } },
      spec: { containers: [{ name: 'c' }] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
    });
    // A value of the wrong shape for its rule is dropped, not kept.
    expect(keepFields({ spec: { containers: 'oops' } }, rule)).toEqual({ spec: {} });
  });
});
