import {
  gcsFaultToleranceKeys,
  hasRedisCleanupFinalizer,
  planGcsFtFinalizer,
  redisCleanupJobName,
  FINALIZER_REQUEUE_MS,
  HEAD_TERMINATING_REQUEUE_MS,
  type K8sJob,
  type Pod,
  type RayCluster,
  type RayClusterSettings,
} from '@rayjob/core';
import { describeError, isAlreadyExists, isNotFound, resources, type EventRecorder, type KubeClient, type KubeObject, type Logger, type OwnWrites, type ReconcileResult } from '@rayjob/kube-runtime';
import { recordRayClusterEvent } from './events.ts';

export interface FinalizerDeps {
  client: KubeClient;
  view: { pods(namespace: string, clusterName: string): Pod[] };
  settings: RayClusterSettings;
  events: EventRecorder;
  now: () => Date;
  /** Told about the finalizer's update: the next pass reads it until the cache shows it (no second update, no 409). */
  ownWrites: Pick<OwnWrites<KubeObject>, 'wrote'>;
}

/**
 * The GCS-FT Redis-cleanup finalizer's side of a pass (core's planGcsFtFinalizer decides): 'proceed' lets the
 * pass go on; anything else ends it with KubeRay's requeue.
 */
export async function reconcileGcsFtFinalizer(raw: KubeObject, cluster: RayCluster, deps: FinalizerDeps, log: Logger): Promise<ReconcileResult | 'proceed'> {
  const namespace = cluster.metadata.namespace ?? '';
  const name = cluster.metadata.name ?? '';
  let cleanupJob: K8sJob | undefined;
  if (cluster.metadata.deletionTimestamp && hasRedisCleanupFinalizer(cluster)) {
    const got = await deps.client.get<K8sJob>(resources.jobs, { namespace, name: redisCleanupJobName(cluster) });
    if (!got.ok && !isNotFound(got.error)) return retry(log, `reading the Redis cleanup Job: ${describeError(got.error)}`);
    cleanupJob = got.ok ? got.value : undefined;
  }
  const plan = planGcsFtFinalizer({ cluster, pods: deps.view.pods(namespace, name), cleanupJob, now: deps.now() }, deps.settings);
  for (const pod of plan.deletePods) {
    const deleted = await deps.client.delete(resources.pods, { namespace, name: pod });
    if (!deleted.ok && !isNotFound(deleted.error)) return retry(log, `deleting Pod ${pod}: ${describeError(deleted.error)}`);
  }
  const step = plan.step;
  switch (step.kind) {
    case 'proceed':
      return 'proceed';
    case 'addFinalizer':
    case 'removeFinalizer': {
      const have = cluster.metadata.finalizers ?? [];
      const finalizer = gcsFaultToleranceKeys.redisCleanupFinalizer;
      const finalizers = step.kind === 'addFinalizer' ? [...have, finalizer] : have.filter((f) => f !== finalizer);
      // An update, as KubeRay's (the operator's role may update RayClusters, not patch them); a conflict retries.
      const patched = await deps.client.replace(resources.rayClusters, { ...raw, metadata: { ...raw.metadata, finalizers } });
      if (!patched.ok) return retry(log, `${step.kind === 'addFinalizer' ? 'adding' : 'removing'} the finalizer ${finalizer}: ${describeError(patched.error)}`);
      deps.ownWrites.wrote(raw, patched.value);
      if (step.kind === 'addFinalizer') {
        log.info({ finalizer }, 'GCS fault tolerance is on: the Redis cleanup finalizer is added before anything else');
        return { requeueAfterMs: FINALIZER_REQUEUE_MS };
      }
      if (step.event) recordRayClusterEvent(deps.events, cluster, step.event);
      log.info({ why: step.why, jobCondition: step.jobCondition, redisCleanupJob: redisCleanupJobName(cluster) }, 'Redis cleanup finalizer removed');
      return undefined;
    }
    case 'waitForHead':
      log.info('Waiting for the head Pod to terminate before cleaning its storage namespace in Redis');
      return { requeueAfterMs: HEAD_TERMINATING_REQUEUE_MS };
    case 'waitForCleanupJob':
      return { requeueAfterMs: FINALIZER_REQUEUE_MS };
    case 'createCleanupJob': {
      const jobName = step.job.metadata.name ?? '';
      const created = await deps.client.create(resources.jobs, step.job, { namespace });
      if (!created.ok) {
        if (isAlreadyExists(created.error)) return { requeueAfterMs: FINALIZER_REQUEUE_MS };
        recordRayClusterEvent(deps.events, cluster, {
          type: 'Warning',
          reason: 'FailedToCreateRedisCleanupJob',
          action: 'Create',
          note: `Failed to create Redis cleanup Job ${namespace}/${jobName}, ${describeError(created.error)}`,
        });
        return retry(log, `creating the Redis cleanup Job: ${describeError(created.error)}`);
      }
      recordRayClusterEvent(deps.events, cluster, { type: 'Normal', reason: 'CreatedRedisCleanupJob', action: 'Create', note: `Created Redis cleanup Job ${namespace}/${jobName}` });
      return { requeueAfterMs: FINALIZER_REQUEUE_MS };
    }
  }
}

function retry(log: Logger, message: string): ReconcileResult {
  log.info({ error: message }, 'RayCluster reconcile did not finish');
  return { requeueAfterMs: FINALIZER_REQUEUE_MS };
}
