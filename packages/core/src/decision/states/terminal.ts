import { isTerminalRayJobStatus } from '../../contracts/termination-message.ts';
import type { Context, Ending } from '../context.ts';
import { observeSubmitter } from '../submitter-state.ts';
import { formatKubeTime } from '../time-format.ts';
import { applyCleanupPolicies } from './cleanup-policies.ts';

/** After Ray acknowledged a stop, the job may take a while to end; look less often. */
const AFTER_STOP_POLL_SECONDS = 30;

/**
 * Complete and Failed are terminal: they are left only through Retrying (decided in the same reconcile that
 * entered Failed) or deletion. Here only two things happen: addition C (a Ray job still live under a Failed
 * RayJob is stopped, and its final status recorded once Ray reports it) and the cleanup policies.
 */
export function decideTerminal(ctx: Context): Ending {
  const waits = [stopLeftoverJob(ctx), applyCleanupPolicies(ctx)].filter((s): s is number => s !== undefined);
  return { kind: 'return', requeueSeconds: waits.length ? Math.min(...waits) : undefined };
}

/**
 * Addition C, decided on Ray's fresh answer and the stop acknowledgement in memory, never on the CR's copy of
 * jobStatus: rule 4 and addition F write FAILED there while Ray may still run the job, and DeadlineExceeded can
 * be reached before any status was recorded. So a stop that failed is sent again on every reconcile until Ray
 * acknowledges it or reports the job terminal. Memory then says the job is settled and the dashboard is left
 * alone (`needsDashboardQuery`), once no submitter is left that could submit it again.
 */
function stopLeftoverJob(ctx: Context): number | undefined {
  const { status, input } = ctx;
  const jobId = status.jobId;
  if (!jobId || !status.dashboardURL) return undefined;
  const acknowledged = input.memory.stopAcknowledged?.jobId === jobId;
  // Settled only once the submitter is done too: a submitter pod still alive (retried by the Job controller,
  // or one that never submitted before a deadline failed the RayJob) may submit the job again.
  const submitterDone = observeSubmitterDone(ctx);
  const settle = () => {
    if (submitterDone) ctx.memory.rayJobSettled = { jobId };
    return undefined;
  };
  switch (input.dashboard.kind) {
    case 'found': {
      const info = input.dashboard.info;
      if (isTerminalRayJobStatus(info.status)) {
        // One more status write: the final status Ray reports (KubeRay leaves RUNNING: a listed difference).
        // A verdict already written as terminal (rule 4's FAILED) is KubeRay's and stays.
        if (!isTerminalRayJobStatus(status.jobStatus)) {
          status.jobStatus = info.status;
          if (info.endTime) status.rayJobInfo = { ...(status.rayJobInfo ?? {}), endTime: formatKubeTime(new Date(info.endTime)) };
        }
        return settle();
      }
      if (!acknowledged) {
        ctx.actions.push({ type: 'stopRayJob', dashboardURL: status.dashboardURL, jobId, why: `the RayJob is ${status.jobDeploymentStatus}` });
        return input.settings.requeueSeconds;
      }
      // Ray leaves a stopped PENDING job PENDING; it stays recorded as such.
      return info.status === 'PENDING' ? settle() : AFTER_STOP_POLL_SECONDS;
    }
    case 'not-found':
      return settle();
    case 'unreachable':
      // The cluster is gone with the job; otherwise the head may come back: try again.
      return input.cluster ? input.settings.requeueSeconds : settle();
    case 'not-queried':
      return undefined;
  }
}

function observeSubmitterDone(ctx: Context): boolean {
  const submitter = observeSubmitter(ctx);
  return !submitter.exists || submitter.missing || submitter.finishedAt !== undefined;
}
