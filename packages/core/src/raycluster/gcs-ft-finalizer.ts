import { gcsFaultToleranceKeys, gcsFtDeletionTimeoutSeconds, usesRedisGcsFaultTolerance } from '../builders/raycluster/gcs-fault-tolerance.ts';
import { buildRedisCleanupJob } from '../builders/raycluster/redis-cleanup-job.ts';
import { clusterSpecHash } from '../builders/raycluster/spec-hash.ts';
import type { RayClusterSettings } from '../builders/raycluster/settings.ts';
import { labelKeys } from '../builders/labels.ts';
import { goQuote } from '../go-text/quoting.ts';
import { formatGoDuration, parseKubeTime } from '../go-text/time-format.ts';
import type { K8sJob, Pod, RayCluster } from '../schema/index.ts';
import type { ClusterEvent } from './actions.ts';

/**
 * The Redis-cleanup finalizer of a GCS-FT RayCluster (reference §8), decided before anything else in a pass:
 * added before the cluster gets any child; on deletion, the Pods go first, then a cleanup Job deletes the cluster's
 * keys from Redis, and the finalizer is dropped when the Job finishes either way, or once the deletion is older
 * than `ray.io/gcs-ft-deletion-timeout` (300 s) with KubeRay's Warning `ForceDeletedStuckCluster`.
 */

export const FINALIZER_REQUEUE_MS = 2_000;
/** A head Pod takes far longer than 2 s to terminate: KubeRay looks again after 10 s. */
export const HEAD_TERMINATING_REQUEUE_MS = 10_000;

export interface GcsFtFinalizerInput {
  cluster: RayCluster;
  /** The cluster's Pods from the cache (cleanup Job Pods are ignored here). */
  pods: readonly Pod[];
  /** `<cluster>-redis-cleanup` if it exists. Read only when the cluster is being deleted. */
  cleanupJob: K8sJob | undefined;
  now: Date;
}


export type GcsFtStep =
  /** Nothing to do here: the pass goes on (or, for a deleting cluster, ends as KubeRay's "just ignore"). */
  | { kind: 'proceed' }
  | { kind: 'addFinalizer' }
  | { kind: 'removeFinalizer'; why: 'cleanup-finished' | 'timed-out' | 'not-redis-ft' | 'cleanup-disabled'; jobCondition?: 'Complete' | 'Failed'; event?: ClusterEvent }
  /** The head Pod is still there: Redis is cleaned only once its GCS can no longer write. */
  | { kind: 'waitForHead' }
  | { kind: 'createCleanupJob'; job: K8sJob }
  | { kind: 'waitForCleanupJob' };

export interface GcsFtPlan {
  /** Head and worker Pods to delete first (a deleting FT cluster deletes its Pods itself, every pass). */
  deletePods: string[];
  step: GcsFtStep;
}

export const hasRedisCleanupFinalizer = (cluster: RayCluster): boolean =>
  (cluster.metadata.finalizers ?? []).includes(gcsFaultToleranceKeys.redisCleanupFinalizer);

const nodeTypeOf = (pod: Pod) => pod.metadata.labels?.[labelKeys.nodeType];

/** KubeRay's IsJobFinished: a Complete or Failed condition that is True. */
export function finishedJobCondition(job: K8sJob | undefined): 'Complete' | 'Failed' | undefined {
  const done = job?.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  return done?.type as 'Complete' | 'Failed' | undefined;
}

export function planGcsFtFinalizer(input: GcsFtFinalizerInput, settings: RayClusterSettings): GcsFtPlan {
  const { cluster } = input;
  const plan = (step: GcsFtStep, deletePods: string[] = []): GcsFtPlan => ({ deletePods, step });
  const deleting = cluster.metadata.deletionTimestamp !== undefined && cluster.metadata.deletionTimestamp !== null;
  const redisFt = usesRedisGcsFaultTolerance(cluster);
  if (!deleting) return plan(settings.enableGcsFtRedisCleanup && redisFt && !hasRedisCleanupFinalizer(cluster) ? { kind: 'addFinalizer' } : { kind: 'proceed' });
  if (!hasRedisCleanupFinalizer(cluster)) return plan({ kind: 'proceed' });
  // KubeRay drops a stale finalizer only for the embedded backend and otherwise leaves the cluster Terminating
  // for good; here a finalizer nobody will act on (FT turned off, or cleanup disabled) is dropped too.
  if (!redisFt) return plan({ kind: 'removeFinalizer', why: 'not-redis-ft' });
  if (!settings.enableGcsFtRedisCleanup) return plan({ kind: 'removeFinalizer', why: 'cleanup-disabled' });

  const rayPods = input.pods.filter((p) => nodeTypeOf(p) === 'head' || nodeTypeOf(p) === 'worker');
  const deletePods = rayPods.filter((p) => !p.metadata.deletionTimestamp).map((p) => p.metadata.name ?? '');
  if (rayPods.some((p) => nodeTypeOf(p) === 'head')) return plan({ kind: 'waitForHead' }, deletePods);
  const since = parseKubeTime(cluster.metadata.deletionTimestamp ?? undefined) ?? input.now;
  const ageMs = input.now.getTime() - since.getTime();
  if (ageMs >= gcsFtDeletionTimeoutSeconds(cluster) * 1000) {
    const namespace = cluster.metadata.annotations?.[gcsFaultToleranceKeys.externalStorageNamespaceAnnotation] ?? '';
    const note = `Force-removed GCS FT finalizer after ${formatGoDuration(ageMs)} due to Redis cleanup timeout; Redis storage namespace ${goQuote(namespace)} may need manual cleanup`;
    return plan({ kind: 'removeFinalizer', why: 'timed-out', event: { type: 'Warning', reason: 'ForceDeletedStuckCluster', action: 'Cleanup', note } }, deletePods);
  }
  if (input.cleanupJob !== undefined) {
    const condition = finishedJobCondition(input.cleanupJob);
    return plan(condition ? { kind: 'removeFinalizer', why: 'cleanup-finished', jobCondition: condition } : { kind: 'waitForCleanupJob' }, deletePods);
  }
  return plan({ kind: 'createCleanupJob', job: buildRedisCleanupJob(cluster, settings, clusterSpecHash(cluster.spec)) }, deletePods);
}
