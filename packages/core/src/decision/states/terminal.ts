import { isTerminalRayJobStatus } from '../../contracts/termination-message.ts';
import type { Context, Ending } from '../context.ts';
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

function stopLeftoverJob(ctx: Context): number | undefined {
  const { status, input } = ctx;
  const jobId = status.jobId;
  if (!jobId || !status.dashboardURL || !status.jobStatus || isTerminalRayJobStatus(status.jobStatus)) return undefined;
  const acknowledged = input.memory.stopAcknowledged?.jobId === jobId;
  switch (input.dashboard.kind) {
    case 'found': {
      const info = input.dashboard.info;
      if (isTerminalRayJobStatus(info.status)) {
        // One more status write: the final status Ray reports (KubeRay leaves RUNNING: a listed difference).
        status.jobStatus = info.status;
        if (info.endTime) status.rayJobInfo = { ...(status.rayJobInfo ?? {}), endTime: formatKubeTime(new Date(info.endTime)) };
        return undefined;
      }
      if (!acknowledged) {
        ctx.actions.push({ type: 'stopRayJob', dashboardURL: status.dashboardURL, jobId, why: `the RayJob is ${status.jobDeploymentStatus}` });
        return input.settings.requeueSeconds;
      }
      // Ray leaves a stopped PENDING job PENDING; it stays recorded as such.
      return info.status === 'PENDING' ? undefined : AFTER_STOP_POLL_SECONDS;
    }
    case 'unreachable':
      return input.cluster ? input.settings.requeueSeconds : undefined;
    case 'not-found':
    case 'not-queried':
      return undefined;
  }
}
