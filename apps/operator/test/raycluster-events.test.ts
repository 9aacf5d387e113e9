// The RayCluster controller's events as `kubectl describe raycluster` shows KubeRay's: events.k8s.io/v1 from
// `raycluster-controller`, regarding the RayCluster, and an event KubeRay repeats every pass (a suspension's
// DeletedPod) counted in one event's series instead of piling up new objects.
import { createManager, systemClock, type KubeClient } from '@rayjob/kube-runtime';
import { describe, expect, it } from 'vitest';
import { rayClusterEventRecorder, recordRayClusterEvent } from '../src/controllers/raycluster/events.ts';

function scriptedClient() {
  const created: Record<string, unknown>[] = [];
  const patched: { name: string; body: Record<string, unknown> }[] = [];
  const client = {
    create: (_type: unknown, body: Record<string, unknown> & { metadata: { name: string; namespace: string } }) => {
      created.push(body);
      return Promise.resolve({ ok: true as const, value: body });
    },
    patch: (_type: unknown, ref: { name: string }, body: Record<string, unknown>) => {
      patched.push({ name: ref.name, body });
      return Promise.resolve({ ok: true as const, value: {} });
    },
    withSignal: () => client,
  } as unknown as KubeClient;
  return { client, created, patched };
}

/** The recorder the controller gets: the manager's, over `client`, at the times `now` gives. */
const recorderOver = (client: KubeClient, now: () => number) => rayClusterEventRecorder(createManager({ client, clock: { ...systemClock, now } }));

const suspension = { type: 'Normal' as const, reason: 'DeletedPod', action: 'Delete' as const, note: 'Deleted Pods for RayCluster default/c due to suspension' };
const regarding = { metadata: { namespace: 'default', name: 'c', uid: 'u-1', resourceVersion: '7' } };

describe('RayCluster events', () => {
  it('are KubeRay\'s events.k8s.io events regarding the RayCluster', async () => {
    const { client, created } = scriptedClient();
    const recorder = recorderOver(client, () => Date.parse('2026-12-03T10:00:00.123Z'));
    recordRayClusterEvent(recorder, regarding, { type: 'Normal', reason: 'CreatedHeadPod', action: 'Create', note: 'Created head Pod default/c-head-x' });
    await recorder.flush();
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { namespace: 'default', name: expect.stringMatching(/^c\.[0-9a-f]+$/) },
      eventTime: '2026-12-03T10:00:00.123000Z',
      reportingController: 'raycluster-controller',
      reportingInstance: expect.stringMatching(/^raycluster-controller-/),
      type: 'Normal',
      reason: 'CreatedHeadPod',
      action: 'Create',
      note: 'Created head Pod default/c-head-x',
      regarding: { apiVersion: 'ray.io/v1', kind: 'RayCluster', namespace: 'default', name: 'c', uid: 'u-1', resourceVersion: '7' },
    });
  });

  it('an event repeated on every pass is one event whose series counts the repeats', async () => {
    const { client, created, patched } = scriptedClient();
    let t = Date.parse('2026-12-03T10:00:00Z');
    const recorder = recorderOver(client, () => (t += 500));
    for (let i = 0; i < 4; i++) recordRayClusterEvent(recorder, regarding, suspension);
    await recorder.flush();
    expect(created).toHaveLength(1);
    expect(patched.map((p) => p.name)).toEqual([1, 2, 3].map(() => (created[0] as { metadata: { name: string } }).metadata.name));
    expect(patched.at(-1)!.body).toMatchObject({ series: { count: 4 } });
  });
});
