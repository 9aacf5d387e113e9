// A delete the informer has not shown yet is not sent again: after the RayJob controller deletes its RayCluster
// (or submitter Job), a pass from a cache that still shows the object would DELETE it again and meet a 404 (or a
// no-op on an object its finalizers hold). The expectation goes once the watch shows the delete.
import type { Decision, RayJob } from '@rayjob/core';
import { describe, expect, it } from 'vitest';
import { createExpectations, type KubeClient } from '@rayjob/kube-runtime';
import { apiFailure, apiOk, executeDeps, executeOnce } from './support/rayjob-execute.ts';

const rayJob = { apiVersion: 'ray.io/v1', kind: 'RayJob', metadata: { name: 'rj', namespace: 'default', uid: 'uid-rj', resourceVersion: '7' }, spec: {} } as RayJob;
const decision = (action: Decision['actions'][number]): Decision => ({
  status: { jobDeploymentStatus: 'Complete', jobStatus: 'SUCCEEDED' },
  statusChanged: false,
  writeStatusFirst: false,
  actions: [action],
  requeueAfterSeconds: undefined,
  memory: {},
  notes: [],
  conditionEvents: [],
});

function fakeDeleter() {
  const deletes: string[] = [];
  const gone = new Set<string>();
  const client = {
    delete: async (type: { kind: string }, ref: { name: string }) => {
      deletes.push(`${type.kind}/${ref.name}`);
      if (gone.has(ref.name)) return apiFailure(404, 'NotFound');
      gone.add(ref.name);
      return apiOk({});
    },
  } as unknown as KubeClient;
  return { client, deletes };
}

describe('deletes the cache has not caught up with', () => {
  it.each([
    { what: 'the RayCluster', action: { type: 'deleteCluster', name: 'rj-abcde' } as const, sent: 'RayCluster/rj-abcde', kind: 'RayCluster' },
    { what: 'the submitter Job', action: { type: 'deleteSubmitterJob', name: 'rj' } as const, sent: 'Job/rj', kind: 'Job' },
  ])('$what deleted by the last pass is not deleted again while the informer still shows it; once the watch shows it gone, a new one is', async ({ action, sent, kind }) => {
    const { client, deletes } = fakeDeleter();
    const expectations = createExpectations();
    const deps = executeDeps(client, { expectations });
    expect((await executeOnce(rayJob, decision(action), deps)).kind).toBe('done');
    expect((await executeOnce(rayJob, decision(action), deps)).kind).toBe('done');
    expect(deletes).toEqual([sent]);
    expectations.observeDeleted({ kind, namespace: 'default', name: action.name });
    expect((await executeOnce(rayJob, decision(action), deps)).kind).toBe('done');
    expect(deletes).toEqual([sent, sent]);
  });
});
