// The RayCluster executor against a scripted client: order, first-failure stop, events, expectations.
import { buildHeadPod, defaultRayClusterSettings, RayClusterSchema, type ClusterAction, type ClusterEvent, type Pod } from '@rayjob/core';
import type { KubeClient, KubeError } from '@rayjob/kube-runtime';
import { describe, expect, it } from 'vitest';
import { execute as executeActions } from '../src/controllers/raycluster/execute.ts';

const cluster = RayClusterSchema.parse({
  metadata: { name: 'c', namespace: 'ns', uid: 'u' },
  spec: { headGroupSpec: { template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray' }] } } } },
});
const error = (status: number, reason: string): KubeError => ({ status, reason, message: `${reason} happened`, method: 'X', path: '/p' });
const pod = (name: string, group: string, type = 'worker'): Pod => ({ metadata: { name, namespace: 'ns', labels: { 'ray.io/group': group, 'ray.io/node-type': type } } });

function harness(fail: Record<string, KubeError> = {}) {
  const calls: string[] = [];
  const events: ClusterEvent[] = [];
  const expected: string[] = [];
  const answer = (call: string, value: unknown) => {
    calls.push(call);
    const e = fail[call];
    return Promise.resolve(e ? { ok: false as const, error: e } : { ok: true as const, value });
  };
  const client = {
    create: (type: { kind: string }, body: { metadata: { name?: string; generateName?: string } }) =>
      answer(`create ${type.kind} ${body.metadata.name ?? body.metadata.generateName}`, { ...body, metadata: { ...body.metadata, name: body.metadata.name ?? `${body.metadata.generateName}x1` } }),
    delete: (type: { kind: string }, ref: { name: string }) => answer(`delete ${type.kind} ${ref.name}`, undefined),
    patch: (type: { kind: string }, ref: { name: string }) => answer(`patch ${type.kind} ${ref.name}`, {}),
  } as unknown as KubeClient;
  const ctx = {
    client,
    cluster,
    pods: [pod('w1', 'a'), pod('w2', 'b'), pod('h', 'headgroup', 'head')],
    events: { event: (_r: unknown, type: 'Normal' | 'Warning', reason: string, action: string, note: string) => void events.push({ type, reason, action, note } as ClusterEvent), flush: async () => undefined, stats: () => ({ remembered: 0, similarGroups: 0, queued: 0, dropped: 0 }) },
    expect: (e: { group: string; podName: string; action: string }) => void expected.push(`${e.action} ${e.group}/${e.podName}`),
    forgetExpectations: () => void expected.push('forget'),
    randomBytes: (n: number) => new Uint8Array(n),
  };
  return { ctx, calls, events, expected };
}

const createHead: ClusterAction = {
  type: 'createPod', group: '', pod: buildHeadPod(cluster, defaultRayClusterSettings, { specHash: 'h' }),
  failure: { reason: 'FailedToCreateHeadPod', note: 'Failed to create head Pod ns/', marker: 'FailedCreateHeadPod' },
};
const deleteWorker = (name: string, ignoreNotFound: boolean): ClusterAction => ({
  type: 'deletePod', group: 'a', name, ignoreNotFound,
  success: { type: 'Normal', reason: 'DeletedWorkerPod', action: 'Delete', note: `Deleted pod ns/${name}` },
  failure: { reason: 'FailedToDeleteWorkerPod', note: `Failed deleting pod ns/${name}`, marker: 'FailedDeleteWorkerPod' },
});

describe('executeActions', () => {
  it('creates, records the created name as an expectation and emits KubeRay\'s event', async () => {
    const h = harness();
    expect(await executeActions([createHead, deleteWorker('w1', false)], h.ctx)).toBeUndefined();
    expect(h.calls).toEqual(['create Pod c-head-', 'delete Pod w1']);
    expect(h.expected).toEqual(['create /c-head-x1', 'delete a/w1']);
    expect(h.events.map((e) => `${e.reason}: ${e.note}`)).toEqual(['CreatedHeadPod: Created head Pod ns/c-head-x1', 'DeletedWorkerPod: Deleted pod ns/w1']);
  });
  it('stops at the first failure: Warning event with the API error, the ReplicaFailure marker returned', async () => {
    const h = harness({ 'create Pod c-head-': error(403, 'Forbidden') });
    const result = await executeActions([createHead, deleteWorker('w1', false)], h.ctx);
    expect(result).toEqual({ message: expect.stringContaining('Forbidden'), marker: 'FailedCreateHeadPod' });
    expect(h.calls).toEqual(['create Pod c-head-']);
    expect(h.events).toEqual([{ type: 'Warning', reason: 'FailedToCreateHeadPod', action: 'Create', note: expect.stringMatching(/^Failed to create head Pod ns\/, .*Forbidden/) }]);
  });
  it.each([
    [true, undefined],
    [false, 'FailedDeleteWorkerPod'],
  ])('a NotFound delete with ignoreNotFound=%s -> marker %s', async (ignore, marker) => {
    const h = harness({ 'delete Pod gone': error(404, 'NotFound') });
    const result = await executeActions([deleteWorker('gone', ignore)], h.ctx);
    expect(result?.marker).toBe(marker);
    expect(h.expected).toEqual([]);
  });
  it('deleteAllPods of a group deletes only that group\'s worker Pods; of the cluster, every Pod', async () => {
    const action = (group?: string): ClusterAction => ({
      type: 'deleteAllPods', ...(group && { group }), forgetExpectations: group === undefined,
      success: { type: 'Normal', reason: 'DeletedPod', action: 'Delete', note: 'n' }, failure: { reason: 'FailedToDeletePodCollection', note: 'f', marker: 'FailedDeleteAllPods' },
    });
    const one = harness();
    await executeActions([action('a')], one.ctx);
    expect(one.calls).toEqual(['delete Pod w1']);
    const all = harness();
    await executeActions([action()], all.ctx);
    expect(all.calls).toEqual(['delete Pod w1', 'delete Pod w2', 'delete Pod h']);
    expect(all.expected).toEqual(['forget']);
  });
  it('an existing Service or Secret counts as created; the auth token comes from the given random bytes', async () => {
    const h = harness({ 'create Service c-head-svc': error(409, 'AlreadyExists') });
    const svc = { metadata: { name: 'c-head-svc' } };
    expect(await executeActions([{ type: 'createService', role: 'head', service: svc }, { type: 'createAuthSecret', name: 'c' }], h.ctx)).toBeUndefined();
    expect(h.calls).toEqual(['create Service c-head-svc', 'create Secret c']);
    expect(h.events).toEqual([]);
  });
});
