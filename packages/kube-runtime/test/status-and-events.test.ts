import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventRecorder, createInformer, createStatusWriter, isNotFound, microTime, reconcileResultOf, resources, type KubeObject } from '../src/index.ts';
import { createFakeClock } from '../src/testing/index.ts';
import { eventually } from './support/eventually.ts';
import { startTestCluster, type TestCluster } from './support/sandbox.ts';

type RayJob = KubeObject & { spec?: unknown; status?: Record<string, unknown> };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const rayJobsCrd = join(import.meta.dirname, '../../core/crds/ray.io_rayjobs.yaml');
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster({ crds: [rayJobsCrd] });
});
afterAll(async () => {
  await cluster.stop();
});

async function rayJob(name: string): Promise<RayJob> {
  const r = await cluster.direct.create<RayJob>(resources.rayJobs, { apiVersion: 'ray.io/v1', kind: 'RayJob', metadata: { name, namespace: 'default' }, spec: { entrypoint: 'python main.py' } });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}
const writes = () => cluster.proxy.requests.filter((r) => r.startsWith('PUT') && r.includes('/status')).length;

describe('status writer', () => {
  it('writes /status when it changed and makes no request when it did not (key order aside)', async () => {
    const writer = createStatusWriter({ client: cluster.client, type: resources.rayJobs });
    const job = await rayJob('status-once');
    const before = writes();
    const first = await writer.writeStatus(job, { jobDeploymentStatus: 'Initializing', jobStatus: '' });
    expect(first?.ok).toBe(true); // written
    if (!first?.ok) throw new Error();
    expect(first.value.status).toEqual({ jobDeploymentStatus: 'Initializing', jobStatus: '' });
    const again = await writer.writeStatus(first.value, { jobStatus: '', jobDeploymentStatus: 'Initializing' });
    expect(again).toBeUndefined(); // unchanged: no request
    expect(writes() - before).toBe(1);
  });

  it('sends the cached resourceVersion, so a stale view gets a conflict that re-queues', async () => {
    const writer = createStatusWriter({ client: cluster.client, type: resources.rayJobs });
    const stale = await rayJob('status-stale');
    const newer = await writer.writeStatus(stale, { jobDeploymentStatus: 'Initializing' });
    expect(newer?.ok).toBe(true); // written
    const conflict = await writer.writeStatus(stale, { jobDeploymentStatus: 'Running' });
    expect(conflict?.ok === false && conflict.error.status).toBe(409); // conflict
    if (conflict?.ok !== false) throw new Error();
    expect(reconcileResultOf(conflict.error, 'status write failed')).toEqual({ requeue: true });
    const now = await cluster.direct.get<RayJob>(resources.rayJobs, { namespace: 'default', name: 'status-stale' });
    expect(now.ok && now.value.status?.jobDeploymentStatus).toBe('Initializing');
  });

  it('reports a deleted object as notFound and a server failure as failed', async () => {
    const writer = createStatusWriter({ client: cluster.client, type: resources.rayJobs });
    const job = await rayJob('status-gone');
    await cluster.direct.delete(resources.rayJobs, { namespace: 'default', name: 'status-gone' });
    const gone = await writer.writeStatus(job, { jobDeploymentStatus: 'New' });
    expect(gone?.ok === false && isNotFound(gone.error)).toBe(true); // notFound
    const live = await rayJob('status-5xx');
    cluster.proxy.fail({ status: 500, count: 1, match: /status-5xx\/status/ });
    const failed = await writer.writeStatus(live, { jobDeploymentStatus: 'New' });
    expect(failed?.ok === false && failed.error.status).toBe(500); // failed
    if (failed?.ok !== false) throw new Error();
    expect(reconcileResultOf(failed.error, 'status write failed')).toEqual({ error: expect.stringMatching(/status write failed: PUT .*500/) });
  });
});

