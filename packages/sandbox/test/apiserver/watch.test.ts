// Watch protocol: list-then-watch resume, selector transitions, 410 Gone (HTTP and ERROR event),
// bookmarks, timeoutSeconds, Table watch, and a client-node informer recovering from expiry.
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, http, readWatch, startHarness, type Harness } from '../harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ bookmarkIntervalMs: 100, historySize: 50 });
});
afterAll(async () => {
  await h.stop();
});

const cm = (name: string, labels: Record<string, string> = {}) => ({ metadata: { name, labels }, data: { v: '1' } });

describe('watch', () => {
  it('resumes from a list resourceVersion: only later changes, in order', async () => {
    await h.core.createNamespacedConfigMap({ namespace: 'default', body: cm('before') });
    const list = await h.core.listNamespacedConfigMap({ namespace: 'default' });
    await h.core.createNamespacedConfigMap({ namespace: 'default', body: cm('after') });
    await h.core.deleteNamespacedConfigMap({ name: 'after', namespace: 'default' });
    const rv = list.metadata?.resourceVersion ?? '';
    const { events } = await readWatch(h.server, `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`, (e) => e.length >= 2);
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'after'],
      ['DELETED', 'after'],
    ]);
    expect(Number(events[1]?.object.metadata.resourceVersion)).toBeGreaterThan(Number(events[0]?.object.metadata.resourceVersion));
  });

  it('without a resourceVersion starts with ADDED for existing objects', async () => {
    const { events } = await readWatch(h.server, '/api/v1/namespaces/default/configmaps?watch=1&fieldSelector=metadata.name%3Dbefore', (e) => e.length >= 1);
    expect(events[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'before' } } });
  });

  it('turns selector transitions into ADDED and DELETED', async () => {
    const rv = (await h.core.listNamespacedConfigMap({ namespace: 'default' })).metadata?.resourceVersion ?? '';
    await h.core.createNamespacedConfigMap({ namespace: 'default', body: cm('moving') });
    await h.core.patchNamespacedConfigMap({ name: 'moving', namespace: 'default', body: { metadata: { labels: { watch: 'me' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    await h.core.patchNamespacedConfigMap({ name: 'moving', namespace: 'default', body: { metadata: { labels: { watch: null } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
    const { events } = await readWatch(h.server, `/api/v1/namespaces/default/configmaps?watch=true&labelSelector=watch%3Dme&resourceVersion=${rv}`, (e) => e.length >= 2);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
  });

  it('answers HTTP 410 Gone with an Expired Status when history no longer reaches back', async () => {
    const old = (await h.core.listNamespacedConfigMap({ namespace: 'default' })).metadata?.resourceVersion ?? '';
    for (let i = 0; i < 60; i++) await h.core.createNamespacedConfigMap({ namespace: 'default', body: cm(`churn-${i}`) });
    const res = await http(h.server, 'GET', `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${old}`);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(res.body.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
  });

  it('ends open watches with an ERROR 410 event when expired (as a compacting server does)', async () => {
    const rv = String(h.server.store.currentRv());
    const reading = readWatch(h.server, `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`, (e) => e.some((x) => x.type === 'ERROR'));
    await eventually(() => h.server.watchCount() > 0, 2000, 'watch to open');
    h.server.expireWatches();
    const { events } = await reading;
    expect(events.at(-1)).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
  });

  it('sends BOOKMARK events when allowWatchBookmarks=true', async () => {
    const rv = String(h.server.store.currentRv());
    const { events } = await readWatch(h.server, `/api/v1/namespaces/default/configmaps?watch=true&allowWatchBookmarks=true&resourceVersion=${rv}`, (e) => e.some((x) => x.type === 'BOOKMARK'));
    const bookmark = events.find((e) => e.type === 'BOOKMARK');
    expect(bookmark?.object).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: expect.stringMatching(/^\d+$/) } });
  });

  it('closes the stream after timeoutSeconds', async () => {
    const started = Date.now();
    const { status } = await readWatch(h.server, '/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1&resourceVersion=' + h.server.store.currentRv(), () => false, 15_000);
    expect(status).toBe(200);
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(10_000); // closed by the server, well before the reader's own 15 s bound
  });

  it('streams Table rows when kubectl-style Table output is asked for', async () => {
    const res = await fetch(`${h.server.url}/api/v1/namespaces/default/configmaps?watch=true&fieldSelector=metadata.name%3Dbefore`, {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' },
    });
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    await reader.cancel();
    const event = JSON.parse(new TextDecoder().decode(value).split('\n')[0] ?? '');
    expect(event.object.kind).toBe('Table');
    expect(event.object.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(event.object.rows[0].cells[0]).toBe('before');
  });
});

describe('client-node informer', () => {
  it('lists, watches, and relists after its watch expires', async () => {
    const path = '/api/v1/namespaces/default/pods';
    const informer = k8s.makeInformer(h.kc, path, () => h.core.listNamespacedPod({ namespace: 'default' }));
    const seen = new Set<string>();
    informer.on('add', (p) => seen.add(p.metadata?.name ?? ''));
    informer.on('error', () => setTimeout(() => void informer.start(), 10));
    await h.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'inf-1' }, spec: { containers: [{ name: 'c', image: 'x' }] } } });
    await informer.start();
    await eventually(() => seen.has('inf-1'), 3000, 'initial list');
    await h.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'inf-2' }, spec: { containers: [{ name: 'c', image: 'x' }] } } });
    await eventually(() => seen.has('inf-2'), 3000, 'watched add');
    h.server.compactHistory();
    h.server.expireWatches();
    await h.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'inf-3' }, spec: { containers: [{ name: 'c', image: 'x' }] } } });
    await eventually(() => seen.has('inf-3'), 5000, 'add after 410 relist');
    await informer.stop();
  });
});
