import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createRayClient } from '../src/index.ts';
import { client, deadPort, emulator, rawServer, untilStatus } from './support/fixtures.ts';

const canary = 'CANARY-7f3a9c2e-token-must-never-leak';

describe('token auth', () => {
  it('sends X-Ray-Authorization on every HTTP call and on the WebSocket upgrade', async () => {
    const e = await emulator({ authToken: canary });
    const c = client({ address: e.url, token: canary });
    expect((await c.submit({ entrypoint: 'echo hi', submission_id: 'a1' })).kind).toBe('ok');
    await untilStatus(c, 'a1', 'SUCCEEDED');
    const chunks: string[] = [];
    expect(await c.tailLogs('a1', { onChunk: (x) => chunks.push(x) })).toMatchObject({ kind: 'closed', code: 1000 });
    expect(chunks.join('')).toContain('hi\n');
    expect((await c.nodeLiveness('x')).kind).toBe('missing');
    expect(e.requests().length).toBeGreaterThanOrEqual(4);
    for (const r of e.requests()) expect(r.headers['x-ray-authorization']).toBe(`Bearer ${canary}`);
  });

  it('gets 401 on the WebSocket upgrade without a token', async () => {
    const e = await emulator({ authToken: canary });
    const withToken = client({ address: e.url, token: canary });
    await withToken.submit({ entrypoint: 'true', submission_id: 'a2' });
    const result = await client({ address: e.url }).tailLogs('a2', { onChunk: () => undefined });
    expect(result).toEqual({ kind: 'rejected', status: 401, message: 'HTTP 401: Unauthorized: Missing authentication token' });
  });
});

describe('the token never leaks', () => {
  it('is absent from every result, whatever goes wrong', async () => {
    const e = await emulator({ authToken: 'other' });
    const port = await deadPort();
    const echo = await rawServer((req, res) => {
      res.statusCode = 500;
      res.end(`echoing headers: ${JSON.stringify(req.headers)}`); // a hostile server echoing the token back
    });
    const results: unknown[] = [];
    for (const address of [e.url, `http://127.0.0.1:${port}`, echo.url]) {
      const c = client({ address, token: canary, apiServerAuthorization: `Bearer ${canary}-k8s`, headers: { 'X-Extra': `${canary}-hdr` } });
      results.push(
        await c.getVersion(), await c.getJob('x'), await c.listJobs(), await c.stopJob('x'), await c.deleteJob('x'),
        await c.getLogs('x'), await c.gcsHealth(), await c.nodeLiveness('x'),
        await c.submit({ entrypoint: 'true' }), await c.tailLogs('x', { onChunk: () => undefined }),
      );
    }
    const text = JSON.stringify(results);
    expect(text).toContain('[redacted]'); // the echo server's body was redacted, not dropped
    expect(text).not.toContain(canary);
  });

  it('is absent from the error thrown for bad options', () => {
    expect(() => createRayClient({ address: 'ftp://x', token: canary })).toThrow(/scheme "ftp:"/);
    for (const options of [
      { address: 'ftp://x', token: canary },
      { address: '', token: canary },
      { address: 'http://x', token: `${canary}\n` },
      { address: 'http://x', headers: { Referer: canary } },
    ]) {
      try {
        createRayClient(options);
        expect.unreachable('options should be refused');
      } catch (error) {
        expect(String(error)).not.toContain(canary);
      }
    }
  });
});

describe('Kubernetes API server service proxy', () => {
  it('reaches the dashboard under the proxy path, API-server auth in Authorization, Ray\'s in X-Ray-Authorization', async () => {
    const e = await emulator({ authToken: canary });
    const prefix = '/api/v1/namespaces/ns1/services/head-svc:dashboard/proxy';
    const seenAuth = new Set<string>();
    // A stand-in for the API server: checks its own credential, strips the prefix, forwards HTTP and upgrades.
    const apiServer = await rawServer((req, res) => {
      seenAuth.add(String(req.headers.authorization));
      if (req.headers.authorization !== 'Bearer sa-token' || !req.url?.startsWith(prefix)) {
        res.statusCode = 403;
        res.end('forbidden by api server');
        return;
      }
      const headers = { ...req.headers };
      delete headers.authorization;
      const upstream = httpRequest(`${e.url}${req.url.slice(prefix.length)}`, { method: req.method, headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    apiServer.server.on('upgrade', (req, socket, head) => {
      const headers = Object.entries(req.headers)
        .filter(([k]) => k !== 'authorization')
        .map(([k, v]) => `${k}: ${String(v)}`)
        .join('\r\n');
      const upstream = connect(e.port, '127.0.0.1', () => {
        upstream.write(`GET ${String(req.url).slice(prefix.length)} HTTP/1.1\r\n${headers}\r\n\r\n`);
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    const c = client({ address: `${apiServer.url}${prefix}/`, apiServerAuthorization: 'Bearer sa-token', token: canary });
    expect(c.baseUrl).toBe(`${apiServer.url}${prefix}`);
    expect((await c.submit({ entrypoint: 'echo via-proxy', submission_id: 'p1' })).kind).toBe('ok');
    await untilStatus(c, 'p1', 'SUCCEEDED');
    const chunks: string[] = [];
    expect(await c.tailLogs('p1', { onChunk: (x) => chunks.push(x) })).toMatchObject({ kind: 'closed', code: 1000 });
    expect(chunks.join('')).toContain('via-proxy\n');
    expect([...seenAuth]).toEqual(['Bearer sa-token']);
  });
});
