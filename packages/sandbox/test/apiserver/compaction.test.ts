// Compaction like etcd's under kube-apiserver: history older than the window (default 5 min; shortened here
// with an injected clock) is dropped, so a watch, a list at an exact resourceVersion or a paginated list from
// before it gets 410 Gone with kube-apiserver's text, and kubectl's/informers' relist path runs as on a real cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStore } from '../../src/store/store.ts';
import { http, startHarness, type Harness } from '../harness.ts';

let clock = 1_000_000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ now: () => clock, historyWindowMs: 60_000 });
});
afterAll(async () => {
  await h.stop();
});

const cm = (name: string) => ({ metadata: { name }, data: { v: '1' } });

describe('compaction window', () => {
  it('a watch from a resourceVersion still in the window resumes; once compacted it gets 410 Gone with the real text', async () => {
    await http(h.server, 'POST', '/api/v1/namespaces/default/configmaps', cm('old-1'));
    const rv = (await http(h.server, 'GET', '/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion as string;
    clock += 30_000;
    await http(h.server, 'POST', '/api/v1/namespaces/default/configmaps', cm('within'));
    const resumed = await fetch(`${h.server.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}&timeoutSeconds=1`);
    expect(resumed.status).toBe(200);
    expect(await resumed.text()).toContain('"within"');

    clock += 61_000;
    await http(h.server, 'POST', '/api/v1/namespaces/default/configmaps', cm('after-compaction'));
    const expired = await http(h.server, 'GET', `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410, message: expect.stringMatching(new RegExp(`^too old resource version: ${rv} \\(\\d+\\)$`)) });
  });

  it('a paginated list continued from before the compaction gets 410 Expired with a token for the rest', async () => {
    for (const n of ['page-a', 'page-b', 'page-c']) await http(h.server, 'POST', '/api/v1/namespaces/default/configmaps', cm(n));
    const first = (await http(h.server, 'GET', '/api/v1/namespaces/default/configmaps?limit=1')).body;
    const token = first.metadata.continue as string;
    expect((await http(h.server, 'GET', `/api/v1/namespaces/default/configmaps?limit=1&continue=${token}`)).status).toBe(200);
    await http(h.server, 'POST', '/api/v1/namespaces/default/configmaps', cm('page-between'));
    clock += 61_000;
    await http(h.server, 'POST', '/api/v1/namespaces/default/configmaps', cm('page-d'));
    const expired = await http(h.server, 'GET', `/api/v1/namespaces/default/configmaps?limit=1&continue=${token}`);
    expect(expired.status).toBe(410);
    expect(expired.body.message).toMatch(/^The provided continue parameter is too old to display a consistent list result\./);
    const rest = await http(h.server, 'GET', `/api/v1/namespaces/default/configmaps?continue=${expired.body.metadata.continue}`);
    expect(rest.status).toBe(200);
    expect(rest.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain('page-d');
  });

  it('a list at an exact resourceVersion shows the objects as they were; once compacted it gets 410 with etcd\'s text', async () => {
    const base = '/api/v1/namespaces/default/configmaps';
    await http(h.server, 'POST', base, cm('exact-a'));
    await http(h.server, 'POST', base, cm('exact-gone'));
    const then = (await http(h.server, 'GET', base)).body;
    const rv = then.metadata.resourceVersion as string;
    await http(h.server, 'PATCH', `${base}/exact-a`, { data: { v: '2' } }, 'application/merge-patch+json');
    await http(h.server, 'DELETE', `${base}/exact-gone`);
    await http(h.server, 'POST', base, cm('exact-b'));
    for (const query of [`resourceVersion=${rv}&resourceVersionMatch=Exact`, `resourceVersion=${rv}&limit=500`]) {
      const listed = await http(h.server, 'GET', `${base}?${query}`);
      expect(listed.status).toBe(200);
      expect(listed.body.metadata.resourceVersion).toBe(rv);
      expect(listed.body.items).toEqual(then.items);
    }
    const ahead = await http(h.server, 'GET', `${base}?resourceVersion=${Number(rv) + 1000}&resourceVersionMatch=Exact`);
    expect({ status: ahead.status, reason: ahead.body.reason }).toEqual({ status: 504, reason: 'Timeout' });
    expect((await http(h.server, 'GET', `${base}?resourceVersion=0&resourceVersionMatch=Exact`)).status).toBe(400);

    clock += 61_000;
    await http(h.server, 'POST', base, cm('exact-later'));
    const expired = await http(h.server, 'GET', `${base}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ kind: 'Status', reason: 'Expired', code: 410, message: 'The resourceVersion for the provided list is too old.' });
    const out = await h.kubectl(['get', '--raw', `${base}?resourceVersion=${rv}&limit=10`]);
    expect(out.stderr).toContain('Error from server (Expired): The resourceVersion for the provided list is too old.');
  });

  it('kubectl reports the expiry of a watch from a compacted resourceVersion', async () => {
    const rv = (await http(h.server, 'GET', '/api/v1/namespaces/default/configmaps')).body.metadata.resourceVersion as string;
    await http(h.server, 'POST', '/api/v1/namespaces/default/configmaps', cm('soon-compacted'));
    clock += 61_000;
    await http(h.server, 'POST', '/api/v1/namespaces/default/configmaps', cm('later'));
    const out = await h.kubectl(['get', '--raw', `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`]);
    expect(out.stderr).toContain(`Error from server (Expired): too old resource version: ${rv}`);
  });
});

describe('store compaction (unit)', () => {
  it('defaults to a 5-minute window', () => {
    let t = 0;
    const store = createStore({ now: () => t });
    store.create('b', { metadata: { name: 'x' } });
    const rv = store.currentRv();
    t = 4 * 60_000;
    store.create('b', { metadata: { name: 'y' } });
    expect(store.eventsSince('b', rv - 1)?.length).toBe(2);
    t = 5 * 60_000 + 1;
    expect(store.eventsSince('b', rv - 1)).toBeUndefined();
    expect(store.eventsSince('b', rv)?.map((e) => e.object.metadata.name)).toEqual(['y']);
    t = 10 * 60_000;
    expect(store.eventsSince('b', rv)).toBeUndefined();
    expect(store.eventsSince('b', store.currentRv())).toEqual([]);
  });
});
