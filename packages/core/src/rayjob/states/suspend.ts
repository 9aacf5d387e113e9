import type { Context, Ending } from '../context.ts';
import { activeDeadlinePassed, failForActiveDeadline, failForPreRunningDeadline, preRunningDeadlinePassed } from '../deadlines.ts';

/** spec.suspend moves a live RayJob to Suspending; resources are then released atomically. */
export function suspendIfRequested(ctx: Context): boolean {
  if (!ctx.rayJob.spec.suspend) return false;
  ctx.status.jobDeploymentStatus = 'Suspending';
  ctx.notes.push('Suspend requested: transition to Suspending.');
  return true;
}

/**
 * The checks every phase before Running starts with, in KubeRay's order: suspend, activeDeadlineSeconds,
 * preRunningDeadlineSeconds. Returns how the reconcile ends when one fires.
 */
export function suspendOrDeadlineBeforeRunning(ctx: Context): Ending | undefined {
  if (suspendIfRequested(ctx)) return { kind: 'epilogue' };
  if (activeDeadlinePassed(ctx)) {
    failForActiveDeadline(ctx);
    return { kind: 'epilogue' };
  }
  if (preRunningDeadlinePassed(ctx)) {
    failForPreRunningDeadline(ctx);
    return { kind: 'epilogue' };
  }
  return undefined;
}
