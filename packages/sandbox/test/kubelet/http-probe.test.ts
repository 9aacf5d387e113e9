// An httpGet probe is sent as the kubelet sends it: `User-Agent: kube-probe/<major>.<minor>`, `Accept: */*`,
// the probe's httpHeaders, and nothing a browser would send. Ray's dashboard agent answers 403 ("Browser
// requests not allowed") to any request with a Sec-Fetch-* or CORS header, so a probe sent by a browser-like
// client never passes against a real Ray head.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProbe } from '../../src/kubelet/probes.ts';

let server: Server;
let port: number;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    const browserLike = (req.headers['user-agent'] ?? '').startsWith('Mozilla') || Object.keys(req.headers).some((h) => h.startsWith('sec-fetch-') || h === 'origin' || h === 'referer');
    res.statusCode = req.url === '/redirect' ? 302 : req.url === '/fail' ? 500 : browserLike ? 403 : 200;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const target = () => ({ podIP: '127.0.0.1', env: {}, container: { name: 'main', ports: [{ name: 'http', containerPort: port }] }, pid: undefined, nsenterTool: 'nsenter' });

describe('httpGet probe', () => {
  it.each([
    { path: '/healthz', passes: true },
    { path: '/redirect', passes: true },
    { path: '/fail', passes: false },
  ])('GET $path passes: $passes', async ({ path, passes }) => {
    expect(await runProbe({ httpGet: { path, port: 'http' } }, target(), 2000)).toBe(passes);
  });

  it('sends the kubelet headers and nothing browser-like (Ray refuses browser requests)', async () => {
    seen.length = 0;
    expect(await runProbe({ httpGet: { path: '/healthz', port } }, target(), 2000)).toBe(true);
    expect(seen[0]?.['user-agent']).toMatch(/^kube-probe\/\d+\.\d+$/);
    expect(seen[0]?.accept).toBe('*/*');
    expect(Object.keys(seen[0] ?? {}).filter((h) => h.startsWith('sec-fetch-') || h === 'origin' || h === 'referer')).toEqual([]);
  });

  it("sends the probe's httpHeaders, which may replace the User-Agent", async () => {
    seen.length = 0;
    const headers = [{ name: 'X-Probe', value: 'ray' }, { name: 'User-Agent', value: 'custom' }];
    expect(await runProbe({ httpGet: { path: '/healthz', port, httpHeaders: headers } }, target(), 2000)).toBe(true);
    expect(seen[0]).toMatchObject({ 'x-probe': 'ray', 'user-agent': 'custom' });
  });

  it('fails when nothing answers within the timeout', async () => {
    const silent = createServer(() => { /* never answers */ });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    const started = Date.now();
    expect(await runProbe({ httpGet: { path: '/', port: silentPort } }, target(), 300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(10_000); // not hanging: loose for a loaded CI machine
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});
