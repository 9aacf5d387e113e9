// A create the informer has not shown yet is not sent again: right after the operator creates a RayJob's
// RayCluster, a reconcile from a cache without it would POST it again and get 409 (plus a GET to adopt it).
import { defaultDecisionSettings, type K8sJob, type Pod, type RayCluster, type RayJob, type Service } from '@rayjob/core';
import { describe, expect, it } from 'vitest';
import { createStatusWriter, resources, silentLogger, type KubeClient, type KubeObject, type ResourceType } from '@rayjob/kube-runtime';
import type { DashboardClients } from '../src/controllers/rayjob/dashboards.ts';
import type { JobFollowers } from '../src/controllers/rayjob/job-followers.ts';
import { createNodeTables } from '../src/controllers/rayjob/node-tables.ts';
import type { ObjectView } from '../src/controllers/rayjob/observe.ts';
import { createRayJobState, reconcileRayJob } from '../src/controllers/rayjob/reconcile.ts';
import { kindOf, silentEvents } from './support/rayjob-execute.ts';

function setup() {
  const rayJob = {
    apiVersion: 'ray.io/v1', kind: 'RayJob',
    metadata: { name: 'made', namespace: 'default', uid: 'uid-made', resourceVersion: '5', generation: 1, finalizers: ['ray.io/rayjob-finalizer'] },
    spec: { entrypoint: 'echo hi', rayClusterSpec: { headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.58.0' }] } } } } },
    status: { jobId: 'made-abcde', rayClusterName: 'made-xyz12', jobDeploymentStatus: 'Initializing', startTime: '2026-12-03T10:00:00Z', observedGeneration: 1 },
  } as unknown as RayJob;
  const stored = new Map<string, KubeObject>();
  const posts: string[] = [];
  const client = {
    create: (_type: ResourceType, obj: KubeObject) => {
      const key = `${obj.kind}/${obj.metadata.name}`;
      posts.push(key);
      if (stored.has(key)) return Promise.resolve({ ok: false, error: { status: 409, reason: 'AlreadyExists', message: 'exists', method: 'POST', path: '/' } });
      stored.set(key, obj);
      return Promise.resolve({ ok: true, value: obj });
    },
    get: (type: ResourceType, ref: { name: string }) => Promise.resolve({ ok: true, value: stored.get(`${type.kind}/${ref.name}`) }),
    replaceStatus: (_type: ResourceType, next: RayJob) => Promise.resolve({ ok: true, value: next }),
  } as unknown as KubeClient;
  // What the informer shows: by default it lags and never shows the cluster.
  const cache = { cluster: undefined as RayCluster | undefined };
  const view: ObjectView = {
    rayJob: () => rayJob,
    rayCluster: () => cache.cluster,
    service: () => undefined as Service | undefined,
    job: () => undefined as K8sJob | undefined,
    pods: () => [] as Pod[],
  };
  const followers: JobFollowers = { follow: () => undefined, stop: () => undefined, isFollowing: () => false, budgetSpent: () => false, stopAll: () => Promise.resolve() };
  const deps = {
    view, client, status: createStatusWriter({ client, type: resources.rayJobs, changed: () => true }), events: silentEvents, followers,
    nodeTables: createNodeTables(), dashboards: {} as DashboardClients, settings: defaultDecisionSettings, runningPollSeconds: 60, state: createRayJobState(),
  };
  const reconciler = { reconcile: (namespace: string, name: string) => reconcileRayJob(namespace, name, deps, silentLogger) };
  return { reconciler, posts, stored, cache };
}

describe('creates the cache has not caught up with', () => {
  it('a RayCluster created by the last reconcile is not created again while the informer has not shown it', async () => {
    const { reconciler, posts } = setup();
    expect(kindOf(await reconciler.reconcile('default', 'made'))).toBe('done');
    expect(kindOf(await reconciler.reconcile('default', 'made'))).toBe('done');
    expect(posts).toEqual(['RayCluster/made-xyz12']);
  });

  it('once the informer has shown it, a RayCluster someone else deleted is created again at once (no wait for the expectation to expire)', async () => {
    const { reconciler, posts, stored, cache } = setup();
    await reconciler.reconcile('default', 'made');
    cache.cluster = stored.get('RayCluster/made-xyz12') as unknown as RayCluster;
    await reconciler.reconcile('default', 'made');
    // Deleted behind the operator's back (kubectl delete): the store and the cache lose it.
    stored.delete('RayCluster/made-xyz12');
    cache.cluster = undefined;
    await reconciler.reconcile('default', 'made');
    expect(posts).toEqual(['RayCluster/made-xyz12', 'RayCluster/made-xyz12']);
  });
});
