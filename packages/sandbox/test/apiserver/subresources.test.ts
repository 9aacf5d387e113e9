// Pod and service subresources: binding, eviction (DisruptionTarget then delete), graceful vs force
// deletion, logs (an unscheduled pod), and the service/pod proxy to a real HTTP server on a loopback pod IP.
import { createServer, type Server } from 'node:http';
import WebSocket, { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, readWatch, startHarness, type Harness } from '../harness.ts';

let h: Harness;
let upstream: Server;
let upstreamPort = 0;
beforeAll(async () => {
  h = await startHarness();
  upstream = createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'X-Seen-Path': req.url ?? '' });
    res.end(`hello from ${req.method} ${req.url}`);
  });
  // A WebSocket endpoint on the same server (as Ray's log tail): says the path it saw, then closes 1000.
  const sockets = new WebSocketServer({ noServer: true });
  upstream.on('upgrade', (req, socket, head) => sockets.handleUpgrade(req, socket, head, (ws) => { ws.send(`tail of ${req.url}`); ws.close(1000, 'job ended'); }));
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  const addr = upstream.address();
  upstreamPort = typeof addr === 'object' && addr ? addr.port : 0;
});
afterAll(async () => {
  await h.stop();
  await new Promise<void>((r) => upstream.close(() => r()));
});

const pods = '/api/v1/namespaces/default/pods';
const mkPod = (name: string, extra: Record<string, unknown> = {}) =>
  http(h.server, 'POST', pods, { metadata: { name, labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'x', ports: [{ name: 'http', containerPort: upstreamPort }] }], ...extra } });
const setStatus = (name: string, status: Record<string, unknown>) => http(h.server, 'PATCH', `${pods}/${name}/status`, { status }, 'application/merge-patch+json');

describe('pods/binding', () => {
  it('sets spec.nodeName and PodScheduled; a second binding conflicts', async () => {
    await mkPod('bound');
    const res = await http(h.server, 'POST', `${pods}/bound/binding`, { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'bound' }, target: { kind: 'Node', name: 'node-a' } });
    expect(res.status).toBe(201);
    const pod = (await http(h.server, 'GET', `${pods}/bound`)).body;
    expect(pod.spec.nodeName).toBe('node-a');
    expect(pod.status.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'True' })]);
    const again = await http(h.server, 'POST', `${pods}/bound/binding`, { target: { kind: 'Node', name: 'node-b' } });
    expect(again.status).toBe(409);
  });
});

