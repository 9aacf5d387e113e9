import { readFileSync, rmSync } from 'node:fs';
import { resources } from '@rayjob/kube-runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { podLogPath } from '../../src/kubelet/log-paths.ts';
import { createPod, startHarness, waitForPhase } from './harness.ts';
import type { Harness } from './harness.ts';

const started: Harness[] = [];
afterAll(async () => {
  for (const h of started) await h.stop();
  rmSync('/rayjob-init-work', { recursive: true, force: true });
});

describe('init containers', () => {
  it('run in order to completion before the app container, sharing volumes', async () => {
    const h = await startHarness();
    started.push(h);
    await createPod(h.client, { metadata: { name: 'init' }, spec: { restartPolicy: 'Never', volumes: [{ name: 'work', emptyDir: {} }],
      initContainers: [
        { name: 'first', image: 'busybox', command: ['sh', '-c', 'echo one > /rayjob-init-work/order'], volumeMounts: [{ name: 'work', mountPath: '/rayjob-init-work' }] },
        { name: 'second', image: 'busybox', command: ['sh', '-c', 'echo two >> /rayjob-init-work/order'], volumeMounts: [{ name: 'work', mountPath: '/rayjob-init-work' }] },
      ],
      containers: [{ name: 'main', image: 'busybox', command: ['cat', '/rayjob-init-work/order'], volumeMounts: [{ name: 'work', mountPath: '/rayjob-init-work' }] }] } });
    const pod = await waitForPhase(h.client, 'init', ['Succeeded', 'Failed']);
    expect(readFileSync(podLogPath(h.dir, 'default', 'init', 'main'), 'utf8')).toBe('one\ntwo\n');
    expect(pod.status?.initContainerStatuses?.map((s) => s.state.terminated?.reason)).toEqual(['Completed', 'Completed']);
    expect(pod.status?.conditions?.find((c) => c.type === 'Initialized')?.status).toBe('True');
  });

  it('a failing init container with restartPolicy Never fails the pod without starting the app', async () => {
    const h = started[0] as Harness;
    await createPod(h.client, { metadata: { name: 'init-fails' }, spec: { restartPolicy: 'Never',
      initContainers: [{ name: 'setup', image: 'busybox', command: ['sh', '-c', 'exit 4'] }],
      containers: [{ name: 'main', image: 'busybox', command: ['true'] }] } });
    const pod = await waitForPhase(h.client, 'init-fails', ['Failed']);
    expect(pod.status?.initContainerStatuses?.[0]?.state.terminated).toMatchObject({ exitCode: 4, reason: 'Error' });
    expect(pod.status?.containerStatuses?.[0]?.state.waiting?.reason).toBe('PodInitializing');
  });
});

describe('loopback network mode (fallback without network namespaces)', () => {
  it('gives pods distinct 127.x addresses and still resolves cluster names through the pod resolv.conf', async () => {
    const h = await startHarness({ network: 'loopback' });
    started.push(h);
    expect(h.node.network.mode).toBe('loopback');
    await createPod(h.client, { metadata: { name: 'lb', labels: { app: 'lb' } }, spec: { containers: [{ name: 'main', image: 'busybox', command: ['sleep', '30'] }] } });
    const target = await waitForPhase(h.client, 'lb', ['Running']);
    await h.client.create(resources.services, { metadata: { name: 'lb' }, spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: { app: 'lb' }, ports: [{ port: 80 }] } }, { namespace: 'default' });
    await createPod(h.client, { metadata: { name: 'lb-client' }, spec: { restartPolicy: 'OnFailure', containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'getent hosts lb | cut -d" " -f1'] }] } });
    const client = await waitForPhase(h.client, 'lb-client', ['Succeeded'], 'default', 20_000);
    expect(target.status?.podIP).toMatch(/^127\./);
    expect(client.status?.podIP).not.toBe(target.status?.podIP);
    expect(readFileSync(podLogPath(h.dir, 'default', 'lb-client', 'main'), 'utf8').trim()).toBe(target.status?.podIP);
  });
});
