// `kubectl exec` against the composed sandbox as against a 1.32 cluster: RBAC decides upgrades like any request
// (a WebSocket exec is a GET, so `get` on pods/exec; kubectl then falls back to SPDY, a POST, so `create`), on the
// HTTP and the HTTPS port, with kube-apiserver's 403 text. `kubectl port-forward` (SPDY tunnelled in a WebSocket, or
// plain SPDY) through the same upgrade path.
import { execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/index.ts';
import { createKubeClient, resources } from '@rayjob/kube-runtime';
import type { Pod } from '../../src/kube-objects/types.ts';
import { testImages, waitFor } from '../kubelet/harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

let sandbox: Sandbox;
let token = '';

type Run = { code: number; stdout: string; stderr: string };
const kubectl = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}): Promise<Run> =>
  new Promise((resolve) => {
    const env = { ...process.env, KUBECONFIG: sandbox.kubeconfigPath, HOME: sandbox.dir, ...options.env };
    const child = execFile('kubectl', args, { timeout: 30_000, env }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }));
    if (options.stdin !== undefined) child.stdin?.end(options.stdin);
  });
// Bearer tokens go over TLS only: the HTTPS port, verified with its CA.
const asBot = (args: string[], env?: Record<string, string>): Promise<Run> =>
  kubectl([`--server=${sandbox.apiServer.https?.url ?? ''}`, `--certificate-authority=${sandbox.apiServer.https?.caPath ?? ''}`, `--token=${token}`, ...args], { ...(env && { env }) });

beforeAll(async () => {
  sandbox = await startSandbox({ images: testImages, node: { log: () => {} } });
  const client = await createKubeClient({ server: sandbox.url });
  const created = await client.create<Pod>(resources.pods, {
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'shell' },
    spec: { containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'exec sleep 600'] }] },
  }, { namespace: 'default' });
  expect(created.ok).toBe(true);
  await waitFor('pod running', async () => {
    const got = await client.get<Pod>(resources.pods, { namespace: 'default', name: 'shell' });
    return got.ok && got.value.status?.phase === 'Running' ? true : undefined;
  }, 40_000);
  await client.close();
  expect((await kubectl(['create', 'serviceaccount', 'bot'])).stderr).toBe('');
  token = (await kubectl(['create', 'token', 'bot', '--duration=1h'])).stdout.trim();
});
afterAll(async () => { await sandbox?.stop(); });

describe('exec is authorized like any request', () => {
  it('a ServiceAccount without a binding gets 403 with kube-apiserver\'s message (kubectl reads the pod first)', async () => {
    const out = await asBot(['exec', 'shell', '--', 'true']);
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain('Error from server (Forbidden): pods "shell" is forbidden: User "system:serviceaccount:default:bot" cannot get resource "pods" in API group "" in the namespace "default"');
  });

  it('one that may read pods but not exec gets 403 for create on pods/exec (the SPDY fallback\'s verb)', async () => {
    expect((await kubectl(['create', 'role', 'pod-reader', '--verb=get', '--resource=pods'])).stderr).toBe('');
    expect((await kubectl(['create', 'rolebinding', 'bot-reads-pods', '--role=pod-reader', '--serviceaccount=default:bot'])).stderr).toBe('');
    const out = await asBot(['exec', 'shell', '--', 'true']);
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain('Error from server (Forbidden): pods "shell" is forbidden: User "system:serviceaccount:default:bot" cannot create resource "pods/exec" in API group "" in the namespace "default"');
    expect((await asBot(['logs', 'shell'])).stderr).toContain('pods "shell" is forbidden: User "system:serviceaccount:default:bot" cannot get resource "pods/log" in API group "" in the namespace "default"');
  });

  it('an upgrade is authorized by its method: GET (WebSocket) needs get, POST (SPDY) create, on both ports', async () => {
    const https = sandbox.apiServer.https;
    for (const [port, tls] of [[sandbox.apiServer.port, false], [https?.port ?? 0, true]] as const) {
      const ws = await upgrade({ port, tls, method: 'GET', upgrade: 'websocket', token });
      expect(ws.status).toBe(403);
      expect(ws.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403, message: 'pods "shell" is forbidden: User "system:serviceaccount:default:bot" cannot get resource "pods/exec" in API group "" in the namespace "default"' });
      const spdy = await upgrade({ port, tls, method: 'POST', upgrade: 'SPDY/3.1', token });
      expect(spdy.status).toBe(403);
      expect(spdy.body).toMatchObject({ message: expect.stringContaining('cannot create resource "pods/exec"') });
      expect((await upgrade({ port, tls, method: 'GET', upgrade: 'websocket', token: 'not-a-token' })).status).toBe(401);
    }
  });

  it('a Role granting get on pods/exec lets the WebSocket exec through (stdout, exit code)', async () => {
    expect((await kubectl(['create', 'role', 'exec-get', '--verb=get', '--resource=pods/exec'])).stderr).toBe('');
    expect((await kubectl(['create', 'rolebinding', 'bot-exec-get', '--role=exec-get', '--serviceaccount=default:bot'])).stderr).toBe('');
    const out = await asBot(['exec', 'shell', '--', 'sh', '-c', 'echo via websocket; exit 4']);
    expect(out).toMatchObject({ code: 4, stdout: 'via websocket\n' });
    expect((await kubectl(['delete', 'rolebinding', 'bot-exec-get'])).stderr).toBe('');
  });
});

