import { existsSync, readFileSync } from 'node:fs';
import { podLogPath } from '../../src/kubelet/log-paths.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '@rayjob/kube-runtime';
import { createPod, getPod, startHarness, waitFor, waitForPhase } from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.stop(); });

const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };

describe('pod deletion', () => {
  it('graceful: SIGTERM, the process may finish its shutdown, then the pod object goes', async () => {
    await createPod(h.client, { metadata: { name: 'graceful' }, spec: { terminationGracePeriodSeconds: 30, containers: [{ name: 'main', image: 'node',
      args: ['-e', "process.on('SIGTERM', () => { console.log('got SIGTERM'); setTimeout(() => process.exit(0), 300); }); setInterval(() => {}, 1000); console.log('up')"] }] } });
    await waitForPhase(h.client, 'graceful', ['Running']);
    const pid = await waitFor('pid', () => h.node.kubelet.containerPid('default', 'graceful', 'main'));
    await waitFor('handler installed', () => (readFileSync(podLogPath(h.dir, 'default', 'graceful', 'main'), 'utf8').includes('up') ? true : undefined));
    const started = Date.now();
    await h.client.delete(resources.pods, { namespace: 'default', name: 'graceful' });
    await waitFor('pod gone', async () => ((await getPod(h.client, 'graceful')) === undefined ? true : undefined));
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(300);
    // Well before the 30 s grace period: the process ended by itself, it was not killed at the deadline.
    expect(took).toBeLessThan(15_000);
    expect(alive(pid)).toBe(false);
  });

  it('grace period expiry: a process ignoring SIGTERM is SIGKILLed after the grace period', async () => {
    await createPod(h.client, { metadata: { name: 'stubborn' }, spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'main', image: 'node',
      args: ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); console.log('up')"] }] } });
    await waitForPhase(h.client, 'stubborn', ['Running']);
    const pid = await waitFor('pid', () => h.node.kubelet.containerPid('default', 'stubborn', 'main'));
    await waitFor('handler installed', () => (readFileSync(podLogPath(h.dir, 'default', 'stubborn', 'main'), 'utf8').includes('up') ? true : undefined));
    const started = Date.now();
    await h.client.delete(resources.pods, { namespace: 'default', name: 'stubborn' });
    await waitFor('pod gone', async () => ((await getPod(h.client, 'stubborn')) === undefined ? true : undefined));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(alive(pid)).toBe(false);
  });

  it('force deletion: the object vanishes and the process is killed at once', async () => {
    await createPod(h.client, { metadata: { name: 'forced' }, spec: { terminationGracePeriodSeconds: 30, containers: [{ name: 'main', image: 'busybox', command: ['sleep', '60'] }] } });
    await waitForPhase(h.client, 'forced', ['Running']);
    const pid = await waitFor('pid', () => h.node.kubelet.containerPid('default', 'forced', 'main'));
    await h.client.delete(resources.pods, { namespace: 'default', name: 'forced' }, { gracePeriodSeconds: 0 });
    expect(await getPod(h.client, 'forced')).toBeUndefined();
    await waitFor('process killed', () => (alive(pid) ? undefined : true), 5000);
  });

  it('a graceful deletion with a Job-style finalizer leaves a Failed pod with exit 143 until the finalizer goes', async () => {
    await createPod(h.client, { metadata: { name: 'held', finalizers: ['example.com/hold'] }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sleep', '60'] }] } });
    await waitForPhase(h.client, 'held', ['Running']);
    await h.client.delete(resources.pods, { namespace: 'default', name: 'held' });
    const pod = await waitForPhase(h.client, 'held', ['Failed']);
    expect(pod.status?.containerStatuses?.[0]?.state.terminated).toMatchObject({ exitCode: 143, reason: 'Error' });
    await h.client.patch(resources.pods, { namespace: 'default', name: 'held' }, { metadata: { finalizers: null } });
    await waitFor('pod gone', async () => ((await getPod(h.client, 'held')) === undefined ? true : undefined));
  });
});

describe('probes', () => {
  it.each([
    { kind: 'exec', probe: { exec: { command: ['test', '-f', '/tmp/rayjob-ready-flag-$(POD_NAME)'] } } },
    { kind: 'httpGet', probe: { httpGet: { path: '/healthz', port: 'http' } } },
    { kind: 'tcpSocket', probe: { tcpSocket: { port: 8080 } } },
  ])('$kind probe: Ready only after the probe passes', async ({ kind, probe }) => {
    const name = `probe-${kind.toLowerCase()}`;
    const flag = `/tmp/rayjob-ready-flag-${name}`;
    const script = kind === 'exec'
      ? `setTimeout(() => require('fs').writeFileSync('${flag}', ''), 400); setInterval(() => {}, 1000)`
      : "setTimeout(() => require('http').createServer((q, s) => s.end('ok')).listen(8080), 400); setInterval(() => {}, 1000)";
    const execProbe = 'exec' in probe && probe.exec !== undefined ? { exec: { command: probe.exec.command.map((c) => c.replace('$(POD_NAME)', name)) } } : probe;
    await createPod(h.client, { metadata: { name }, spec: { containers: [{ name: 'main', image: 'node', args: ['-e', script], ports: [{ name: 'http', containerPort: 8080 }],
      readinessProbe: { ...execProbe, periodSeconds: 2, failureThreshold: 1 } }] } });
    const running = await waitForPhase(h.client, name, ['Running']);
    expect(running.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
    const ready = await waitFor('Ready', async () => {
      const pod = await getPod(h.client, name);
      return pod?.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True' ? pod : undefined;
    });
    expect(ready.status?.containerStatuses?.[0]?.ready).toBe(true);
    if (existsSync(flag)) await import('node:fs').then((fs) => fs.rmSync(flag));
  });

  it('liveness probe failures kill the container and the restart policy restarts it', async () => {
    // The grace period only bounds a container that ignores SIGTERM; `sleep` ends at once. 1 s raced the SIGKILL
    // against the exit on a loaded CI machine (exit 137 instead of 143), so it is generous here.
    await createPod(h.client, { metadata: { name: 'unlive' }, spec: { terminationGracePeriodSeconds: 15, containers: [{ name: 'main', image: 'busybox', command: ['sleep', '60'],
      livenessProbe: { exec: { command: ['test', '-f', '/nonexistent/rayjob-alive'] }, periodSeconds: 1, failureThreshold: 2 } }] } });
    const pod = await waitFor('restarted by liveness', async () => {
      const p = await getPod(h.client, 'unlive');
      return (p?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1 ? p : undefined;
    });
    expect(pod.status?.containerStatuses?.[0]?.lastState.terminated).toMatchObject({ exitCode: 143, reason: 'Error' });
  });
});
