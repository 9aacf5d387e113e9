import { isTerminalRayJobStatus } from '../contracts/termination-message.ts';
import type { RayJob } from '../schema/index.ts';
import type { DashboardJobInfo, OperatorMemory } from './inputs.ts';

/**
 * Which remote observations the next decision needs, so the operator asks the dashboard only when it matters
 * and never at all for the rest: in Running, and under a terminal RayJob while a Ray job may be left to stop
 * (addition C). A Failed RayJob's jobStatus may read FAILED (rule 4, F) or "" (a deadline reached before any
 * answer) while Ray still runs the job, so only memory (stop acknowledged, job settled) ends the questions;
 * after an operator restart each such RayJob is asked once.
 */
export function needsDashboardQuery(rayJob: RayJob, memory: OperatorMemory = {}): boolean {
  const status = rayJob.status;
  const jobId = status?.jobId;
  if (!jobId || !status.dashboardURL || rayJob.metadata.deletionTimestamp) return false;
  switch (status.jobDeploymentStatus) {
    case 'Running':
      return true;
    case 'Complete':
    case 'Failed': {
      if (memory.rayJobSettled?.jobId === jobId) return false;
      if (status.jobDeploymentStatus === 'Failed') return true;
      return !!status.jobStatus && !isTerminalRayJobStatus(status.jobStatus);
    }
    default:
      return false;
  }
}

/** Driver-node liveness matters only for a job Ray reports RUNNING with a known driver node (rules 4 and F). */
export function needsDriverNodeCheck(info: DashboardJobInfo | undefined): info is DashboardJobInfo & { driverNodeId: string } {
  return info?.status === 'RUNNING' && !!info.driverNodeId;
}
