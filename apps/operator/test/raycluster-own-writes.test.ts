// A RayCluster reconciled again before the watch brings back its own last write (a Pod event right after the
// status write, a requeue after adding the GCS FT finalizer) decides from that write (kube-runtime's own writes),
// not from the older cached copy: no write is repeated from a resourceVersion the server has moved past (409).
import { defaultRayClusterSettings, defaultValidationSettings, rayClusterStatusChanged, type Pod, type RayCluster, type Service } from '@rayjob/core';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { createExpectations, createOwnWrites, createStatusWriter, resources, silentLogger, type KubeClient, type KubeObject, type ResourceType } from '@rayjob/kube-runtime';
import { createRayClusterMetrics } from '../src/controllers/raycluster/metrics.ts';
import { reconcileRayCluster, type ReconcileDeps } from '../src/controllers/raycluster/reconcile.ts';
import { silentEvents } from './support/rayjob-execute.ts';

const conflict = (method: string) => ({ ok: false as const, error: { status: 409, reason: 'Conflict', message: 'the object has been modified', method, path: '/' } });
const notFound = { ok: false as const, error: { status: 404, reason: 'NotFound', message: 'not found', method: 'GET', path: '/' } };

/**
 * An API server holding one RayCluster (its writes carry a resourceVersion precondition), a cluster cache that
 * lags it until the test moves it, and Pod and Service caches that show what was created at once.
 */
function world(spec: Record<string, unknown> = {}) {
  let rv = 5;
  let server = {
    apiVersion: 'ray.io/v1', kind: 'RayCluster',
    metadata: { name: 'lag', namespace: 'default', uid: 'uid-lag', resourceVersion: String(rv), generation: 1, creationTimestamp: '2026-12-06T10:00:00Z' },
    spec: { headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.58.0' }] } } }, ...spec },
  } as KubeObject & { status?: unknown };
  const history = new Map<string, KubeObject>([[String(rv), server]]);
  const calls: string[] = [];
  const created = { pods: [] as Pod[], services: [] as Service[] };
  const store = (next: KubeObject & { status?: unknown }) => {
    server = { ...next, metadata: { ...next.metadata, resourceVersion: String(++rv) } };
    history.set(String(rv), server);
    return { ok: true as const, value: server };
  };
  const precondition = (method: string, what: string, sent: KubeObject) => {
    const ok = sent.metadata.resourceVersion === server.metadata.resourceVersion;
    calls.push(`${method} ${what} ${ok ? 200 : 409}`);
    return ok;
  };
  const client = {
    replaceStatus: (_t: ResourceType, next: KubeObject & { status?: unknown }) =>
      Promise.resolve(precondition('PUT', 'status', next) ? store({ ...server, status: next.status }) : conflict('PUT')),
    replace: (_t: ResourceType, next: KubeObject) =>
      Promise.resolve(precondition('PUT', 'RayCluster', next) ? store({ ...server, metadata: { ...server.metadata, finalizers: next.metadata.finalizers } }) : conflict('PUT')),
    create: (type: ResourceType, obj: KubeObject) => {
      calls.push(`POST ${type.kind}`);
      const made = { ...obj, metadata: { ...obj.metadata, name: obj.metadata.name ?? `${obj.metadata.generateName ?? ''}x1`, uid: `uid-${calls.length}`, resourceVersion: '1' } };
      if (type.kind === 'Pod') created.pods.push(made as Pod);
      if (type.kind === 'Service') created.services.push(made as Service);
      return Promise.resolve({ ok: true, value: made });
    },
    get: () => Promise.resolve(notFound),
    list: () => Promise.resolve({ ok: true, value: { items: [], metadata: {} } }),
    delete: () => Promise.resolve({ ok: true, value: {} }),
  } as unknown as KubeClient;
  const cache = { at: String(rv) };
  const ownWrites = createOwnWrites<KubeObject>();
  const deps: ReconcileDeps = {
    view: {
      cluster: () => history.get(cache.at),
      pods: () => created.pods,
      servicesByLabels: () => created.services,
      service: (_ns, name) => created.services.find((s) => s.metadata.name === name),
    },
    client,
    status: createStatusWriter({ client, type: resources.rayClusters, changed: (before, after) => rayClusterStatusChanged(before as RayCluster['status'], after as NonNullable<RayCluster['status']>) }),
    events: silentEvents,
    settings: defaultRayClusterSettings,
    validation: defaultValidationSettings,
    managedBy: 'ray.io/kuberay-operator',
    metrics: createRayClusterMetrics(new Registry(), () => []),
    expectations: createExpectations(),
    now: () => new Date('2026-12-06T10:00:01Z'),
    randomBytes: (size) => new Uint8Array(size).fill(7),
    idleRequeueMs: 300_000,
    ownWrites,
  };
  return {
    reconcile: () => reconcileRayCluster('default', 'lag', deps, silentLogger),
    calls,
    ownWrites,
    catchUp: () => void (cache.at = server.metadata.resourceVersion ?? ''),
  };
}

describe('a RayCluster reconciled while the cache lags its own writes', () => {
  it.each<[string, Record<string, unknown>, string[]]>([
    ['a Pod event right after the status write: the status is not written again', {}, ['POST Service', 'POST Pod', 'PUT status 200']],
    [
      'a requeue after the GCS FT finalizer was added: it is not added again, and the pass goes on from it',
      { gcsFaultToleranceOptions: { redisAddress: 'redis:6379' } },
      ['PUT RayCluster 200', 'POST Service', 'POST Pod', 'PUT status 200'],
    ],
  ])('%s', async (_label, spec, writes) => {
    const w = world(spec);
    for (let pass = 0; pass < 4; pass += 1) await w.reconcile();
    expect(w.calls).toEqual(writes);
    expect(w.ownWrites.size()).toBe(1);
    w.catchUp();
    await w.reconcile();
    expect(w.ownWrites.size()).toBe(0);
    expect(w.calls).toEqual(writes);
  });
});
