import type { Condition } from '../schema/index.ts';

export type ConditionInput = Pick<Condition, 'type' | 'status' | 'reason' | 'message'> & { observedGeneration?: number };

/** apimachinery's meta.SetStatusCondition / RemoveStatusCondition / IsStatusConditionTrue, on plain arrays. */

export const RAY_CLUSTER_CONDITION_TYPES = {
  headPodReady: 'HeadPodReady',
  provisioned: 'RayClusterProvisioned',
  replicaFailure: 'ReplicaFailure',
  suspending: 'RayClusterSuspending',
  suspended: 'RayClusterSuspended',
} as const;

export const findCondition = (conditions: readonly Condition[] | undefined, type: string): Condition | undefined =>
  conditions?.find((c) => c.type === type);

export const isConditionTrue = (conditions: readonly Condition[] | undefined, type: string): boolean =>
  findCondition(conditions, type)?.status === 'True';

/** Replaces the condition of that type; lastTransitionTime moves only when the status changes. */
export function setCondition(conditions: Condition[], next: ConditionInput, now: string): void {
  const index = conditions.findIndex((c) => c.type === next.type);
  const existing = conditions[index];
  if (!existing) {
    conditions.push({ ...next, lastTransitionTime: now });
    return;
  }
  conditions[index] = {
    ...existing,
    status: next.status,
    reason: next.reason,
    message: next.message,
    ...(next.observedGeneration !== undefined && { observedGeneration: next.observedGeneration }),
    lastTransitionTime: existing.status === next.status ? existing.lastTransitionTime : now,
  };
}

export function removeCondition(conditions: Condition[], type: string): void {
  const index = conditions.findIndex((c) => c.type === type);
  if (index >= 0) conditions.splice(index, 1);
}

/** RayClusterSuspending or RayClusterSuspended if one is True (KubeRay's FindRayClusterSuspendStatus), else "". */
export function suspendStatus(conditions: readonly Condition[] | undefined): string {
  const found = (conditions ?? []).find(
    (c) => (c.type === RAY_CLUSTER_CONDITION_TYPES.suspending || c.type === RAY_CLUSTER_CONDITION_TYPES.suspended) && c.status === 'True',
  );
  return found?.type ?? '';
}
