// A newcomer's first minutes, as a real user runs them: `rayjob-sandbox up` (what `npm start` runs) as a child
// process, then kubectl. Common images are mapped by default, --image maps more, and an unmapped image says
// how to map it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../harness.ts';

const cli = join(import.meta.dirname, '..', '..', 'src', 'cli.ts');
let root: string;
let child: ChildProcess;
let kubeconfig: string;

const kubectl = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) =>
    execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: kubeconfig, HOME: root }, timeout: 60_000 }, (err, stdout, stderr) =>
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    ),
  );

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'sandbox-first-'));
  child = spawn(process.execPath, [cli, 'up', '--dir', join(root, 'state'), '--image', 'myorg/greeter=/bin/echo hello from a flag'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  kubeconfig = await eventually(() => (stdout.includes('\n') ? stdout.trim() : undefined), 30_000, 'kubeconfig path on stdout');
}, 60_000);

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  await rm(root, { recursive: true, force: true });
}, 60_000);

describe('rayjob-sandbox up: images for people', () => {
  it("kubectl create job hello --image=busybox -- sh -c 'echo hi' completes and kubectl logs job/hello prints hi", async () => {
    expect((await kubectl(['create', 'job', 'hello', '--image=busybox', '--', 'sh', '-c', 'echo hi'])).stderr).toBe('');
    const waited = await kubectl(['wait', '--for=condition=complete', 'job/hello', '--timeout=50s']);
    expect(waited.stdout).toContain('job.batch/hello condition met');
    expect((await kubectl(['logs', 'job/hello'])).stdout).toBe('hi\n');
  }, 90_000);

  it('--image NAME=COMMAND maps a repository (any tag) to a local command', async () => {
    expect((await kubectl(['run', 'greeter', '--image=myorg/greeter:v2', '--restart=Never'])).stderr).toBe('');
    await eventually(async () => (await kubectl(['get', 'pod', 'greeter', '-o', 'jsonpath={.status.phase}'])).stdout === 'Succeeded', 50_000, 'greeter to succeed');
    expect((await kubectl(['logs', 'greeter'])).stdout).toBe('hello from a flag\n');
  }, 90_000);

  it('an unmapped image fails with ErrImagePull, and the message says how to map it', async () => {
    expect((await kubectl(['run', 'mystery', '--image=example.org/team/mystery:1.0', '--restart=Never'])).stderr).toBe('');
    const message = await eventually(async () => {
      const out = await kubectl(['get', 'events', '--field-selector', 'involvedObject.name=mystery,reason=Failed', '-o', 'jsonpath={.items[*].message}']);
      return out.stdout.includes('pull') ? out.stdout : undefined;
    }, 50_000, 'a Failed event for the mystery pod');
    expect(message).toContain('Failed to pull image "example.org/team/mystery:1.0"');
    expect(message).toContain('rayjob-sandbox up --image example.org/team/mystery=COMMAND');
    const reason = await kubectl(['get', 'pod', 'mystery', '-o', 'jsonpath={.status.containerStatuses[0].state.waiting.reason}']);
    expect(['ErrImagePull', 'ImagePullBackOff']).toContain(reason.stdout);
  }, 90_000);
});
