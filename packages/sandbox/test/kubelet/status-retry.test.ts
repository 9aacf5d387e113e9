// A pod status write the API server never answered (a connection reset on a loaded machine) is written again,
// as the real kubelet's status manager re-syncs: otherwise the API shows a pod Pending (or not Ready) for good
// while its container runs, and whatever waits on it (a RayCluster's readiness) waits forever.
import { resources, type KubeClient, type KubeError } from '@rayjob/kube-runtime';
import { describe, expect, it } from 'vitest';
import { createPod, getPod, startHarness, waitFor } from './harness.ts';

const reset: KubeError = { status: 0, reason: 'ConnectionError', message: 'PUT pods/status: ECONNRESET read ECONNRESET', method: 'PUT', path: '/api/v1/namespaces/default/pods/lost-status/status' };

/** The node's client, with every pod status write failing as a reset connection while `broken()` says so. */
function withBrokenStatusWrites(client: KubeClient, broken: () => boolean): KubeClient {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key !== 'replaceStatus') return Reflect.get(target, key, receiver) as unknown;
      return (async (...args: Parameters<KubeClient['replaceStatus']>) => {
        if (args[0] === resources.pods && broken()) return { ok: false, error: reset };
        return target.replaceStatus(...args);
      }) as KubeClient['replaceStatus'];
    },
  });
}

describe('pod status writes', () => {
  it('a write lost to a connection error is written again once the API server answers', async () => {
    let broken = true;
    const h = await startHarness({ nodeClient: (client) => withBrokenStatusWrites(client, () => broken) });
    try {
      await createPod(h.client, { metadata: { name: 'lost-status' }, spec: { containers: [{ name: 'main', image: 'busybox', command: ['sleep', '120'] }] } });
      await waitFor('the container to run', () => h.node.kubelet.containerPid('default', 'lost-status', 'main'));
      // Every write so far failed; nothing about the pod changes from here on.
      expect((await getPod(h.client, 'lost-status'))?.status?.phase ?? 'Pending').toBe('Pending');
      broken = false;
      const running = await waitFor('the API to show the pod Running', async () => {
        const pod = await getPod(h.client, 'lost-status');
        return pod?.status?.phase === 'Running' ? pod : undefined;
      }, 30_000);
      expect(running.status?.containerStatuses?.[0]?.state?.running).toBeDefined();
    } finally {
      await h.stop();
    }
  });
});
