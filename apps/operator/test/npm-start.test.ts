// `npm start` (README command one): the sandbox comes up with the CRDs installed and the operator running in
// it, prints the kubeconfig; a newcomer's first kubectl commands work (issue 12's Done-when: a busybox Job's
// logs, explain, auth can-i, exec, --image), `kubectl apply` of a RayJob reaches the operator; SIGTERM stops it all.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from './support/sandbox-images.ts';
import { eventually, giveUp } from './support/api.ts';

const dir = mkdtempSync(join(tmpdir(), 'rayjob-up-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const kubectl = (kubeconfig: string, args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: dir, KUBECACHEDIR: join(dir, 'cache') }, timeout: 20_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }));
    if (stdin !== undefined) child.stdin?.end(stdin);
  });

const invalidRayJob = `apiVersion: ray.io/v1
kind: RayJob
metadata:
  name: from-kubectl
spec:
  suspend: true
  entrypoint: echo hi
  rayClusterSpec:
    headGroupSpec:
      rayStartParams: {}
      template:
        spec:
          containers:
          - name: ray-head
            image: rayproject/ray:2.58.0
`;

const validRayJob = `apiVersion: ray.io/v1
kind: RayJob
metadata:
  name: sample
spec:
  entrypoint: echo hello from ray
  shutdownAfterJobFinishes: true
  rayClusterSpec:
    rayVersion: '2.58.0'
    headGroupSpec:
      rayStartParams: {}
      template:
        spec:
          containers:
          - name: ray-head
            image: rayproject/ray:2.58.0
`;

let child: ChildProcess;
let exited: Promise<number | null>;
let kubeconfig: string;
let stderr = '';
beforeAll(async () => {
  child = spawn(process.execPath, [repoPath('e2e/src/start/up.ts'), '--dir', join(dir, 'sandbox'), '--image', 'myorg/greeter=/bin/echo hello from a flag'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  kubeconfig = await eventually('the kubeconfig path on stdout', () => stdout.split('\n').find((l) => l.endsWith('/kubeconfig')), 60_000);
}, 90_000);
afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('npm start', { timeout: 200_000 }, () => {
  it("a newcomer's first minutes: a busybox Job's logs, explain, auth can-i per RBAC, exec, --image", async () => {
    expect((await kubectl(kubeconfig, ['create', 'job', 'hello', '--image=busybox', '--', 'sh', '-c', 'echo hi'])).stderr).toBe('');
    expect((await kubectl(kubeconfig, ['run', 'sleeper', '--image=busybox', '--', 'sleep', '600'])).stderr).toBe('');
    expect((await kubectl(kubeconfig, ['run', 'greeter', '--image=myorg/greeter:v2', '--restart=Never'])).stderr).toBe('');
    await eventually('job/hello to complete', async () => (await kubectl(kubeconfig, ['get', 'job', 'hello', '-o', 'jsonpath={.status.succeeded}'])).stdout === '1', 60_000);
    expect((await kubectl(kubeconfig, ['logs', 'job/hello'])).stdout).toBe('hi\n');
    await eventually('the greeter pod to succeed', async () => (await kubectl(kubeconfig, ['get', 'pod', 'greeter', '-o', 'jsonpath={.status.phase}'])).stdout === 'Succeeded', 60_000);
    expect((await kubectl(kubeconfig, ['logs', 'greeter'])).stdout).toBe('hello from a flag\n');
    expect((await kubectl(kubeconfig, ['explain', 'rayjob.spec.submitterConfig'])).stdout).toMatch(/FIELD: submitterConfig <Object>[\s\S]*backoffLimit/);
    expect((await kubectl(kubeconfig, ['auth', 'can-i', 'create', 'pods'])).stdout).toBe('yes\n');
    expect((await kubectl(kubeconfig, ['auth', 'can-i', 'create', 'pods', '--as=system:serviceaccount:default:default'])).stdout).toBe('no\n');
    // As a ServiceAccount with its own token, through the HTTPS kubeconfig the startup message names.
    const httpsKubeconfig = /use KUBECONFIG=(\S+);/.exec(stderr)?.[1] ?? '';
    const token = (await kubectl(kubeconfig, ['create', 'token', 'default'])).stdout.trim();
    const denied = await kubectl(httpsKubeconfig, ['get', 'pods', `--token=${token}`]);
    expect(denied.stderr).toContain('Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:default" cannot list resource "pods" in API group "" in the namespace "default"');
    await eventually('the sleeper pod to run', async () => (await kubectl(kubeconfig, ['get', 'pod', 'sleeper', '-o', 'jsonpath={.status.phase}'])).stdout === 'Running', 60_000);
    const exec = await kubectl(kubeconfig, ['exec', 'sleeper', '--', 'sh', '-c', 'echo in the pod; exit 3']);
    expect({ code: exec.code, stdout: exec.stdout }).toEqual({ code: 3, stdout: 'in the pod\n' });
  });

  it('kubectl apply of a RayJob reaches the operator and runs to Complete; SIGTERM stops cleanly', async () => {
    try {
      await eventually('the operator to report its controllers', () => /operator running \(.*rayjob/.test(stderr));
      expect((await kubectl(kubeconfig, ['get', 'crd', 'rayjobs.ray.io', 'rayclusters.ray.io', '-o', 'name'])).stdout).toContain('rayjobs.ray.io');
      const applied = await kubectl(kubeconfig, ['apply', '-f', '-'], invalidRayJob);
      expect(applied.stderr).toBe('');
      const status = await eventually('the operator to judge the RayJob', async () => {
        const r = await kubectl(kubeconfig, ['get', 'rayjob', 'from-kubectl', '-o', 'jsonpath={.status.jobDeploymentStatus}']);
        return r.stdout === 'ValidationFailed' ? r.stdout : undefined;
      }, 30_000);
      expect(status).toBe('ValidationFailed');

      // A valid RayJob runs to Complete: the RayCluster controller turns the cluster into pods, the RayJob
      // controller submits through our submitter image, and shutdownAfterJobFinishes removes the cluster.
      expect((await kubectl(kubeconfig, ['apply', '-f', '-'], validRayJob)).stderr).toBe('');
      const done = await eventually('the RayJob to complete', async () => {
        const r = await kubectl(kubeconfig, ['get', 'rayjob', 'sample', '-o', 'jsonpath={.status.jobDeploymentStatus}/{.status.jobStatus}']);
        if (r.stdout.startsWith('Failed')) giveUp(`RayJob failed: ${r.stdout}`);
        return r.stdout === 'Complete/SUCCEEDED' ? r.stdout : undefined;
      }, 120_000);
      expect(done).toBe('Complete/SUCCEEDED');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
