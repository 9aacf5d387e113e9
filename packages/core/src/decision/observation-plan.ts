import { isTerminalRayJobStatus } from '../contracts/termination-message.ts';
import type { RayJob } from '../schema/index.ts';
import type { DashboardJobInfo } from './inputs.ts';

/**
 * Which remote observations the next decision needs, so the operator asks the dashboard only when it matters
 * (Running, or a live job left under a terminal RayJob: addition C) and never at all for the rest.
 */
export function needsDashboardQuery(rayJob: RayJob): boolean {
  const status = rayJob.status;
  if (!status?.jobId || !status.dashboardURL || rayJob.metadata.deletionTimestamp) return false;
  switch (status.jobDeploymentStatus) {
    case 'Running':
      return true;
    case 'Complete':
    case 'Failed':
      return !!status.jobStatus && !isTerminalRayJobStatus(status.jobStatus);
    default:
      return false;
  }
}

/** Driver-node liveness matters only for a job Ray reports RUNNING with a known driver node (rules 4 and F). */
export function needsDriverNodeCheck(info: DashboardJobInfo | undefined): info is DashboardJobInfo & { driverNodeId: string } {
  return info?.status === 'RUNNING' && !!info.driverNodeId;
}
