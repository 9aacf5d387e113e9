// The kubelet's HTTPS endpoint through the API server, as kubectl uses it: `kubectl exec` (WebSocket
// remote-command) into a container's namespaces, and `kubectl logs` served by the kubelet.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPod, getPod, startHarness, waitFor, waitForPhase } from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h?.stop(); });

const kubectl = (args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', h.api.kubeconfigPath, ...args], { timeout: 20_000, env: { ...process.env, HOME: h.dir } }, (error, stdout, stderr) =>
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr }));
    if (stdin !== undefined) child.stdin?.end(stdin);
  });

describe('kubectl exec through the API server and the kubelet', () => {
  beforeAll(async () => {
    await createPod(h.client, { metadata: { name: 'shell' }, spec: { containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'echo started; exec sleep 300'], env: [{ name: 'GREETING', value: 'hello from the container env' }] }] } });
    await createPod(h.client, { metadata: { name: 'neighbour' }, spec: { containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'exec sleep 300'] }] } });
    await waitForPhase(h.client, 'shell', ['Running']);
    await waitForPhase(h.client, 'neighbour', ['Running']);
  });

  it('streams stdout and stderr and answers the exit code', async () => {
    const out = await kubectl(['exec', 'shell', '--', 'sh', '-c', 'echo to-stdout; echo to-stderr >&2; exit 3']);
    expect(out.stdout).toBe('to-stdout\n');
    expect(out.stderr).toContain('to-stderr\n');
    expect(out.stderr).toContain('command terminated with exit code 3');
    expect(out.code).toBe(3);
    expect((await kubectl(['exec', 'shell', '--', 'true'])).code).toBe(0);
  });

  it('runs in the container: its environment, hostname (UTS namespace) and network namespace', async () => {
    const pod = await getPod(h.client, 'shell');
    const out = await kubectl(['exec', 'shell', '--', 'sh', '-c', 'echo "$GREETING"; hostname; cat /etc/hosts']);
    expect(out.code).toBe(0);
    const [env, hostname] = out.stdout.split('\n');
    expect(env).toBe('hello from the container env');
    expect(hostname).toBe('shell');
    expect(out.stdout).toContain(`${pod?.status?.podIP ?? '?'}\tshell`);
  });

  it('passes stdin with -i', async () => {
    const out = await kubectl(['exec', '-i', 'shell', '--', 'sh', '-c', 'tr a-z A-Z'], 'shout this\n');
    expect(out).toMatchObject({ code: 0, stdout: 'SHOUT THIS\n' });
  });

  it('sees only its own container\'s processes (a PID namespace with its own /proc)', async () => {
    const out = await kubectl(['exec', 'shell', '--', 'sh', '-c', 'pgrep -x sleep | wc -l; ls /proc | grep -c "^[0-9]"']);
    expect(out.code).toBe(0);
    const [sleepers, processes] = out.stdout.trim().split('\n');
    // Its own `sleep 300`, not the neighbour's; besides it only PID 1 (the kubelet's prologue shell) and this exec.
    expect(Number(sleepers)).toBe(1);
    expect(Number(processes)).toBeLessThan(8);
  });

  it('kills a process inside the pod (pkill -f), never a neighbour\'s, and the restart policy restarts the container', async () => {
    const before = (await getPod(h.client, 'shell'))?.status?.containerStatuses?.[0]?.restartCount ?? 0;
    // The pattern is also in the command lines of kubectl and the neighbour's processes on the host: only the
    // container's own PID namespace keeps pkill off them, as on a real node.
    const out = await kubectl(['exec', 'shell', '--', 'pkill', '-f', 'sleep 300']);
    // The main process's end ends the container's PID namespace, which may take pkill along before it exits 0.
    expect([0, 137]).toContain(out.code);
    await waitFor('container restarted', async () => ((await getPod(h.client, 'shell'))?.status?.containerStatuses?.[0]?.restartCount ?? 0) > before ? true : undefined);
    const neighbour = (await getPod(h.client, 'neighbour'))?.status?.containerStatuses?.[0];
    expect(neighbour).toMatchObject({ restartCount: 0, state: { running: expect.anything() } });
  });

  it('answers like kube-apiserver for an unknown command, container or pod', async () => {
    await waitForPhase(h.client, 'shell', ['Running']);
    await waitFor('running again', async () => ((await getPod(h.client, 'shell'))?.status?.containerStatuses?.[0]?.state.running !== undefined ? true : undefined));
    const missing = await kubectl(['exec', 'shell', '--', 'no-such-program']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('executable file not found in $PATH');
    expect((await kubectl(['exec', 'shell', '-c', 'nope', '--', 'true'])).stderr).toContain('container nope is not valid for pod shell');
    expect((await kubectl(['exec', 'ghost', '--', 'true'])).stderr).toContain('pods "ghost" not found');
  });
});

describe('kubectl logs served by the kubelet', () => {
  it('says why a container has no logs yet, in the kubelet\'s words', async () => {
    await createPod(h.client, { metadata: { name: 'unpullable' }, spec: { containers: [{ name: 'main', image: 'not-mapped:1' }] } });
    await waitFor('ErrImagePull or back-off', async () => ((await getPod(h.client, 'unpullable'))?.status?.containerStatuses?.[0]?.state.waiting?.reason?.match(/ErrImagePull|ImagePullBackOff/) ? true : undefined));
    const out = await kubectl(['logs', 'unpullable']);
    expect(out.code).not.toBe(0);
    expect(out.stderr).toMatch(/container "main" in pod "unpullable" is waiting to start: (image can't be pulled|trying and failing to pull image)/);
  });

  it('reports the node\'s kubelet endpoint and serves logs from it', async () => {
    await createPod(h.client, { metadata: { name: 'talker' }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'echo one; echo two'] }] } });
    await waitForPhase(h.client, 'talker', ['Succeeded']);
    expect((await kubectl(['logs', 'talker'])).stdout).toBe('one\ntwo\n');
    expect((await kubectl(['logs', 'talker', '--tail=1'])).stdout).toBe('two\n');
    expect(h.node.kubelet.server?.port).toBeGreaterThan(0);
  });
});
