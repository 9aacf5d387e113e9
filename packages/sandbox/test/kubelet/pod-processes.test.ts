import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { podLogPath } from '../../src/kubelet/log-paths.ts';
import { createPod, startHarness, waitForPhase } from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => { h = await startHarness(); });
afterAll(async () => { await h.stop(); });

const log = (pod: string, container = 'main'): string => readFileSync(podLogPath(h.dir, 'default', pod, container), 'utf8');

describe('kubelet runs pod containers as processes', () => {
  it('passes argv intact: an argument with spaces and ; is one argument, no shell re-parsing', async () => {
    await createPod(h.client, {
      metadata: { name: 'argv' },
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'node', args: ['-e', 'console.log(JSON.stringify(process.argv.slice(1)))', 'a b; echo pwned', '$HOME'] }] },
    });
    const pod = await waitForPhase(h.client, 'argv', ['Succeeded', 'Failed']);
    expect(pod.status?.phase).toBe('Succeeded');
    expect(JSON.parse(log('argv'))).toEqual(['a b; echo pwned', '$HOME']);
    expect(pod.status?.containerStatuses?.[0]?.state.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
  });

  it('expands $(VAR) from the container env and keeps $$(VAR) literal', async () => {
    await createPod(h.client, {
      metadata: { name: 'expand' },
      spec: { restartPolicy: 'Never', containers: [{
        name: 'main', image: 'busybox',
        command: ['sh', '-c', 'echo "$0|$1|$2"', '$(GREETING) world', '$$(GREETING)', '$(MISSING)'],
        env: [{ name: 'NAME', value: 'x' }, { name: 'GREETING', value: 'hello $(NAME)' }],
      }] },
    });
    await waitForPhase(h.client, 'expand', ['Succeeded']);
    expect(log('expand').trim()).toBe('hello x world|$(GREETING)|$(MISSING)');
  });

  it('reports a failing container as Error with its exit code and pod phase Failed', async () => {
    await createPod(h.client, { metadata: { name: 'fails' }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'exit 3'] }] } });
    const pod = await waitForPhase(h.client, 'fails', ['Failed']);
    expect(pod.status?.containerStatuses?.[0]?.state.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
    expect(pod.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
  });

  it('gives each pod its own IP, reported in status.podIP and visible to the process', async () => {
    await createPod(h.client, { metadata: { name: 'ip' }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'echo $MY_IP; hostname -i 2>/dev/null || true'],
      env: [{ name: 'MY_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }] }] } });
    const pod = await waitForPhase(h.client, 'ip', ['Succeeded']);
    expect(pod.status?.podIP).toMatch(/^(10\.244|127)\./);
    expect(log('ip').split('\n')[0]).toBe(pod.status?.podIP);
    expect(pod.spec.nodeName).toBe('sandbox-node');
  });

  it('the container sees the pod name as its hostname', async () => {
    await createPod(h.client, { metadata: { name: 'named-host' }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'python', command: ['python3', '-c', 'import socket; print(socket.gethostname())'] }] } });
    await waitForPhase(h.client, 'named-host', ['Succeeded']);
    expect(log('named-host').trim()).toBe('named-host');
  });

  it.each([
    { name: 'wd-default', workingDir: undefined, expected: '/' },
    { name: 'wd-set', workingDir: '/etc', expected: '/etc' },
  ])('starts in workingDir ($expected)', async ({ name, workingDir, expected }) => {
    await createPod(h.client, { metadata: { name }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['pwd'], ...(workingDir === undefined ? {} : { workingDir }) }] } });
    await waitForPhase(h.client, name, ['Succeeded']);
    expect(log(name).trim()).toBe(expected);
  });
});
