import { isTerminalRayJobStatus } from '../../contracts/termination-message.ts';
import { RAYJOB_FINALIZER, type Context, type Ending } from '../context.ts';

/**
 * The RayJob is being deleted: stop a Ray job that may still run (best effort; it never blocks deletion, unlike
 * KubeRay where a missing auth Secret keeps the finalizer forever), then release the finalizer. Owned children
 * go by garbage collection.
 */
export function decideDeletion(ctx: Context): Ending {
  if (!(ctx.rayJob.metadata.finalizers ?? []).includes(RAYJOB_FINALIZER)) return { kind: 'return', requeueSeconds: undefined };
  const { jobId, dashboardURL, jobStatus } = ctx.status;
  // Only a job that was ever initialised has something to stop (KubeRay calls StopJob with empty IDs too).
  if (jobId && dashboardURL && !isTerminalRayJobStatus(jobStatus)) {
    ctx.actions.push({ type: 'stopRayJob', dashboardURL, jobId, why: 'the RayJob is being deleted' });
  }
  ctx.notes.push('Remove the finalizer no matter StopJob() succeeds or not.');
  ctx.actions.push({ type: 'removeFinalizer', finalizer: RAYJOB_FINALIZER });
  return { kind: 'return', requeueSeconds: undefined };
}
