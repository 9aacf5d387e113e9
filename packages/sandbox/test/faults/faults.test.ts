import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deletePod, evictPod, forceDeletePod, oomKillContainer, rayHeadFault } from '../../src/faults/faults.ts';
import { resources } from '@rayjob/kube-runtime';
import { podLogPath } from '../../src/kubelet/log-paths.ts';
import { rayEmulatorImage } from '../../src/images/ray-image.ts';
import { createPod, getPod, startHarness, testImages, waitFor, waitForPhase } from '../kubelet/harness.ts';
import type { Harness } from '../kubelet/harness.ts';

const emulatorCli = fileURLToPath(new URL('../../../ray-emulator/src/cli.ts', import.meta.url));
let h: Harness;
beforeAll(async () => { h = await startHarness({ images: { ...testImages, 'rayproject/ray': rayEmulatorImage({ emulatorCli }) } }); });
afterAll(async () => { await h.stop(); });

const alive = (pid: number): boolean => { try { process.kill(pid, 0); return true; } catch { return false; } };

async function sleeper(name: string, grace = 5): Promise<number> {
  await createPod(h.client, { metadata: { name }, spec: { terminationGracePeriodSeconds: grace, restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sleep', '60'] }] } });
  await waitForPhase(h.client, name, ['Running']);
  return waitFor('pid', () => h.node.kubelet.containerPid('default', name, 'main'));
}

describe('faults', () => {
  it.each([
    { fault: 'delete', inject: (name: string) => deletePod(h.client, 'default', name, 1) },
    { fault: 'force-delete', inject: (name: string) => forceDeletePod(h.client, 'default', name) },
    { fault: 'evict', inject: (name: string) => evictPod(h.client, 'default', name, 1) },
  ])('$fault removes the pod and its process', async ({ fault, inject }) => {
    const pid = await sleeper(`victim-${fault}`);
    expect(await inject(`victim-${fault}`)).toEqual({ ok: true });
    await waitFor('pod gone', async () => ((await getPod(h.client, `victim-${fault}`)) === undefined ? true : undefined));
    await waitFor('process gone', () => (alive(pid) ? undefined : true), 5000);
  });

  it('eviction marks the pod with DisruptionTarget before it terminates', async () => {
    await createPod(h.client, { metadata: { name: 'evict-held', finalizers: ['example.com/hold'] }, spec: { terminationGracePeriodSeconds: 1, restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['sleep', '60'] }] } });
    await waitForPhase(h.client, 'evict-held', ['Running']);
    await evictPod(h.client, 'default', 'evict-held');
    const pod = await waitForPhase(h.client, 'evict-held', ['Failed']);
    expect(pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'EvictionByEvictionAPI' });
    await h.client.patch(resources.pods, { namespace: 'default', name: 'evict-held' }, { metadata: { finalizers: null } });
  });

  it('OOM-kill reports OOMKilled / 137; an unknown container is a typed error', async () => {
    await sleeper('oom-victim');
    expect(oomKillContainer(h.node.kubelet, 'default', 'oom-victim', 'nope')).toEqual({ ok: false, message: 'oom-kill: container nope of pod default/oom-victim is not running on sandbox-node' });
    expect(oomKillContainer(h.node.kubelet, 'default', 'oom-victim', 'main')).toEqual({ ok: true });
    const pod = await waitForPhase(h.client, 'oom-victim', ['Failed']);
    expect(pod.status?.containerStatuses?.[0]?.state.terminated).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
  });

  it('Ray head faults reach the emulator in a head pod; a worker waits for GCS (ray health-check) and joins', async () => {
    await createPod(h.client, { metadata: { name: 'head', labels: { 'ray.io/node-type': 'head' } }, spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.55.1',
      command: ['/bin/bash', '-lc', '--'], args: ['ulimit -n 65536; ray start --head --dashboard-host=0.0.0.0 --num-cpus=1 --block'],
      ports: [{ name: 'dashboard', containerPort: 8265 }], readinessProbe: { exec: { command: ['bash', '-c', 'wget -T 2 -q -O- http://localhost:52365/api/local_raylet_healthz | grep success'] }, periodSeconds: 1,
        // The harness scales probe times by 0.05: 40 s is a 2 s timeout, enough for nsenter + bash + wget on a busy machine.
        timeoutSeconds: 40 } }] } });
    await h.client.create(resources.services, { metadata: { name: 'head-svc' }, spec: { clusterIP: 'None', publishNotReadyAddresses: true, selector: { 'ray.io/node-type': 'head' }, ports: [{ name: 'dashboard', port: 8265 }] } }, { namespace: 'default' });
    const head = await waitFor('head ready', async () => {
      const pod = await getPod(h.client, 'head');
      return pod?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? pod : undefined;
    }, 30_000);
    const dashboard = `http://${head.status?.podIP}:8265/api/version`;
    // This probe checks the raylet only (as KubeRay's worker probe does), so Ready does not mean the dashboard listens yet.
    await waitFor('dashboard answers', async () => ((await fetch(dashboard)).status === 200 ? true : undefined), 30_000);

    expect(await rayHeadFault(h.client, 'default', 'head', { fault: 'stopDashboard' })).toEqual({ ok: true });
    await expect(fetch(dashboard)).rejects.toThrow();
    expect(await rayHeadFault(h.client, 'default', 'head', { fault: 'startDashboard' })).toEqual({ ok: true });
    expect((await fetch(dashboard)).status).toBe(200);

    await createPod(h.client, { metadata: { name: 'worker' }, spec: {
      initContainers: [{ name: 'wait-gcs-ready', image: 'rayproject/ray:2.55.1', command: ['/bin/bash', '-lc', '--'],
        args: ['until ray health-check --address head-svc.default.svc.cluster.local:6379 > /dev/null 2>&1; do echo waiting; sleep 0.2; done; echo "GCS is ready."'] }],
      containers: [{ name: 'ray-worker', image: 'rayproject/ray:2.55.1',
      command: ['/bin/bash', '-lc', '--'], args: ['ulimit -n 65536; ray start --address=head-svc.default.svc.cluster.local:6379 --block'] }] } });
    await waitFor('init container saw a healthy head', () => {
      try { return readFileSync(podLogPath(h.dir, 'default', 'worker', 'wait-gcs-ready'), 'utf8').includes('GCS is ready.') ? true : undefined; } catch { return undefined; }
    }, 30_000);
    await waitFor('worker registered', () => {
      try { return readFileSync(podLogPath(h.dir, 'default', 'worker', 'ray-worker'), 'utf8').includes('worker registered') ? true : undefined; } catch { return undefined; }
    }, 30_000);
  });
});
