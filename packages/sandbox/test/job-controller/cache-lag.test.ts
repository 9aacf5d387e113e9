// The Job controller while its pod cache lags behind its own creates: kube-runtime's expectations hold back a
// second pod for the same slot until the cache shows the first (or the expectation's TTL runs out on the
// injected clock). Without expectations the second reconcile below creates a second pod.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventRecorder, createExpectations, createInformer, createKubeClient, resources, type KubeClient } from '@rayjob/kube-runtime';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import type { Job } from '../../src/kube-objects/types.ts';
import { defaultJobTiming } from '../../src/job-controller/decide.ts';
import type { JobControllerState } from '../../src/job-controller/job-state.ts';
import { syncJob } from '../../src/job-controller/sync-job.ts';
import { runInformers, type RunningComponent } from '../../src/node-runtime/component.ts';
import { eventually } from '../harness.ts';
import { createFakeClock, type FakeClock } from '@rayjob/kube-runtime/testing';
import { lagPodWatches, podInformer, podsOwnedBy, type LaggingPods } from '../lagging-pod-cache.ts';

let api: ApiServer;
let client: KubeClient;
let lag: LaggingPods;
let running: RunningComponent;
let state: JobControllerState;
let clock: FakeClock;

beforeEach(async () => {
  api = await startApiServer();
  client = await createKubeClient({ server: api.url });
  lag = lagPodWatches(client);
  clock = createFakeClock();
  const jobs = createInformer<Job>({ client, type: resources.jobs });
  const pods = podInformer(lag.client);
  const expectations = createExpectations({ clock });
  expectations.watch('Pod', pods);
  state = {
    client, timing: defaultJobTiming, now: clock.now, random: Math.random, report: (message) => { throw new Error(message); },
    events: createEventRecorder({ client, component: 'job-controller', api: 'core' }),
    jobs, pods, jobKeyByUid: new Map(), vanished: new Map(), lastFailureAt: new Map(), expectations, tracked: new Set(),
  };
  running = runInformers([jobs, pods]);
  await running.synced;
});

afterEach(async () => {
  await running.stop();
  await state.events.flush();
  await client.close();
  await api.stop();
});

async function createJob(name: string, parallelism: number): Promise<string> {
  const created = await client.create<Job>(resources.jobs, {
    apiVersion: 'batch/v1', kind: 'Job', metadata: { name },
    spec: { parallelism, completions: parallelism, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
  }, { namespace: 'default' });
  if (!created.ok) throw new Error(created.error.message);
  await eventually(() => state.jobs.cache.getByName('default', name), 5000, `job ${name} in the cache`);
  return created.value.metadata.uid ?? '';
}

describe('Job controller with a lagging pod cache', () => {
  it('creates the pods of a Job once: reconciles before the cache shows them create no second pod for a slot', async () => {
    const uid = await createJob('lagged', 2);
    await syncJob(state, 'default', 'lagged');
    expect(await podsOwnedBy(client, 'default', uid)).toHaveLength(2);
    expect(state.pods.cache.list()).toHaveLength(0); // the cache lags: it shows none of them yet
    for (let i = 0; i < 3; i += 1) await syncJob(state, 'default', 'lagged');
    expect(await podsOwnedBy(client, 'default', uid)).toHaveLength(2);
    expect(state.expectations.pending(uid)).toHaveLength(2);

    lag.catchUp();
    await eventually(() => state.pods.cache.list().length === 2, 5000, 'the pod cache to show both pods');
    expect(state.expectations.pending(uid)).toEqual([]);
    await syncJob(state, 'default', 'lagged');
    expect(await podsOwnedBy(client, 'default', uid)).toHaveLength(2);
  });

  it("an expectation the cache never meets runs out after its TTL on the expectations' clock, not the wall clock", async () => {
    const uid = await createJob('never-seen', 1);
    await syncJob(state, 'default', 'never-seen');
    clock.advance(299_000);
    await syncJob(state, 'default', 'never-seen');
    expect(await podsOwnedBy(client, 'default', uid)).toHaveLength(1);
    clock.advance(2_000); // past client-go's 5 min ExpectationsTimeout: the controller trusts its cache again
    expect(state.expectations.pending(uid)).toEqual([]);
  });
});
