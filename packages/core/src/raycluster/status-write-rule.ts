import { sortedJson } from '../builders/sorted-json.ts';
import { findCondition, RAY_CLUSTER_CONDITION_TYPES as T } from '../conditions/condition-set.ts';
import type { Condition, RayClusterStatus } from '../schema/index.ts';

/**
 * When the RayCluster controller writes a computed status. KubeRay writes whenever `state`, `reason`, a replica
 * count, `endpoints`, `head` or `conditions` differ (kuberay-raycluster.md §9.4); the rest rides along. One
 * deliberate difference (docs/compatibility.md B5): a head pod that is only progressing through its start — its IP
 * assigned, HeadPodReady staying False with a reason that says "still starting" — is not written on its own. It is
 * written with the next change that is (the head turning ready, a failure reason such as ImagePullBackOff, a new
 * head pod, a worker), so a cluster coming up costs two status writes (the first pass; ready) instead of four, and
 * the RayJob that mirrors it two instead of four. Nothing reads the held-back fields in between: the RayJob
 * controller takes the head's IP from the live head pod (submitter-head.ts) and the dashboard URL from the head
 * Service; the RayJob's cluster conditions say the same "not ready" for every starting reason (rayjob/conditions).
 */
export function rayClusterStatusChanged(before: RayClusterStatus | undefined, after: RayClusterStatus): boolean {
  if (pick(before) === pick(after)) return false;
  return !(before && onlyHeadStarting(before, after));
}

/** The fields KubeRay compares (§9.4). */
function pick(s: RayClusterStatus | undefined, head = s?.head, conditions = s?.conditions): string {
  return sortedJson([
    s?.state ?? '',
    s?.reason ?? '',
    s?.readyWorkerReplicas ?? 0,
    s?.availableWorkerReplicas ?? 0,
    s?.desiredWorkerReplicas ?? 0,
    s?.minWorkerReplicas ?? 0,
    s?.maxWorkerReplicas ?? 0,
    s?.endpoints ?? {},
    head ?? {},
    conditions ?? [],
  ]);
}

/**
 * HeadPodReady reasons of a head pod that is still starting: no Ready condition yet (Unknown), containers being
 * created or initialized, or running but not yet passing their readiness probe. Any other reason (a container's
 * ImagePullBackOff, CrashLoopBackOff, ...) is news and is written at once.
 */
const STARTING_REASONS: ReadonlySet<string> = new Set(['Unknown', 'ContainerCreating', 'PodInitializing', 'ContainersNotReady']);

const starting = (c: Condition | undefined): boolean => c?.status === 'False' && STARTING_REASONS.has(c.reason);

/** `after` differs from `before` only by the same head pod's start: its IPs appearing, HeadPodReady still starting. */
function onlyHeadStarting(before: RayClusterStatus, after: RayClusterStatus): boolean {
  const was = before.head ?? {};
  const now = after.head ?? {};
  if (!was.podName || was.podName !== now.podName) return false;
  const appeared = (a: string | undefined, b: string | undefined) => a === b || (!a && !!b);
  if (!appeared(was.podIP, now.podIP) || !appeared(was.serviceIP, now.serviceIP)) return false;
  const oldReady = findCondition(before.conditions, T.headPodReady);
  const newReady = findCondition(after.conditions, T.headPodReady);
  if (oldReady !== newReady && !(starting(oldReady) && starting(newReady))) return false;
  // Everything else as before: the held-back head fields and HeadPodReady compared as they were.
  const conditions = (after.conditions ?? []).map((c) => (c.type === T.headPodReady && oldReady ? oldReady : c));
  return pick(before) === pick(after, was, conditions);
}
