// The audit log (level Request): one event per request when it completes, naming who asked (also on a 403), the
// RBAC verb and object the request resolved to, the answer's code and the body of a write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer, type AuditEvent } from '../../src/index.ts';

let server: ApiServer;
const events: AuditEvent[] = [];
beforeAll(async () => {
  server = await startApiServer({ audit: (e) => events.push(e) });
});
afterAll(async () => {
  await server.stop();
});

const call = async (method: string, path: string, body?: unknown, token?: string): Promise<number> => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'user-agent': 'audit-test/1', ...(body !== undefined && { 'content-type': 'application/json' }), ...(token !== undefined && { authorization: `Bearer ${token}` }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  await res.arrayBuffer();
  return res.status;
};
const eventFor = (uri: string, method: string): Promise<AuditEvent> => new Promise((resolve, reject) => {
  const deadline = Date.now() + 5_000;
  const look = (): void => {
    const found = events.find((e) => e.requestURI === uri && e.verb === method);
    if (found) resolve(found);
    else if (Date.now() > deadline) reject(new Error(`no audit event for ${method} ${uri}`));
    else setTimeout(look, 10);
  };
  look();
});

describe('audit log', () => {
  it('records a create with its user, verb, object, code and body', async () => {
    const cm = { metadata: { name: 'c1' }, data: { a: 'b' } };
    expect(await call('POST', '/api/v1/namespaces/default/configmaps', cm)).toBe(201);
    const e = await eventFor('/api/v1/namespaces/default/configmaps', 'create');
    expect(e).toMatchObject({
      kind: 'Event', apiVersion: 'audit.k8s.io/v1', stage: 'ResponseComplete', userAgent: 'audit-test/1',
      user: { username: 'kubernetes-admin' }, objectRef: { resource: 'configmaps', apiGroup: '', namespace: 'default' },
      responseStatus: { code: 201 }, requestObject: cm,
    });
  });

  it('records a denied request with the ServiceAccount that made it and the 403', async () => {
    expect(await call('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'bot' } })).toBe(201);
    const { token } = server.mintServiceAccountToken({ namespace: 'default', name: 'bot', audiences: [], expirationSeconds: 3600 });
    expect(await call('PUT', '/apis/ray.io/v1/namespaces/default/rayjobs/x/status', {}, token)).toBe(403);
    const e = await eventFor('/apis/ray.io/v1/namespaces/default/rayjobs/x/status', 'update');
    expect(e.user?.username).toBe('system:serviceaccount:default:bot');
    expect(e.objectRef).toEqual({ resource: 'rayjobs', subresource: 'status', apiGroup: 'ray.io', namespace: 'default', name: 'x' });
    expect(e.responseStatus.code).toBe(403);
  });

  it('records a watch (when its stream ends) and a cluster-scoped list', async () => {
    const aborted = new AbortController();
    const res = await fetch(`${server.url}/api/v1/pods?watch=true`, { signal: aborted.signal });
    expect(res.status).toBe(200);
    aborted.abort();
    const watch = await eventFor('/api/v1/pods?watch=true', 'watch');
    expect(watch.objectRef).toEqual({ resource: 'pods', apiGroup: '' });
    expect(await call('GET', '/api/v1/nodes')).toBe(200);
    expect((await eventFor('/api/v1/nodes', 'list')).objectRef).toEqual({ resource: 'nodes', apiGroup: '' });
  });
});
