import { describe, expect, it } from 'vitest';
import type { Node } from '../../src/kube-objects/types.ts';
import { defaultNodeLifecycleTiming, desiredTaints, observeHealth, staleNodeConditions } from '../../src/node-lifecycle/decide.ts';

const node = (ready: 'True' | 'False' | 'Unknown' | undefined, heartbeat = 't1', taints: Node['spec'] = {}): Node => ({
  metadata: { name: 'n1', creationTimestamp: '2026-01-01T00:00:00Z' },
  spec: taints,
  status: { conditions: ready === undefined ? [] : [{ type: 'Ready', status: ready, reason: 'KubeletReady', lastHeartbeatTime: heartbeat, lastTransitionTime: 't0' }, { type: 'MemoryPressure', status: 'False', lastHeartbeatTime: heartbeat }] },
});
const lease = (renewTime: string) => ({ metadata: { name: 'n1' }, spec: { renewTime } });

describe('node health observation (local clock, never the kubelet\'s)', () => {
  it.each([
    { name: 'a node seen for the first time counts as just heard from', previous: undefined, heartbeat: 't1', renew: 'r1', expected: 1000 },
    { name: 'a new Ready heartbeat moves the probe time', previous: { probeTimestamp: 0, readyHeartbeat: 't0', leaseRenewTime: 'r1' }, heartbeat: 't1', renew: 'r1', expected: 1000 },
    { name: 'a renewed Lease alone moves the probe time', previous: { probeTimestamp: 0, readyHeartbeat: 't1', leaseRenewTime: 'r0' }, heartbeat: 't1', renew: 'r1', expected: 1000 },
    { name: 'nothing new keeps the old probe time', previous: { probeTimestamp: 0, readyHeartbeat: 't1', leaseRenewTime: 'r1' }, heartbeat: 't1', renew: 'r1', expected: 0 },
  ])('$name', ({ previous, heartbeat, renew, expected }) => {
    expect(observeHealth(previous, node('True', heartbeat), lease(renew), 1000).probeTimestamp).toBe(expected);
  });
});

describe('stale node conditions', () => {
  const health = { probeTimestamp: 0, readyHeartbeat: 't1', leaseRenewTime: 'r1' };
  it('leaves a node alone within the grace period', () => {
    expect(staleNodeConditions(node('True'), health, defaultNodeLifecycleTiming.gracePeriodMs, defaultNodeLifecycleTiming, 'now')).toBeUndefined();
  });
  it('marks Ready and the pressure conditions Unknown past the grace period, with kube-controller-manager\'s words', () => {
    const conditions = staleNodeConditions(node('True'), health, defaultNodeLifecycleTiming.gracePeriodMs + 1, defaultNodeLifecycleTiming, 'now') ?? [];
    expect(conditions.find((c) => c.type === 'Ready')).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: 'now', lastHeartbeatTime: 't1' });
    expect(conditions.find((c) => c.type === 'MemoryPressure')).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown' });
    expect(conditions.find((c) => c.type === 'DiskPressure')).toMatchObject({ status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' });
  });
  it('gives a node that never posted Ready the longer startup grace period', () => {
    const timing = defaultNodeLifecycleTiming;
    expect(staleNodeConditions(node(undefined), health, timing.gracePeriodMs + 1, timing, 'now')).toBeUndefined();
    expect(staleNodeConditions(node(undefined), health, timing.startupGracePeriodMs + 1, timing, 'now')?.find((c) => c.type === 'Ready')?.status).toBe('Unknown');
  });
  it('writes nothing for a node already Unknown', () => {
    expect(staleNodeConditions(node('Unknown'), health, 10 ** 9, defaultNodeLifecycleTiming, 'now')).toBeUndefined();
  });
});

describe('node taints', () => {
  it.each([
    { name: 'a Ready node carries none of the controller\'s taints', ready: 'True' as const, full: false, expected: [] },
    { name: 'an unreachable node in a cluster with healthy nodes: NoSchedule and NoExecute', ready: 'Unknown' as const, full: false, expected: ['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule'] },
    { name: 'full disruption (every node down): NoSchedule only, evictions stop', ready: 'Unknown' as const, full: true, expected: ['node.kubernetes.io/unreachable:NoSchedule'] },
    { name: 'a NotReady node gets the not-ready taints', ready: 'False' as const, full: false, expected: ['node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/not-ready:NoSchedule'] },
  ])('$name', ({ ready, full, expected }) => {
    const taints = desiredTaints(node(ready), full, 'now');
    expect(taints.map((t) => `${t.key}:${t.effect}`).sort()).toEqual(expected);
  });
  it('keeps taints others set and the time an existing NoExecute taint was added', () => {
    const tainted = node('Unknown', 't1', { taints: [{ key: 'dedicated', value: 'ray', effect: 'NoSchedule' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: 'earlier' }] });
    const taints = desiredTaints(tainted, false, 'now');
    expect(taints).toContainEqual({ key: 'dedicated', value: 'ray', effect: 'NoSchedule' });
    expect(taints).toContainEqual({ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: 'earlier' });
  });
  it('removes the unreachable taints once the node is Ready again', () => {
    const recovered = node('True', 't2', { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: 'x' }, { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }] });
    expect(desiredTaints(recovered, false, 'now')).toEqual([]);
  });
});
