import { describe, expect, it } from 'vitest';
import { statusEqual } from '../../src/rayjob/status-equality.ts';
import type { RayJobResourceStatus } from '../../src/schema/index.ts';

const base: RayJobResourceStatus = {
  jobDeploymentStatus: 'Running',
  jobStatus: 'RUNNING',
  rayClusterName: 'c',
  rayClusterStatus: { state: 'ready', lastUpdateTime: '2026-12-06T14:00:00Z', head: { podIP: '10.0.0.1', serviceIP: '10.0.0.2' } },
  conditions: [{ type: 'RayClusterProvisioned', status: 'True', reason: 'AllPodRunningAndReadyFirstTime', lastTransitionTime: '2026-12-06T14:00:00Z', message: '' }],
} as RayJobResourceStatus;
const cluster = base.rayClusterStatus!;

// The one equality that decides whether a RayJob status is written (no no-op writes, no missed change).
describe('RayJob status equality', () => {
  it.each<[string, RayJobResourceStatus, boolean]>([
    ['the same status rebuilt in another key order', { conditions: base.conditions, rayClusterStatus: { head: cluster.head, lastUpdateTime: cluster.lastUpdateTime, state: 'ready' }, rayClusterName: 'c', jobStatus: 'RUNNING', jobDeploymentStatus: 'Running' } as RayJobResourceStatus, true],
    ['an undefined field beside an absent one', { ...base, message: undefined }, true],
    ["only the RayCluster status' lastUpdateTime moved", { ...base, rayClusterStatus: { ...cluster, lastUpdateTime: '2026-12-06T15:00:00Z' } }, true],
    ['lastUpdateTime gone', { ...base, rayClusterStatus: { ...cluster, lastUpdateTime: undefined } }, true],
    ['a null beside an absent field', { ...base, message: null } as unknown as RayJobResourceStatus, false],
    ['the RayCluster state changed', { ...base, rayClusterStatus: { ...cluster, state: 'suspended' } } as RayJobResourceStatus, false],
    ['a nested field changed', { ...base, rayClusterStatus: { ...cluster, head: { ...cluster.head, podIP: '10.0.0.9' } } }, false],
    ['a condition reason changed', { ...base, conditions: [{ ...base.conditions![0]!, reason: 'RayClusterPodsProvisioning' }] } as RayJobResourceStatus, false],
    ['a condition added', { ...base, conditions: [...base.conditions!, { type: 'X', status: 'False', reason: 'Y', lastTransitionTime: '2026-12-06T14:00:00Z', message: '' }] } as RayJobResourceStatus, false],
    ['jobStatus changed', { ...base, jobStatus: 'SUCCEEDED' }, false],
  ])('%s: equal %s', (_what, other, equal) => {
    expect(statusEqual(base, other)).toBe(equal);
    expect(statusEqual(other, base)).toBe(equal);
  });
});
