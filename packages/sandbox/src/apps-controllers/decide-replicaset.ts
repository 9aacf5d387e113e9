// The ReplicaSet controller's decision, pure: how many pods to create, which to delete (not-ready and unscheduled
// first, then the newest, as kube-controller-manager ranks them), and the status to report.
import type { Pod } from '../kube-objects/types.ts';
import type { ReplicaSet } from './types.ts';
import { isPodReady, podAvailable, selectorMatches } from './types.ts';

export interface ReplicaSetDecision {
  create: number;
  /** Names of pods to delete. */
  delete: string[];
  status: NonNullable<ReplicaSet['status']>;
  /** Re-check after this long (a pod becomes available after minReadySeconds). */
  requeueAfterMs: number | undefined;
}

/** Deletion order: unscheduled before scheduled, pending before running, not ready before ready, newest first. */
function deletionRank(pod: Pod): [number, number, number, number] {
  const created = Date.parse(pod.metadata.creationTimestamp ?? '') || 0;
  return [pod.spec.nodeName ? 1 : 0, pod.status?.phase === 'Running' ? 1 : 0, isPodReady(pod) ? 1 : 0, -created];
}

const compareRanks = (a: number[], b: number[]): number => {
  for (let i = 0; i < a.length; i += 1) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};

/** `active`: the ReplicaSet's pods that are neither finished nor being deleted. */
export function decideReplicaSet(rs: ReplicaSet, active: Pod[], now: number): ReplicaSetDecision {
  const want = rs.spec.replicas ?? 1;
  const diff = want - active.length;
  const doomed = diff < 0 ? [...active].sort((a, b) => compareRanks(deletionRank(a), deletionRank(b))).slice(0, -diff) : [];
  const staying = active.filter((p) => !doomed.includes(p));
  const minReady = rs.spec.minReadySeconds ?? 0;
  const ready = staying.filter(isPodReady);
  const available = staying.filter((p) => podAvailable(p, minReady, now));
  const status: NonNullable<ReplicaSet['status']> = {
    replicas: staying.length,
    fullyLabeledReplicas: staying.filter((p) => selectorMatches({ matchLabels: rs.spec.template.metadata?.labels ?? {} }, p.metadata.labels)).length,
    readyReplicas: ready.length,
    availableReplicas: available.length,
    observedGeneration: rs.metadata.generation ?? 1,
  };
  const waiting = ready.length > available.length && minReady > 0;
  return { create: Math.max(0, diff), delete: doomed.map((p) => p.metadata.name ?? ''), status, requeueAfterMs: waiting ? 1000 : undefined };
}
