// The executor's side of addition H's attach-only mark: create the submitter-state ConfigMap, merge the key into
// ours on 409, never touch someone else's, and never let a failed mark hold back the status write.
import { attachOnlyMarkOf, buildSubmitterStateConfigMap, type Decision, type RayJob } from '@rayjob/core';
import { describe, expect, it } from 'vitest';
import type { KubeClient, KubeResult } from '@rayjob/kube-runtime';
import { apiFailure, apiOk, executeDeps, executeOnce } from './support/rayjob-execute.ts';

const rayJob = { apiVersion: 'ray.io/v1', kind: 'RayJob', metadata: { name: 'rj', namespace: 'default', uid: 'uid-rj', resourceVersion: '7' }, spec: {} } as RayJob;
const mark = attachOnlyMarkOf(rayJob, 'rj-abcde', 'rj-fghij');
const configMap = buildSubmitterStateConfigMap(rayJob, mark);
const decision: Decision = {
  status: { jobDeploymentStatus: 'Running', jobStatus: 'RUNNING' },
  statusChanged: true,
  writeStatusFirst: false,
  actions: [{ type: 'markSubmittersAttachOnly', configMap, key: mark.key }],
  requeueAfterSeconds: 3,
  memory: {},
  notes: [],
  conditionEvents: [],
};

const conflict = apiFailure(409, 'AlreadyExists', 'already exists');
const ok = apiOk;

function fakeWriter(create: KubeResult<unknown>, existingOwner: string | undefined) {
  const calls: string[] = [];
  const client = {
    create: async () => (calls.push('create'), create),
    get: async () => (calls.push('read'), ok({ metadata: { name: mark.configMap, ownerReferences: existingOwner ? [{ uid: existingOwner, controller: true }] : [] } })),
    patch: async (_type: unknown, _ref: unknown, patch: object) => (calls.push(`patch ${JSON.stringify(patch)}`), ok({ metadata: {} })),
    replaceStatus: async (_type: unknown, j: RayJob) => (calls.push('status'), ok({ ...j, metadata: { ...j.metadata, resourceVersion: '8' } })),
  } as unknown as KubeClient;
  return { client, calls };
}

describe('the executor writes the attach-only mark', () => {
  it.each([
    { name: 'created', create: ok(configMap), owner: undefined, calls: ['create', 'status'], marked: true },
    { name: 'ours already (another attempt\'s key, or an operator restart): the key is merged in', create: conflict, owner: 'uid-rj', calls: ['create', 'read', `patch {"data":{"${mark.key}":"true"}}`, 'status'], marked: true },
    { name: 'someone else\'s ConfigMap of that name: left alone, asked again later', create: conflict, owner: 'uid-other', calls: ['create', 'read', 'status'], marked: false },
    { name: 'the API server fails: asked again later', create: apiFailure(500, 'InternalError', 'boom') as KubeResult<never>, owner: undefined, calls: ['create', 'status'], marked: false },
  ])('$name; the status is written either way', async ({ create, owner, calls, marked }) => {
    const fake = fakeWriter(create, owner);
    const logs: string[] = [];
    const outcome = await executeOnce(rayJob, decision, executeDeps(fake.client, { log: (m) => logs.push(m) }));
    expect(outcome.kind).toBe('done');
    expect(fake.calls).toEqual(calls);
    expect(outcome.memory.attachOnlyMarked).toEqual(marked ? { key: mark.key } : undefined);
    expect(logs.length).toBe(marked ? 0 : 1);
  });

  it('K8sJobMode, the submitter\'s head recorded by this operator (the ConfigMap is ours): one merge, no create', async () => {
    const fake = fakeWriter(conflict, 'uid-rj');
    const recorded: Decision = { ...decision, memory: { submitterHeadRecorded: { key: 'head-ip.rj-abcde.rj-fghij' } } };
    const outcome = await executeOnce(rayJob, recorded, executeDeps(fake.client));
    expect(fake.calls).toEqual([`patch {"data":{"${mark.key}":"true"}}`, 'status']);
    expect(outcome.memory.attachOnlyMarked).toEqual({ key: mark.key });
  });
});
