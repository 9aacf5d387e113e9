import { generatedName } from '../../builders/names.ts';
import { RAYJOB_FINALIZER, type Context, type Ending } from '../context.ts';

/**
 * New: add the finalizer and persist the names of this attempt (submission ID, cluster name) BEFORE anything
 * is created, so a failed or conflicting status write can never leak a second cluster or a second submission.
 */
export function decideNew(ctx: Context): Ending {
  const { rayJob, status } = ctx;
  if (!(rayJob.metadata.finalizers ?? []).includes(RAYJOB_FINALIZER)) {
    ctx.actions.push({ type: 'addFinalizer', finalizer: RAYJOB_FINALIZER });
  }
  if (ctx.mode !== 'InteractiveMode' && !status.jobId) {
    status.jobId = rayJob.spec.jobId || generatedName(ctx.name, ctx.input.random);
  }
  if (!status.rayClusterName) {
    status.rayClusterName = rayJob.spec.clusterSelector?.['ray.io/cluster'] || generatedName(ctx.name, ctx.input.random);
  }
  status.jobDeploymentStatus = 'Initializing';
  status.startTime = ctx.nowText;
  ctx.notes.push('initRayJobStatusIfNeed');
  // The status write itself triggers the next reconcile; no need to wait the default interval.
  return { kind: 'epilogue', requeueSeconds: 0 };
}
