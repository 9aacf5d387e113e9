// A RayJob reconciled again before the watch brings back its own last write (an owned object's event, a requeue)
// decides from that write (kube-runtime's own writes), not from the older cached copy: the write is not repeated
// from a resourceVersion the server has moved past (409), and what the write recorded (the cluster's generated
// name) is not decided a second time.
import { defaultDecisionSettings, type K8sJob, type Pod, type RayCluster, type RayJob, type Service } from '@rayjob/core';
import { describe, expect, it } from 'vitest';
import { createStatusWriter, resources, silentLogger, type KubeClient, type KubeObject, type ResourceType } from '@rayjob/kube-runtime';
import type { DashboardClients } from '../src/controllers/rayjob/dashboards.ts';
import type { JobFollowers } from '../src/controllers/rayjob/job-followers.ts';
import { createNodeTables } from '../src/controllers/rayjob/node-tables.ts';
import type { ObjectView } from '../src/controllers/rayjob/observe.ts';
import { createRayJobState, reconcileRayJob } from '../src/controllers/rayjob/reconcile.ts';
import { silentEvents } from './support/rayjob-execute.ts';

const conflict = { ok: false as const, error: { status: 409, reason: 'Conflict', message: 'the object has been modified', method: 'PUT', path: '/' } };

/** An API server holding one RayJob (writes carry a resourceVersion precondition) and a cache that lags it. */
function world() {
  let rv = 5;
  let server = {
    apiVersion: 'ray.io/v1', kind: 'RayJob',
    metadata: { name: 'lag', namespace: 'default', uid: 'uid-lag', resourceVersion: String(rv), generation: 1 },
    spec: { entrypoint: 'echo hi', rayClusterSpec: { headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.58.0' }] } } } } },
  } as unknown as RayJob & KubeObject;
  const history = new Map<string, RayJob & KubeObject>([[String(rv), server]]);
  const calls: string[] = [];
  const store = (next: RayJob & KubeObject) => {
    server = { ...next, metadata: { ...next.metadata, resourceVersion: String(++rv) } };
    history.set(String(rv), server);
    return { ok: true as const, value: server };
  };
  const client = {
    replaceStatus: (_t: ResourceType, next: RayJob & KubeObject) => {
      const ok = next.metadata.resourceVersion === server.metadata.resourceVersion;
      calls.push(`PUT status ${ok ? 200 : 409}`);
      return Promise.resolve(ok ? store({ ...server, status: next.status } as RayJob & KubeObject) : conflict);
    },
    patch: (_t: ResourceType, _ref: unknown, body: { metadata: { finalizers: string[]; resourceVersion?: string } }) => {
      const ok = body.metadata.resourceVersion === server.metadata.resourceVersion;
      calls.push(`PATCH finalizers ${ok ? 200 : 409}`);
      return Promise.resolve(ok ? store({ ...server, metadata: { ...server.metadata, finalizers: body.metadata.finalizers } }) : conflict);
    },
    create: (_t: ResourceType, obj: KubeObject) => {
      calls.push(`POST ${obj.kind} ${obj.metadata.name}`);
      return Promise.resolve({ ok: true, value: obj });
    },
  } as unknown as KubeClient;
  // The informer: it shows the version `cache.at` names (it lags the server until the test moves it).
  const cache = { at: String(rv) };
  const view: ObjectView = {
    rayJob: () => history.get(cache.at),
    rayCluster: () => undefined as RayCluster | undefined,
    service: () => undefined as Service | undefined,
    job: () => undefined as K8sJob | undefined,
    pods: () => [] as Pod[],
  };
  const followers: JobFollowers = { follow: () => undefined, stop: () => undefined, isFollowing: () => false, budgetSpent: () => false, stopAll: () => Promise.resolve() };
  const state = createRayJobState();
  const deps = {
    view, client, status: createStatusWriter({ client, type: resources.rayJobs, changed: () => true }), events: silentEvents, followers,
    nodeTables: createNodeTables(), dashboards: {} as DashboardClients, settings: defaultDecisionSettings, runningPollSeconds: 60, state,
  };
  return {
    reconcile: () => reconcileRayJob('default', 'lag', deps, silentLogger),
    calls,
    state,
    server: () => server,
    catchUp: () => void (cache.at = server.metadata.resourceVersion ?? ''),
    delete: () => void (cache.at = 'gone'),
  };
}

describe('a RayJob reconciled while the cache lags its own writes', () => {
  it.each([
    ['the cache never shows the writes before the next passes', 0],
    ['the cache catches up after the first pass', 1],
  ])('%s: each write is sent once, none fails, one RayCluster name is decided', async (_label, catchUpAfter) => {
    const w = world();
    for (let pass = 0; pass < 4; pass += 1) {
      await w.reconcile();
      if (pass + 1 === catchUpAfter) w.catchUp();
    }
    expect(w.calls.filter((c) => c.endsWith(' 409'))).toEqual([]);
    const clusters = w.calls.filter((c) => c.startsWith('POST RayCluster'));
    expect(clusters).toEqual([`POST RayCluster ${w.server().status?.rayClusterName}`]);
    expect(w.calls.filter((c) => c.startsWith('PATCH finalizers'))).toHaveLength(1);
  });

  it('the memory of the writes goes once the cache shows the last one', async () => {
    const w = world();
    await w.reconcile();
    expect(w.state.ownWrites.size()).toBe(1);
    w.catchUp();
    await w.reconcile(); // reads the cache (caught up), and may write once more from it
    w.catchUp();
    await w.reconcile();
    expect(w.state.ownWrites.size()).toBe(0);
  });

  it('the memory of the writes goes with the RayJob', async () => {
    const w = world();
    await w.reconcile();
    expect(w.state.ownWrites.size()).toBe(1);
    w.delete();
    await w.reconcile();
    expect(w.state.ownWrites.size()).toBe(0);
  });
});
