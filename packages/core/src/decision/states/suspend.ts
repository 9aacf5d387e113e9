import type { Context } from '../context.ts';

/** spec.suspend moves a live RayJob to Suspending; resources are then released atomically. */
export function suspendIfRequested(ctx: Context): boolean {
  if (!ctx.rayJob.spec.suspend) return false;
  ctx.status.jobDeploymentStatus = 'Suspending';
  ctx.notes.push('Suspend requested: transition to Suspending.');
  return true;
}
