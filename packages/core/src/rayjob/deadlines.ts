import type { Context } from './context.ts';
import { transition } from './context.ts';
import { messages } from './messages.ts';
import { addSeconds, parseKubeTime } from '../go-text/time-format.ts';

/**
 * activeDeadlineSeconds, measured from status.startTime (reset per attempt, as KubeRay). Addition E: a Ray job
 * that Ray reports terminal with an end time inside the deadline ended in time, even if nobody looked until
 * later; the caller passes that end time.
 */
export function activeDeadlinePassed(ctx: Context, rayEndTimeMs?: number): boolean {
  const seconds = ctx.rayJob.spec.activeDeadlineSeconds;
  const start = parseKubeTime(ctx.status.startTime);
  if (seconds === undefined || seconds === null || !start) return false;
  const deadline = addSeconds(start, seconds);
  if (rayEndTimeMs !== undefined && rayEndTimeMs > 0 && rayEndTimeMs <= deadline.getTime()) return false;
  return ctx.now.getTime() >= deadline.getTime();
}

export function failForActiveDeadline(ctx: Context): void {
  const start = parseKubeTime(ctx.status.startTime) as Date;
  const seconds = ctx.rayJob.spec.activeDeadlineSeconds as number;
  ctx.notes.push('The RayJob has passed the activeDeadlineSeconds.');
  transition(ctx, 'Failed', 'DeadlineExceeded', messages.activeDeadline(start, seconds));
}

export function preRunningDeadlinePassed(ctx: Context): boolean {
  const seconds = ctx.rayJob.spec.preRunningDeadlineSeconds;
  const start = parseKubeTime(ctx.status.startTime);
  if (seconds === undefined || seconds === null || !start) return false;
  return ctx.now.getTime() >= addSeconds(start, seconds).getTime();
}

export function failForPreRunningDeadline(ctx: Context): void {
  const start = parseKubeTime(ctx.status.startTime) as Date;
  const seconds = ctx.rayJob.spec.preRunningDeadlineSeconds as number;
  ctx.notes.push('The RayJob has passed the preRunningDeadlineSeconds.');
  transition(ctx, 'Failed', 'PreRunningDeadlineExceeded', messages.preRunningDeadline(start, seconds));
}

/** Seconds until the nearest deadline of the current phase, so a requeue lands on it rather than after it. */
export function secondsUntilDeadline(ctx: Context, includePreRunning: boolean): number | undefined {
  const start = parseKubeTime(ctx.status.startTime);
  if (!start) return undefined;
  const limits = [ctx.rayJob.spec.activeDeadlineSeconds, includePreRunning ? ctx.rayJob.spec.preRunningDeadlineSeconds : undefined]
    .filter((s): s is number => typeof s === 'number')
    .map((s) => (addSeconds(start, s).getTime() - ctx.now.getTime()) / 1000)
    .filter((s) => s > 0);
  return limits.length ? Math.min(...limits) : undefined;
}
