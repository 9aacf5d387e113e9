// The ReplicaSet controller while its pod cache lags behind its own creates: kube-runtime's expectations keep a
// reconcile that runs before the cache shows the new pods from creating them again. Without expectations the
// repeated reconciles below create a second set of pods.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventRecorder, createExpectations, createInformer, createKubeClient, resources, type KubeClient } from '@rayjob/kube-runtime';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import type { AppsState } from '../../src/apps-controllers/apps-state.ts';
import { syncReplicaSet } from '../../src/apps-controllers/sync-replicaset.ts';
import type { Deployment, ReplicaSet } from '../../src/apps-controllers/types.ts';
import { runInformers, type RunningComponent } from '../../src/node-runtime/component.ts';
import { eventually } from '../harness.ts';
import { createFakeClock } from '@rayjob/kube-runtime/testing';
import { lagPodWatches, podInformer, podsOwnedBy, type LaggingPods } from '../lagging-pod-cache.ts';

let api: ApiServer;
let client: KubeClient;
let lag: LaggingPods;
let running: RunningComponent;
let state: AppsState;

beforeEach(async () => {
  api = await startApiServer();
  client = await createKubeClient({ server: api.url });
  lag = lagPodWatches(client);
  const clock = createFakeClock();
  const pods = podInformer(lag.client);
  const expectations = createExpectations({ clock });
  expectations.watch('Pod', pods);
  state = {
    client, now: clock.now, random: Math.random, log: (message) => { throw new Error(message); },
    rsEvents: createEventRecorder({ client, component: 'replicaset-controller', api: 'core' }),
    deployEvents: createEventRecorder({ client, component: 'deployment-controller', api: 'core' }),
    deployments: createInformer<Deployment>({ client, type: resources.deployments }),
    replicaSets: createInformer<ReplicaSet>({ client, type: resources.replicaSets }),
    pods, expectations,
  };
  running = runInformers([state.deployments, state.replicaSets, pods]);
  await running.synced;
});

afterEach(async () => {
  await running.stop();
  await state.rsEvents.flush();
  await client.close();
  await api.stop();
});

describe('ReplicaSet controller with a lagging pod cache', () => {
  it('creates replicas once: reconciles before the cache shows the pods create no more, and none after it catches up', async () => {
    const labels = { app: 'lagged' };
    const created = await client.create<ReplicaSet>(resources.replicaSets, {
      apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'lagged' },
      spec: { replicas: 3, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'main', image: 'busybox' }] } } },
    }, { namespace: 'default' });
    if (!created.ok) throw new Error(created.error.message);
    const uid = created.value.metadata.uid ?? '';
    await eventually(() => state.replicaSets.cache.getByName('default', 'lagged'), 5000, 'the ReplicaSet in the cache');

    await syncReplicaSet(state, 'default', 'lagged');
    expect(await podsOwnedBy(client, 'default', uid)).toHaveLength(3);
    expect(state.pods.cache.list()).toHaveLength(0); // the cache lags: it shows none of them yet
    for (let i = 0; i < 3; i += 1) await syncReplicaSet(state, 'default', 'lagged');
    expect(await podsOwnedBy(client, 'default', uid)).toHaveLength(3);

    lag.catchUp();
    await eventually(() => state.pods.cache.list().length === 3, 5000, 'the pod cache to show the three pods');
    expect(state.expectations.pending(uid)).toEqual([]);
    await syncReplicaSet(state, 'default', 'lagged');
    expect(await podsOwnedBy(client, 'default', uid)).toHaveLength(3);
  });
});
