import { buildRayJobHeadService, headServiceIsCurrent } from '../../builders/head-service.ts';
import { buildSubmitRequest } from '../../builders/submit-request.ts';
import { submissionOptions } from '../../builders/submitter-command.ts';
import { isTerminalRayJobStatus } from '../../contracts/termination-message.ts';
import type { Context, Ending } from '../context.ts';
import { copyJson, transition } from '../context.ts';
import type { DashboardJobInfo } from '../inputs.ts';
import { formatKubeTime } from '../../go-text/time-format.ts';
import { recreateSubmitterJob } from './recreate-submitter.ts';
import type { RunningObservation } from './observation.ts';
import type { Verdict } from './rules.ts';

/**
 * The one place where Running's decision touches the draft: memory, what was observed (the fresh answer, the
 * status-check timer), then the verdict's transition and actions.
 */
export function applyVerdict(ctx: Context, o: RunningObservation, rule: string, verdict: Verdict): Ending {
  ctx.memory = o.memory;
  if (verdict.note) ctx.notes.push(verdict.note);
  if (verdict.wait) return { kind: 'return', requeueSeconds: ctx.input.settings.requeueSeconds };
  if (verdict.to === 'Suspending') {
    // Suspend is honoured before anything is observed (KubeRay): the release resets the attempt's fields anyway.
    ctx.status.jobDeploymentStatus = 'Suspending';
    return { kind: 'epilogue' };
  }
  recordObservation(ctx, o);
  if (verdict.to) {
    transition(ctx, verdict.to, verdict.reason, verdict.message, verdict.jobStatus);
    if (verdict.rayEndTime) ctx.status.rayJobInfo = { ...(ctx.status.rayJobInfo ?? {}), endTime: formatKubeTime(verdict.rayEndTime) };
    if (verdict.to === 'Failed') ctx.notes.push(`Running rule ${rule} failed the RayJob.`);
    if (verdict.stop && mayBeLive(o)) {
      ctx.actions.push({ type: 'stopRayJob', dashboardURL: ctx.status.dashboardURL ?? '', jobId: o.jobId, why: verdict.stop });
    }
    return { kind: 'epilogue' };
  }
  applyHeadService(ctx);
  if (verdict.recreateSubmitter) recreateSubmitterJob(ctx);
  if (verdict.submit) submitOverHttp(ctx);
  return { kind: 'epilogue' };
}

/** Mirrors the fresh answer into status, and keeps the status-check timer as observed. */
function recordObservation(ctx: Context, o: RunningObservation): void {
  if (o.fresh) recordJobInfo(ctx, o.fresh);
  if (o.checkFailingSince) {
    if (!ctx.status.jobStatusCheckFailureStartTime) {
      ctx.notes.push(`Job status check began failing: ${o.dashboard.kind === 'unreachable' ? o.dashboard.reason : 'the submission failed'}`);
      ctx.status.jobStatusCheckFailureStartTime = formatKubeTime(o.checkFailingSince);
    }
  } else {
    delete ctx.status.jobStatusCheckFailureStartTime;
  }
}

function recordJobInfo(ctx: Context, info: DashboardJobInfo): void {
  const { status } = ctx;
  status.jobStatus = info.status;
  if (info.message !== undefined) status.message = info.message;
  const rayJobInfo = { ...(status.rayJobInfo ?? {}) };
  if (info.startTime) rayJobInfo.startTime = formatKubeTime(new Date(info.startTime));
  if (info.endTime) rayJobInfo.endTime = formatKubeTime(new Date(info.endTime));
  if (Object.keys(rayJobInfo).length) status.rayJobInfo = rayJobInfo;
  delete status.reason;
  if (ctx.input.cluster?.status) status.rayClusterStatus = copyJson(ctx.input.cluster.status);
}

/**
 * Addition C: only a job that may still run is stopped: Ray says PENDING/RUNNING now, or (without an answer)
 * the last status seen was not terminal and nothing recorded its end. "Not found" has nothing to stop.
 */
export function mayBeLive(o: RunningObservation): boolean {
  if (!o.jobId) return false;
  if (o.fresh) return !isTerminalRayJobStatus(o.fresh.status);
  if (o.dashboard.kind === 'not-found' || o.recordedTerminal || !o.seen) return false;
  return !isTerminalRayJobStatus(o.seen.status);
}

/** The RayJob's head Service (not in clusterSelector mode): created, or re-pointed after a retry. */
function applyHeadService(ctx: Context): void {
  const cluster = ctx.input.cluster;
  if (ctx.clusterSelectorMode || !cluster) return;
  const existing = ctx.input.rayJobHeadService;
  if (existing && headServiceIsCurrent(existing, cluster)) return;
  const service = buildRayJobHeadService(ctx.rayJob, cluster, ctx.input.settings.enableRayHeadClusterIPService);
  ctx.actions.push({ type: 'applyHeadService', service, existing: existing ? 'stale' : 'absent' });
}

/** HTTPMode: the operator submits a job it never saw (addition H keeps a seen one from being submitted again). */
function submitOverHttp(ctx: Context): void {
  const { status } = ctx;
  const options = submissionOptions(ctx.rayJob);
  const request = options.ok ? buildSubmitRequest(status.jobId ?? '', options.value) : options;
  if (!request.ok) {
    ctx.notes.push(`Cannot build the submission: ${request.error}`);
    return;
  }
  ctx.actions.push({ type: 'submitRayJob', dashboardURL: status.dashboardURL ?? '', request: request.value });
}
