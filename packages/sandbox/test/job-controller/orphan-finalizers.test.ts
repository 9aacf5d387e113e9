// The Job controller lets orphaned pods go (removes the tracking finalizer) and never leaves an unhandled
// promise rejection when the API server answers a conflict.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer } from '../../src/apiserver/server.ts';
import type { ApiServer } from '../../src/apiserver/server.ts';
import { startJobController } from '../../src/job-controller/controller.ts';
import type { JobController } from '../../src/job-controller/controller.ts';
import { createKubeClient, resources, type KubeClient } from '@rayjob/kube-runtime';
import type { Pod } from '../../src/kube-objects/types.ts';
import { waitFor } from '../kubelet/harness.ts';

describe('Job controller and orphaned pods', () => {
  let api: ApiServer;
  let controller: JobController;
  let client: KubeClient;
  let conflictsLeft = 2;
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => { rejections.push(reason); };

  beforeAll(async () => {
    process.on('unhandledRejection', onRejection);
    api = await startApiServer();
    client = await createKubeClient({ server: api.url });
    // The first finalizer patches meet a 409, as when the pod changed between the watch event and the patch.
    const conflicting: KubeClient = {
      ...client,
      patch: async (type, ref, body, patchType, options) => {
        if (type.plural === 'pods' && conflictsLeft > 0) {
          conflictsLeft -= 1;
          return { ok: false, error: { status: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on pods: the object has been modified', method: 'PATCH', path: '/api/v1/pods' } };
        }
        return client.patch(type, ref, body, patchType, options);
      },
    };
    controller = startJobController({ client: conflicting, onError: () => {} });
    await controller.synced;
  });
  afterAll(async () => {
    await controller?.stop();
    await api?.stop();
    await client?.close();
    process.off('unhandledRejection', onRejection);
  });

  it('removes the tracking finalizer of a pod whose Job is gone, retrying after conflicts', async () => {
    const created = await client.create<Pod>(resources.pods, {
      apiVersion: 'v1', kind: 'Pod',
      metadata: {
        name: 'orphan', finalizers: ['batch.kubernetes.io/job-tracking'],
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'gone', uid: '00000000-0000-0000-0000-000000000000', controller: true }],
      },
      spec: { containers: [{ name: 'c', image: 'busybox' }] },
    }, { namespace: 'default' });
    expect(created.ok).toBe(true);
    // The garbage collector deletes the pod (its owner does not exist); the finalizer held it until released.
    await waitFor('finalizer removed (the pod then goes)', async () => {
      const pod = await client.get<Pod>(resources.pods, { namespace: 'default', name: 'orphan' });
      return (pod.ok && (pod.value.metadata.finalizers ?? []).length === 0) || (!pod.ok && pod.error.status === 404) ? true : undefined;
    }, 10_000);
    expect(conflictsLeft).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(rejections).toEqual([]);
  });
});
