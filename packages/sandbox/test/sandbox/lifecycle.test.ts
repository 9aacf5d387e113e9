// Start-up time, clean shutdown (no file, socket or process left), the composed sandbox running a Job
// end to end, and the rayjob-sandbox CLI (up / down) as a real child process.
import { spawn, execFile } from 'node:child_process';
import { get as httpsGet } from 'node:https';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createKubeClient } from '@rayjob/kube-runtime';
import { describe, expect, it } from 'vitest';
import { startApiServer, startSandbox } from '../../src/index.ts';
import { eventually, http } from '../harness.ts';

const cli = join(import.meta.dirname, '..', '..', 'src', 'cli.ts');

const portOpen = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

describe('API server lifecycle', () => {
  // The bound is loose on purpose: CI shares 2 cores with other test files, and the point is "seconds, not
  // minutes"; the bench measures the start itself.
  it('starts within seconds and leaves no file or listening socket after stop', async () => {
    const started = performance.now();
    const server = await startApiServer();
    const took = performance.now() - started;
    expect(took).toBeLessThan(10_000);
    expect(existsSync(server.kubeconfigPath)).toBe(true);
    const watch = await fetch(`${server.url}/api/v1/pods?watch=true`);
    expect(watch.status).toBe(200);
    await server.stop();
    expect(existsSync(server.dir)).toBe(false);
    expect(await portOpen(server.port)).toBe(false);
  });
});

describe('startSandbox', () => {
  it('a folder the caller names is made if missing and kept after stop (--dir of the CLIs)', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'sandbox-dir-'));
    const dir = join(parent, 'not', 'there', 'yet');
    try {
      const sandbox = await startSandbox({ dir, node: { log: () => {} } });
      expect(existsSync(join(dir, 'kubeconfig'))).toBe(true);
      await sandbox.stop();
      expect(existsSync(dir)).toBe(true);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('composes the API server, node and Job controller: a Job runs a local program to completion', async () => {
    const sandbox = await startSandbox({ images: { node: { entrypoint: [process.execPath] } }, node: { log: () => {} } });
    try {
      expect(sandbox.node).toBeDefined();
      const job = await http(sandbox.apiServer, 'POST', '/apis/batch/v1/namespaces/default/jobs', {
        metadata: { name: 'hello' },
        spec: { backoffLimit: 0, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'node', args: ['-e', 'console.log("hello from a pod")'] }] } } },
      });
      expect(job.status).toBe(201);
      await eventually(async () => {
        const j = (await http(sandbox.apiServer, 'GET', '/apis/batch/v1/namespaces/default/jobs/hello')).body;
        return j.status?.conditions?.some((c: { type: string; status: string }) => c.type === 'Complete' && c.status === 'True');
      }, 15_000, 'job to complete');
      const pods = (await http(sandbox.apiServer, 'GET', '/api/v1/namespaces/default/pods?labelSelector=job-name%3Dhello')).body.items;
      const log = await http(sandbox.apiServer, 'GET', `/api/v1/namespaces/default/pods/${pods[0].metadata.name}/log`);
      expect(log.text).toBe('hello from a pod\n');
      // The log came from the kubelet's endpoint, which answers only clients with a certificate of the sandbox's CA.
      const port = sandbox.node?.kubelet.server?.port ?? 0;
      const anonymous = await new Promise<number>((resolve, reject) => {
        httpsGet({ host: sandbox.node?.network.gatewayIP, port, path: `/containerLogs/default/${pods[0].metadata.name}/main`, rejectUnauthorized: false }, (res) => { res.resume(); resolve(res.statusCode ?? 0); }).on('error', reject);
      });
      expect(anonymous).toBe(401);
      // The node did all this as a kubelet does: over TLS with its client certificate, as system:node:<name>.
      const asNode = await createKubeClient({ kubeconfigPath: join(sandbox.dir, 'kubelet.kubeconfig') });
      const review = await asNode.request<{ status: { userInfo: unknown } }>({ method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
      await asNode.close();
      expect(review.ok && review.value.status.userInfo).toEqual({ username: 'system:node:sandbox-node', groups: ['system:nodes', 'system:authenticated'] });
    } finally {
      await sandbox.stop();
    }
    expect(existsSync(sandbox.dir)).toBe(false);
  });
});

describe('rayjob-sandbox CLI', () => {
  // A node process loading the CLI's TypeScript takes seconds on a loaded 2-core machine shared with another test
  // file: the waits say "starts, not never".
  it('up prints the kubeconfig path and serves kubectl; down stops it and removes the folder', { timeout: 60_000 }, async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'sandbox-cli-')), 'state');
    const child = spawn(process.execPath, [cli, 'up', '--dir', dir, '--no-kubelet', '--no-job-controller'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      const kubeconfig = await eventually(() => (stdout.includes('\n') ? stdout.trim() : undefined), 30_000, 'kubeconfig path on stdout');
      expect(kubeconfig).toBe(join(dir, 'kubeconfig'));
      const out = await new Promise<string>((resolve) =>
        execFile('kubectl', ['get', 'namespaces', '-o', 'name'], { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir } }, (_e, so) => resolve(so)),
      );
      expect(out).toContain('namespace/default');
      const down = await new Promise<string>((resolve) => execFile(process.execPath, [cli, 'down', '--dir', dir], (_e, so) => resolve(so)));
      expect(down).toContain('stopped');
      expect(await exited).toBe(0);
      expect(existsSync(dir)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dirname(dir), { recursive: true, force: true });
    }
  });
});
