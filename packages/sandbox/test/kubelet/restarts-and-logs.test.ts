import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pod } from '../../src/kube-objects/types.ts';
import { createPod, getPod, startHarness, waitFor, waitForPhase } from './harness.ts';
import type { Harness } from './harness.ts';

const run = promisify(execFile);
let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.stop(); });

const kubectl = async (...args: string[]): Promise<string> =>
  (await run('kubectl', ['--kubeconfig', h.api.kubeconfigPath, ...args], { timeout: 20_000 })).stdout;

const restarts = (pod: Pod | undefined, container = 'main'): number =>
  pod?.status?.containerStatuses?.find((c) => c.name === container)?.restartCount ?? -1;

describe('restart policies', () => {
  it.each([
    { policy: 'Always' as const, exitCode: 0, restarts: true, finalPhase: 'Running' },
    { policy: 'OnFailure' as const, exitCode: 1, restarts: true, finalPhase: 'Running' },
    { policy: 'OnFailure' as const, exitCode: 0, restarts: false, finalPhase: 'Succeeded' },
    { policy: 'Never' as const, exitCode: 1, restarts: false, finalPhase: 'Failed' },
  ])('$policy with exit $exitCode: restarts=$restarts', async ({ policy, exitCode, restarts: restartsExpected, finalPhase }) => {
    const name = `rp-${policy.toLowerCase()}-${exitCode}`;
    await createPod(h.client, { metadata: { name }, spec: { restartPolicy: policy, containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', `echo run; exit ${exitCode}`] }] } });
    if (restartsExpected) {
      const pod = await waitFor('two restarts', async () => { const p = await getPod(h.client, name); return restarts(p) >= 2 ? p : undefined; });
      const status = pod.status?.containerStatuses?.[0];
      expect(status?.lastState.terminated).toMatchObject({ exitCode, reason: exitCode === 0 ? 'Completed' : 'Error' });
      expect(pod.status?.phase).toBe(finalPhase);
    } else {
      const pod = await waitForPhase(h.client, name, [finalPhase]);
      expect(restarts(pod)).toBe(0);
    }
  });

  it('shows CrashLoopBackOff with Kubernetes’ message while waiting to restart', async () => {
    await createPod(h.client, { metadata: { name: 'crashloop' }, spec: { restartPolicy: 'Always', containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'exit 1'] }] } });
    const waiting = await waitFor('CrashLoopBackOff', async () => {
      const w = (await getPod(h.client, 'crashloop'))?.status?.containerStatuses?.[0]?.state.waiting;
      return w?.reason === 'CrashLoopBackOff' ? w : undefined;
    });
    expect(waiting.message).toMatch(/^back-off \d+m?s? ?restarting failed container=main pod=crashloop_default\(.+\)$/);
  });

  it('reports an unknown image as ErrImagePull, then ImagePullBackOff', async () => {
    await createPod(h.client, { metadata: { name: 'badimage' }, spec: { containers: [{ name: 'main', image: 'example.com/nope:1' }] } });
    const waiting = await waitFor('ImagePullBackOff', async () => {
      const w = (await getPod(h.client, 'badimage'))?.status?.containerStatuses?.[0]?.state.waiting;
      return w?.reason === 'ImagePullBackOff' ? w : undefined;
    });
    expect(waiting.message).toBe('Back-off pulling image "example.com/nope:1"');
    expect((await getPod(h.client, 'badimage'))?.status?.phase).toBe('Pending');
  });

  it('an OOM-killed container reports OOMKilled with exit code 137', async () => {
    await createPod(h.client, { metadata: { name: 'oom' }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sleep', '30'] }] } });
    await waitForPhase(h.client, 'oom', ['Running']);
    expect(h.node.kubelet.oomKill('default', 'oom', 'main')).toBe(true);
    const pod = await waitForPhase(h.client, 'oom', ['Failed']);
    expect(pod.status?.containerStatuses?.[0]?.state.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
  });
});

describe('logs through the API (kubectl logs)', () => {
  it('serves current and previous runs, per container', async () => {
    await createPod(h.client, { metadata: { name: 'logs' }, spec: { restartPolicy: 'OnFailure', containers: [
      { name: 'main', image: 'busybox', command: ['sh', '-c', 'echo "run at $(date +%s%N)"; echo to-stderr >&2; sleep 0.2; exit 1'] },
      { name: 'side', image: 'busybox', command: ['sh', '-c', 'echo side-car; sleep 30'] },
    ] } });
    await waitFor('a restart', async () => (restarts(await getPod(h.client, 'logs')) >= 1 ? true : undefined));
    const side = await waitFor('side log', async () => { const out = await kubectl('logs', 'logs', '-c', 'side'); return out.includes('side-car') ? out : undefined; });
    expect(side).toBe('side-car\n');
    const previous = await kubectl('logs', 'logs', '-c', 'main', '--previous');
    expect(previous).toMatch(/^run at \d+\nto-stderr\n$/);
    const current = await waitFor('current run log', async () => { const out = await kubectl('logs', 'logs', '-c', 'main'); return out.startsWith('run at') ? out : undefined; });
    expect(current).not.toBe(previous);
  });

  it('follows a running container until it ends', async () => {
    await createPod(h.client, { metadata: { name: 'follow' }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'for i in 1 2 3; do echo tick $i; sleep 0.2; done'] }] } });
    await waitForPhase(h.client, 'follow', ['Running', 'Succeeded']);
    const out = await kubectl('logs', '-f', 'follow');
    expect(out).toBe('tick 1\ntick 2\ntick 3\n');
  });
});
