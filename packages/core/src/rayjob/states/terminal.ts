import { isTerminalRayJobStatus } from '../../contracts/termination-message.ts';
import type { Context, Ending } from '../context.ts';
import { markSubmittersAttachOnlyWhileActive } from '../running/attach-only-mark.ts';
import { observeSubmitter } from '../submitter-state.ts';
import { formatKubeTime } from '../../go-text/time-format.ts';
import { applyCleanupPolicies } from './cleanup-policies.ts';

/** After Ray acknowledged a stop, the job may take a while to end; look less often. */
const AFTER_STOP_POLL_SECONDS = 30;

/**
 * Complete and Failed are terminal: they are left only through Retrying (decided in the same reconcile that
 * entered Failed) or deletion. Here only three things happen: addition C (a Ray job still live under a Failed
 * RayJob is stopped, and its final status recorded once Ray reports it), addition H's attach-only mark while the
 * submitter Job is active, and the cleanup policies.
 */
export function decideTerminal(ctx: Context): Ending {
  markSubmittersAttachOnlyWhileActive(ctx);
  const waits = [stopLeftoverJob(ctx), applyCleanupPolicies(ctx)].filter((s): s is number => s !== undefined);
  return { kind: 'return', requeueSeconds: waits.length ? Math.min(...waits) : undefined };
}

/** What addition C decided for the Ray job under a terminal RayJob, as data (applied in one place below). */
interface LeftoverJobVerdict {
  stop: boolean;
  /** Ray's final status and end time, to record in jobStatus (one more status write). */
  record?: { status: 'STOPPED' | 'SUCCEEDED' | 'FAILED'; endTime: number | undefined };
  /** Nothing is left to stop: memory says so and the dashboard is no longer asked. */
  settled: boolean;
  requeueSeconds: number | undefined;
}

/**
 * Addition C, decided on Ray's fresh answer and the stop acknowledgement in memory, never on the CR's copy of
 * jobStatus: rule 4 and addition F write FAILED there while Ray may still run the job, and DeadlineExceeded can
 * be reached before any status was recorded. So a stop that failed is sent again on every reconcile until Ray
 * acknowledges it or reports the job terminal. The job is then settled and the dashboard left alone
 * (`needsDashboardQuery`), once no submitter is left that could submit it again (a pod retried by the Job
 * controller, or one that had not submitted when a deadline failed the RayJob).
 */
function judgeLeftoverJob(ctx: Context): LeftoverJobVerdict {
  const { status, input } = ctx;
  const jobId = status.jobId ?? '';
  const acknowledged = input.memory.stopAcknowledged?.jobId === jobId;
  const submitter = observeSubmitter(ctx);
  const submitterDone = !submitter.exists || submitter.missing || submitter.finishedAt !== undefined;
  const quiet = { stop: false, settled: false, requeueSeconds: undefined };
  const settled = { ...quiet, settled: submitterDone };
  switch (input.dashboard.kind) {
    case 'found': {
      const info = input.dashboard.info;
      // A verdict already written as terminal (rule 4's FAILED) is KubeRay's and stays.
      if (isTerminalRayJobStatus(info.status)) return { ...settled, record: isTerminalRayJobStatus(status.jobStatus) ? undefined : { status: info.status, endTime: info.endTime } };
      if (!acknowledged) return { ...quiet, stop: true, requeueSeconds: input.settings.requeueSeconds };
      // Ray leaves a stopped PENDING job PENDING; it stays recorded as such.
      return info.status === 'PENDING' ? settled : { ...quiet, requeueSeconds: AFTER_STOP_POLL_SECONDS };
    }
    case 'not-found':
      return settled;
    case 'unreachable':
      // The cluster is gone with the job; otherwise the head may come back: try again.
      return input.cluster ? { ...quiet, requeueSeconds: input.settings.requeueSeconds } : settled;
    case 'not-queried':
      return quiet;
  }
}

function stopLeftoverJob(ctx: Context): number | undefined {
  const { status } = ctx;
  const jobId = status.jobId;
  if (!jobId || !status.dashboardURL) return undefined;
  const verdict = judgeLeftoverJob(ctx);
  if (verdict.stop) ctx.actions.push({ type: 'stopRayJob', dashboardURL: status.dashboardURL, jobId, why: `the RayJob is ${status.jobDeploymentStatus}` });
  if (verdict.record) {
    // One more status write: the final status Ray reports (KubeRay leaves RUNNING: a listed difference).
    status.jobStatus = verdict.record.status;
    if (verdict.record.endTime) status.rayJobInfo = { ...(status.rayJobInfo ?? {}), endTime: formatKubeTime(new Date(verdict.record.endTime)) };
  }
  if (verdict.settled) ctx.memory.rayJobSettled = { jobId };
  return verdict.requeueSeconds;
}