describe('event recorder', () => {
  const listEvents = async (api: 'core' | 'events.k8s.io', name: string): Promise<Json[]> => {
    const r = await cluster.direct.list<KubeObject>(api === 'core' ? resources.events : resources.eventsV1, { namespace: 'default' });
    if (!r.ok) throw new Error(r.error.message);
    return (r.value.items as Json[]).filter((e) => (e.regarding ?? e.involvedObject)?.name === name);
  };

  it('writes events.k8s.io/v1 events with reason, action, note and the reporting controller', async () => {
    const job = await rayJob('ev-v1');
    const recorder = createEventRecorder({ client: cluster.client, component: 'rayjob-controller', instance: 'op-0' });
    recorder.event(job, 'Normal', 'CreatedRayCluster', 'Create', 'Created RayCluster default/ev-v1-abcde');
    await recorder.flush();
    const [ev] = await listEvents('events.k8s.io', 'ev-v1');
    expect(ev).toMatchObject({
      type: 'Normal', reason: 'CreatedRayCluster', action: 'Create', note: 'Created RayCluster default/ev-v1-abcde',
      reportingController: 'rayjob-controller', reportingInstance: 'op-0',
      regarding: { kind: 'RayJob', name: 'ev-v1', namespace: 'default', uid: job.metadata.uid },
    });
    expect(ev!.eventTime).toMatch(/\.\d{6}Z$/);
    // kubectl describe reads core/v1: the same event is visible there.
    const [core] = await listEvents('core', 'ev-v1');
    expect(core).toMatchObject({ reason: 'CreatedRayCluster', message: 'Created RayCluster default/ev-v1-abcde', involvedObject: { name: 'ev-v1' } });
  });

  it('aggregates repeats into one event with a count (core/v1 and series)', async () => {
    const clock = createFakeClock(Date.parse('2026-01-01T00:00:00Z'));
    for (const api of ['core', 'events.k8s.io'] as const) {
      const job = await rayJob(`ev-repeat-${api === 'core' ? 'core' : 'v1'}`);
      const recorder = createEventRecorder({ client: cluster.client, component: 'rayjob-controller', api, clock });
      for (let i = 0; i < 3; i++) {
        recorder.event(job, 'Warning', 'FailedToCreateRayCluster', 'Create', 'Failed to create RayCluster: boom');
        clock.advance(1000);
      }
      await recorder.flush();
      const events = await listEvents(api, job.metadata.name!);
      expect(events).toHaveLength(1);
      expect(api === 'core' ? events[0]!.count : events[0]!.series.count).toBe(3);
    }
  });

  it('combines more than 10 different notes for one reason into "(combined from similar events)"', async () => {
    const job = await rayJob('ev-similar');
    const recorder = createEventRecorder({ client: cluster.client, component: 'rayjob-controller', api: 'core' });
    for (let i = 0; i < 14; i++) recorder.event(job, 'Warning', 'FailedToCreateService', 'Create', `Failed to create the service default/svc, attempt ${i}`);
    await recorder.flush();
    const events = await listEvents('core', 'ev-similar');
    expect(events).toHaveLength(11);
    const combined = events.find((e) => e.message.startsWith('(combined from similar events): '));
    expect(combined?.count).toBe(4);
  });

  it('never throws into the caller when the API refuses an event', async () => {
    const job = await rayJob('ev-refused');
    cluster.proxy.fail({ status: 500, count: 1, match: /POST .*events/ });
    const recorder = createEventRecorder({ client: cluster.client, component: 'rayjob-controller' });
    recorder.event(job, 'Normal', 'CreatedRayJobSubmitter', 'Create', 'Created Kubernetes Job default/ev-refused');
    recorder.event(job, 'Normal', 'DeletedRayJobSubmitter', 'Delete', 'Deleted submitter K8s Job default/ev-refused');
    await recorder.flush();
    await eventually(async () => (await listEvents('events.k8s.io', 'ev-refused')).length === 1);
  });

  it('formats MicroTime with six fractional digits', () => {
    expect(microTime(Date.parse('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05.678000Z');
  });

  it('leaves an informer cache for the status writer to read from', async () => {
    // The intended use: read from the cache, write through the writer, see the change come back by watch.
    const informer = createInformer<RayJob>({ client: cluster.client, type: resources.rayJobs, namespace: 'default' });
    const stop = new AbortController();
    void informer.run(stop.signal);
    await informer.waitForSync(AbortSignal.timeout(10_000));
    await rayJob('via-cache');
    const cached = await eventually(() => informer.cache.getByName('default', 'via-cache'));
    const writer = createStatusWriter({ client: cluster.client, type: resources.rayJobs });
    expect((await writer.writeStatus(cached, { jobDeploymentStatus: 'Initializing' }))?.ok).toBe(true); // written
    await eventually(() => informer.cache.getByName('default', 'via-cache')?.status?.jobDeploymentStatus === 'Initializing');
    const fresh = informer.cache.getByName('default', 'via-cache')!;
    expect(await writer.writeStatus(fresh, { jobDeploymentStatus: 'Initializing' })).toBeUndefined(); // unchanged
    stop.abort();
  });
});
