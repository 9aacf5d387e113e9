import type { Context, Ending } from '../context.ts';
import { suspendOrDeadlineBeforeRunning } from './suspend.ts';

/**
 * Waiting (InteractiveMode): the user submits the job and then sets spec.jobId. KubeRay checks only
 * preRunningDeadlineSeconds here; we also honour suspend and activeDeadlineSeconds (a listed difference), so
 * a forgotten interactive cluster can be reclaimed the same way as any other.
 */
export function decideWaiting(ctx: Context): Ending {
  const early = suspendOrDeadlineBeforeRunning(ctx);
  if (early) return early;
  const jobId = ctx.rayJob.spec.jobId;
  if (!jobId) return { kind: 'return', requeueSeconds: ctx.input.settings.requeueSeconds };
  ctx.status.jobId = jobId;
  ctx.status.jobDeploymentStatus = 'Running';
  return { kind: 'epilogue', requeueSeconds: 0 };
}