const spdyOnly = { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' };

describe('kubectl exec over SPDY/3.1 (KUBECTL_REMOTE_COMMAND_WEBSOCKETS=false), proxied to the kubelet', () => {
  it('streams stdout and stderr apart and answers the exit code', async () => {
    const out = await kubectl(['exec', 'shell', '--', 'sh', '-c', 'echo to-stdout; echo to-stderr >&2; exit 3'], { env: spdyOnly });
    expect(out.stdout).toBe('to-stdout\n');
    expect(out.stderr).toContain('to-stderr\n');
    expect(out.stderr).toContain('command terminated with exit code 3');
    expect(out.code).toBe(3);
    expect(await kubectl(['exec', 'shell', '--', 'true'], { env: spdyOnly })).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('passes stdin with -i, to its end', async () => {
    const text = `${'a line of stdin\n'.repeat(5000)}last\n`;
    const out = await kubectl(['exec', '-i', 'shell', '--', 'sh', '-c', 'wc -l; echo done'], { env: spdyOnly, stdin: text });
    expect(out).toMatchObject({ code: 0, stdout: '5001\ndone\n' });
  });

  it('carries large output whole (many frames)', async () => {
    const out = await kubectl(['exec', 'shell', '--', 'sh', '-c', 'i=0; while [ $i -lt 20000 ]; do echo "line $i of the output"; i=$((i+1)); done'], { env: spdyOnly });
    expect(out.code).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(20000);
    expect(lines.at(-1)).toBe('line 19999 of the output');
  });

  it('answers like kube-apiserver for an unknown command', async () => {
    const out = await kubectl(['exec', 'shell', '--', 'no-such-program'], { env: spdyOnly });
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain('executable file not found in $PATH');
  });

  it('a Role granting only create on pods/exec works: kubectl\'s WebSocket GET is refused, its SPDY fallback passes', async () => {
    expect((await kubectl(['create', 'role', 'exec-create', '--verb=create', '--resource=pods/exec'])).stderr).toBe('');
    expect((await kubectl(['create', 'rolebinding', 'bot-exec-create', '--role=exec-create', '--serviceaccount=default:bot'])).stderr).toBe('');
    const out = await asBot(['exec', 'shell', '--', 'sh', '-c', 'echo via the fallback; exit 5']);
    expect(out).toMatchObject({ code: 5, stdout: 'via the fallback\n' });
  });
});

const webServer = `require('node:http').createServer((req, res) => {
  let body = ''; req.on('data', (c) => { body += c; });
  req.on('end', () => res.end('pod answers ' + req.method + ' ' + req.url + ' ' + body));
}).listen(8080, '0.0.0.0');`;

/** Runs `kubectl port-forward pod/web :8080` until `use` is done; hands over the local port. */
async function withPortForward(env: Record<string, string>, use: (port: number, output: () => string) => Promise<void>): Promise<void> {
  // -v=4: client-go says which dialer it ended up with.
  const child = spawn('kubectl', ['port-forward', 'pod/web', ':8080', '-v=4'], { env: { ...process.env, KUBECONFIG: sandbox.kubeconfigPath, HOME: sandbox.dir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const port = await waitFor(`kubectl port-forward to listen (output so far: ${output})`, () => {
      const match = /Forwarding from 127\.0\.0\.1:(\d+) -> 8080/.exec(output);
      return match ? Number(match[1]) : undefined;
    }, 20_000);
    await use(port, () => output);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

describe('kubectl port-forward', () => {
  beforeAll(async () => {
    const client = await createKubeClient({ server: sandbox.url });
    const created = await client.create<Pod>(resources.pods, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' },
      // Ready, not just Running: kubectl 1.32's port-forward exits on the first connection the pod refuses, so the
      // tests may only connect once the server listens (node starts slowly on a loaded machine).
      spec: { containers: [{ name: 'main', image: 'node', args: ['-e', webServer], readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 1 } }] },
    }, { namespace: 'default' });
    expect(created.ok).toBe(true);
    await waitFor('web pod ready', async () => {
      const got = await client.get<Pod>(resources.pods, { namespace: 'default', name: 'web' });
      return got.ok && got.value.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? true : undefined;
    }, 60_000);
  });

  for (const [how, env] of [['SPDY tunnelled in a WebSocket (kubectl 1.32\'s default)', {}], ['plain SPDY (KUBECTL_PORT_FORWARD_WEBSOCKETS=false)', { KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' }]] as const) {
    it(`relays connections to the pod's port over ${how}`, async () => {
      await withPortForward(env, async (port, output) => {
        const answer = await waitFor('the pod to answer', async () => {
          const res = await fetch(`http://127.0.0.1:${port}/first`).catch(() => undefined);
          return res?.ok === true ? res.text() : undefined;
        });
        expect(answer).toBe('pod answers GET /first ');
        // A second connection, with a body both ways.
        const second = await fetch(`http://127.0.0.1:${port}/second`, { method: 'POST', body: 'x'.repeat(100_000), headers: { connection: 'close' } });
        expect(await second.text()).toBe(`pod answers POST /second ${'x'.repeat(100_000)}`);
        if ('KUBECTL_PORT_FORWARD_WEBSOCKETS' in env) expect(output()).not.toContain('negotiated protocol');
        else {
          expect(output()).toContain('negotiated protocol: portforward.k8s.io');
          expect(output()).not.toContain('fallback to secondary dialer');
        }
      });
    });
  }
});

/** A raw upgrade request (what kubectl sends first), answered before any switch of protocol when refused. */
function upgrade(options: { port: number; tls: boolean; method: string; upgrade: string; token: string }): Promise<{ status: number; body: unknown }> {
  const request = options.tls ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port: options.port, method: options.method, path: '/api/v1/namespaces/default/pods/shell/exec?command=true&stdout=true',
      ...(options.tls && { ca: readFileSync(sandbox.apiServer.https?.caPath ?? '') }),
      headers: {
        authorization: `Bearer ${options.token}`, connection: 'Upgrade', upgrade: options.upgrade,
        ...(options.upgrade === 'websocket'
          ? { 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-protocol': 'v5.channel.k8s.io' }
          : { 'x-stream-protocol-version': 'v4.channel.k8s.io' }),
      },
    });
    req.on('upgrade', (_res, socket) => { socket.destroy(); reject(new Error('the upgrade was accepted')); });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => { text += chunk.toString(); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end();
  });
}
