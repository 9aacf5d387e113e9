import { createServer } from 'node:https';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKubeClient, createRuntimeMetrics, describeError, isAlreadyExists, isConflict, isNotFound, resources, type KubeObject } from '../src/index.ts';
import { makeTestPki } from './support/certs.ts';
import { eventually } from './support/eventually.ts';
import { configMap, startTestCluster, type TestCluster } from './support/sandbox.ts';

type ConfigMap = KubeObject & { data?: Record<string, string> };

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster();
});
afterAll(async () => {
  await cluster.stop();
});

describe('REST client against the sandbox API server', () => {
  it('creates, gets, lists, patches, replaces and deletes', async () => {
    const c = cluster.client;
    const created = await c.create<ConfigMap>(resources.configmaps, configMap('crud', { a: '1' }, { app: 'x' }));
    expect(created.ok && created.value.metadata.uid).toBeTruthy();
    const got = await c.get<ConfigMap>(resources.configmaps, { namespace: 'default', name: 'crud' });
    expect(got.ok && got.value.data).toEqual({ a: '1' });
    const listed = await c.list<ConfigMap>(resources.configmaps, { namespace: 'default', labelSelector: 'app=x' });
    expect(listed.ok && listed.value.items.map((i) => i.metadata.name)).toEqual(['crud']);
    const patched = await c.patch<ConfigMap>(resources.configmaps, { namespace: 'default', name: 'crud' }, { data: { b: '2' } });
    expect(patched.ok && patched.value.data).toEqual({ a: '1', b: '2' });
    const json = await c.patch<ConfigMap>(resources.configmaps, { namespace: 'default', name: 'crud' }, [{ op: 'remove', path: '/data/a' }], 'json');
    expect(json.ok && json.value.data).toEqual({ b: '2' });
    if (!json.ok) throw new Error();
    const replaced = await c.replace<ConfigMap>(resources.configmaps, { ...json.value, data: { c: '3' } });
    expect(replaced.ok && replaced.value.data).toEqual({ c: '3' });
    expect((await c.delete(resources.configmaps, { namespace: 'default', name: 'crud' })).ok).toBe(true);
    const gone = await c.get(resources.configmaps, { namespace: 'default', name: 'crud' });
    expect(!gone.ok && gone.error).toMatchObject({ status: 404, reason: 'NotFound', method: 'GET', path: '/api/v1/namespaces/default/configmaps/crud' });
  });

  it('returns API errors as typed values with status and reason', async () => {
    const c = cluster.client;
    await c.create(resources.configmaps, configMap('dup'));
    const dup = await c.create(resources.configmaps, configMap('dup'));
    if (dup.ok) throw new Error('expected AlreadyExists');
    expect([dup.error.status, dup.error.reason, isAlreadyExists(dup.error), isConflict(dup.error)]).toEqual([409, 'AlreadyExists', true, false]);
    const stale = await c.replace<ConfigMap>(resources.configmaps, { ...configMap('dup'), metadata: { name: 'dup', namespace: 'default', resourceVersion: '1' } });
    if (stale.ok) throw new Error('expected Conflict');
    expect([stale.error.status, stale.error.reason, isConflict(stale.error)]).toEqual([409, 'Conflict', true]);
    const missing = await c.patch(resources.configmaps, { namespace: 'default', name: 'nope' }, { data: {} });
    expect(!missing.ok && isNotFound(missing.error)).toBe(true);
    const invalid = await c.create(resources.configmaps, configMap('Not_A_Name'));
    expect(!invalid.ok && [invalid.error.status, invalid.error.reason]).toEqual([422, 'Invalid']);
  });

  it('waits out Retry-After on 429 and 503, then succeeds; gives the error back when retries run out', async () => {
    cluster.proxy.fail({ status: 429, count: 1, retryAfter: '1', match: /configmaps\/dup$/ });
    const started = Date.now();
    const ok = await cluster.client.get(resources.configmaps, { namespace: 'default', name: 'dup' });
    expect(ok.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    const impatient = await createKubeClient({ server: cluster.proxy.url }, { maxRetryAfterRetries: 0 });
    cluster.proxy.fail({ status: 503, count: 1, retryAfter: '7', match: /configmaps\/dup$/ });
    const throttled = await impatient.get(resources.configmaps, { namespace: 'default', name: 'dup' });
    expect(!throttled.ok && throttled.error).toMatchObject({ status: 503, retryAfterSeconds: 7 });
    await impatient.close();
  });

  it('rate-limits requests client-side with qps and burst', async () => {
    const limited = await createKubeClient({ server: cluster.proxy.url }, { qps: 20, burst: 2 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => limited.get(resources.namespaces, { name: 'default' })));
    // 2 at once, then one every 50 ms: the sixth leaves at about 200 ms.
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
    await limited.close();
  });

  it('counts every call in client-go\'s rest-client metrics: requests by code, method and host, latency, rate-limiter wait', async () => {
    const metrics = createRuntimeMetrics({ processMetrics: true });
    const c = await createKubeClient({ server: cluster.proxy.url }, { observer: metrics.rest, qps: 1000, burst: 1000 });
    const host = new URL(cluster.proxy.url).host;
    const value = async (name: string, labels: string): Promise<number> => {
      const line = (await metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
      return line === undefined ? 0 : Number(line.split(' ').at(-1));
    };
    for (let i = 0; i < 5; i++) await c.get(resources.namespaces, { name: 'default' });
    await c.get(resources.configmaps, { namespace: 'default', name: 'no-such-map' });
    await c.create(resources.configmaps, configMap('counted'));
    const stop = new AbortController();
    const watch = c.watch(resources.configmaps, { namespace: 'default', signal: stop.signal, onEvent: () => undefined });
    // The watch counts when its answer's headers arrive.
    await eventually(async () => (await value('rest_client_requests_total', `code="200",method="GET",host="${host}"`)) === 6);
    stop.abort();
    await watch;
    expect(await value('rest_client_requests_total', `code="404",method="GET",host="${host}"`)).toBe(1);
    expect(await value('rest_client_requests_total', `code="201",method="POST",host="${host}"`)).toBe(1);
    expect(await value('rest_client_request_duration_seconds_count', `verb="GET",host="${host}"`)).toBe(7);
    expect(await value('rest_client_rate_limiter_duration_seconds_count', `verb="POST",host="${host}"`)).toBe(1);
    const dead = await createKubeClient({ server: 'http://127.0.0.1:1' }, { observer: metrics.rest });
    await dead.get(resources.pods, { namespace: 'default', name: 'x' });
    expect(await value('rest_client_requests_total', 'code="<error>",method="GET",host="127.0.0.1:1"')).toBe(1);
    // prom-client's process metrics: what the operator's memory and CPU are.
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
    await Promise.all([c.close(), dead.close()]);
  });

  it('withSignal: a call in flight is cancelled when the signal aborts, and a later one never reaches the server', async () => {
    const scope = new AbortController();
    const fenced = cluster.client.withSignal(scope.signal);
    const watch = fenced.watch(resources.configmaps, { namespace: 'default', signal: new AbortController().signal, onEvent: () => undefined });
    await eventually(() => cluster.proxy.requests.some((r) => r.startsWith('GET') && r.includes('watch=true')));
    scope.abort();
    expect(await watch).toEqual({ ok: true, value: 'ended' });
    const before = cluster.proxy.requests.length;
    const write = await fenced.create(resources.configmaps, configMap('after-abort'));
    expect(!write.ok && write.error).toMatchObject({ status: 0, reason: 'Aborted' });
    expect(cluster.proxy.requests.length).toBe(before);
    // The client it came from is not affected.
    expect((await cluster.client.get(resources.namespaces, { name: 'default' })).ok).toBe(true);
  });

  it('close() ends within seconds even with a watch nobody aborted (a stopping operator must not hang until SIGKILL)', async () => {
    const c = await createKubeClient({ server: cluster.proxy.url });
    const watch = c.watch(resources.configmaps, { namespace: 'default', signal: new AbortController().signal, onEvent: () => undefined });
    // An ordinary request on the same client after the watch was sent: the watch's connection is in use by then.
    expect((await c.get(resources.namespaces, { name: 'default' })).ok).toBe(true);
    const started = Date.now();
    await c.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    await watch; // settles (ended or an error), rather than hanging
  });

  it('reports a refused connection as status 0 ConnectionError, not a throw', async () => {
    const dead = await createKubeClient({ server: 'http://127.0.0.1:1' });
    const r = await dead.get(resources.pods, { namespace: 'default', name: 'x' });
    expect(!r.ok && [r.error.status, r.error.reason]).toEqual([0, 'ConnectionError']);
    await dead.close();
  });
});

describe('authentication and TLS from a kubeconfig', () => {
  const pki = makeTestPki();
  const dir = mkdtempSync(join(tmpdir(), 'kube-runtime-kc-'));
  const seen: Array<{ cn: string | undefined; authorization: string | undefined }> = [];
  const server = createServer({ cert: pki.serverCert, key: pki.serverKey, ca: pki.ca, requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const peer = (req.socket as import('node:tls').TLSSocket).getPeerCertificate();
    const cn = peer?.subject?.CN;
    seen.push({ cn: Array.isArray(cn) ? cn[0] : cn, authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }));
  });
  let url = '';
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const kubeconfig = (user: Record<string, string>, cluster: Record<string, unknown>) => {
    const path = join(dir, `kc-${seen.length}-${Math.random()}`);
    writeFileSync(path, JSON.stringify({
      apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
      clusters: [{ name: 'c', cluster: { server: url, ...cluster } }],
      users: [{ name: 'u', user }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
    }));
    return path;
  };

  it('presents the client certificate and verifies the server against the CA', async () => {
    const c = await createKubeClient({ kubeconfigPath: kubeconfig({ 'client-certificate-data': b64(pki.clientCert), 'client-key-data': b64(pki.clientKey) }, { 'certificate-authority-data': b64(pki.ca) }) });
    const r = await c.get(resources.namespaces, { name: 'default' });
    expect(r.ok).toBe(true);
    expect(seen.at(-1)).toEqual({ cn: 'alice', authorization: undefined });
    await c.close();
  });

  it('sends the bearer token, and rejects a server its CA did not sign', async () => {
    const c = await createKubeClient({ kubeconfigPath: kubeconfig({ token: 's3cret' }, { 'certificate-authority-data': b64(pki.ca) }) });
    expect((await c.get(resources.namespaces, { name: 'default' })).ok).toBe(true);
    expect(seen.at(-1)?.authorization).toBe('Bearer s3cret');
    await c.close();
    const other = makeTestPki();
    const untrusting = await createKubeClient({ server: url, token: 's3cret', ca: other.ca });
    const r = await untrusting.get(resources.namespaces, { name: 'default' });
    if (r.ok) throw new Error('expected a TLS failure');
    expect(r.error.status).toBe(0);
    expect(describeError(r.error)).not.toContain('s3cret');
    await untrusting.close();
  });

  it('accepts {server, token, ca, cert, key} options without a kubeconfig', async () => {
    const c = await createKubeClient({ server: url, token: 't', ca: pki.ca, cert: pki.clientCert, key: pki.clientKey });
    expect((await c.get(resources.namespaces, { name: 'default' })).ok).toBe(true);
    expect(seen.at(-1)).toEqual({ cn: 'alice', authorization: 'Bearer t' });
    await c.close();
  });
});