describe('pods/eviction', () => {
  it('marks DisruptionTarget, then deletes the pod', async () => {
    await mkPod('evicted');
    const rv = String(h.server.store.currentRv());
    const watching = readWatch(h.server, `${pods}?watch=true&fieldSelector=metadata.name%3Devicted&resourceVersion=${rv}`, (e) => e.some((x) => x.type === 'DELETED'));
    const res = await http(h.server, 'POST', `${pods}/evicted/eviction`, { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'evicted' } });
    expect(res.status).toBe(201);
    const { events } = await watching;
    expect(events.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
    expect(events[0]?.object.status.conditions).toEqual([expect.objectContaining({ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' })]);
  });
});

describe('pod deletion', () => {
  it.each([
    ['without a kubelet, deletion is immediate', false, undefined, 404],
    ['with a kubelet, a scheduled pod gets deletionTimestamp + grace period', true, undefined, 200],
    ['with a kubelet, gracePeriodSeconds=0 removes at once', true, 0, 404],
  ])('%s', async (_what, graceful, grace, after) => {
    h.server.setPodGracefulDeletion(graceful);
    const name = `del-${String(graceful)}-${String(grace)}`;
    await mkPod(name, { nodeName: 'node-a', terminationGracePeriodSeconds: 7 });
    await setStatus(name, { phase: 'Running' });
    const res = await http(h.server, 'DELETE', `${pods}/${name}${grace === undefined ? '' : `?gracePeriodSeconds=${grace}`}`);
    const now = await http(h.server, 'GET', `${pods}/${name}`);
    expect(now.status).toBe(after);
    if (after === 200) {
      expect(res.status).toBe(202);
      expect(now.body.metadata.deletionGracePeriodSeconds).toBe(7);
      expect(Date.parse(now.body.metadata.deletionTimestamp)).toBeGreaterThan(Date.now());
      expect((await h.kubectl(['get', 'pod', name])).stdout).toMatch(/Terminating/);
    }
    h.server.setPodGracefulDeletion(false);
  });
});

describe('pods/log', () => {
  // Following a running container's log is the kubelet's job (test/kubelet/restarts-and-logs.test.ts, through
  // kubectl); what the API server decides itself is that an unscheduled pod has no kubelet to ask.
  it('an unscheduled pod has no logs yet: 400, waiting to start', async () => {
    await mkPod('unscheduled');
    const res = await http(h.server, 'GET', `${pods}/unscheduled/log?follow=true`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('container "main" in pod "unscheduled" is waiting to start: ContainerCreating');
  });

  it('asks for a container name when the pod has several', async () => {
    await http(h.server, 'POST', pods, { metadata: { name: 'two' }, spec: { containers: [{ name: 'a', image: 'x' }, { name: 'b', image: 'x' }] } });
    const res = await http(h.server, 'GET', `${pods}/two/log`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('a container name must be specified for pod two, choose one of: [a b]');
  });
});

describe('proxy', () => {
  beforeAll(async () => {
    await mkPod('web');
    await setStatus('web', { phase: 'Running', podIP: '127.0.0.1' });
    await http(h.server, 'POST', '/api/v1/namespaces/default/services', { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 'http' }] } });
  });

  it.each([
    ['services/web:http/proxy', '/api/v1/namespaces/default/services/web:http/proxy/api/jobs/?x=1', '/api/jobs/?x=1'],
    ['services/web/proxy (first port)', '/api/v1/namespaces/default/services/web/proxy/version', '/version'],
    ['pods/web:port/proxy', `/api/v1/namespaces/default/pods/web:${'PORT'}/proxy/healthz`, '/healthz'],
  ])('%s reaches the pod IP and target port', async (_what, path, seen) => {
    const res = await http(h.server, 'GET', path.replace('PORT', String(upstreamPort)));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-seen-path')).toBe(seen);
    expect(res.text).toBe(`hello from GET ${seen}`);
  });

  /** Opens a WebSocket through the API server; its first message and close code, or the refusal's status. */
  const tail = (path: string) =>
    new Promise<{ message?: string; code?: number; refused?: number }>((resolve) => {
      const ws = new WebSocket(`${h.server.url.replace(/^http/, 'ws')}${path}`);
      let message: string | undefined;
      ws.on('message', (data) => { message = String(data); });
      ws.on('close', (code) => resolve({ ...(message !== undefined && { message }), code }));
      ws.on('unexpected-response', (_req, res) => { resolve({ refused: res.statusCode ?? 0 }); res.resume(); });
      ws.on('error', () => undefined);
    });

  it.each([
    ['services/web:http/proxy', '/api/v1/namespaces/default/services/web:http/proxy/api/jobs/j1/logs/tail', '/api/jobs/j1/logs/tail'],
    ['pods/web:port/proxy', `/api/v1/namespaces/default/pods/web:PORT/proxy/ws?x=1`, '/ws?x=1'],
  ])('a WebSocket through %s reaches the pod (kube-apiserver proxies upgrades)', async (_what, path, seen) => {
    const answer = await tail(path.replace('PORT', String(upstreamPort)));
    expect(answer).toEqual({ message: `tail of ${seen}`, code: 1000 });
  });

  it('a WebSocket to a service without a running pod is refused with 503', async () => {
    await http(h.server, 'POST', '/api/v1/namespaces/default/services', { metadata: { name: 'nobody' }, spec: { selector: { app: 'none' }, ports: [{ port: 80 }] } });
    expect(await tail('/api/v1/namespaces/default/services/nobody/proxy/')).toEqual({ refused: 503 });
  });

  it('is 503 when no running pod backs the service', async () => {
    await http(h.server, 'POST', '/api/v1/namespaces/default/services', { metadata: { name: 'empty' }, spec: { selector: { app: 'none' }, ports: [{ port: 80 }] } });
    const res = await http(h.server, 'GET', '/api/v1/namespaces/default/services/empty/proxy/');
    expect(res.status).toBe(503);
    expect(res.body.message).toBe('no endpoints available for service "empty"');
  });
});
