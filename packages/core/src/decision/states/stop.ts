import { isTerminalRayJobStatus } from '../../contracts/termination-message.ts';
import type { Context } from '../context.ts';
import type { DashboardJobInfo } from '../inputs.ts';

/**
 * Addition C: a RayJob that turns Failed while Ray may still run the job stops it, so no job runs on under a
 * terminal RayJob. Best effort here; the terminal state keeps retrying until Ray acknowledges or reports an end.
 */
export function stopIfLive(ctx: Context, fresh: DashboardJobInfo | undefined, why: string): void {
  const jobStatus = fresh?.status ?? ctx.status.jobStatus ?? '';
  const jobId = ctx.status.jobId;
  const dashboardURL = ctx.status.dashboardURL;
  if (!jobId || !dashboardURL || isTerminalRayJobStatus(jobStatus)) return;
  if (jobStatus === '' && !fresh) return; // never seen: nothing known to stop
  ctx.actions.push({ type: 'stopRayJob', dashboardURL, jobId, why });
}
