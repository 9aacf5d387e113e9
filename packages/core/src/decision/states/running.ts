import { buildRayJobHeadService, headServiceIsCurrent } from '../../builders/head-service.ts';
import { buildSubmitRequest } from '../../builders/submit-request.ts';
import { buildSubmitterJob } from '../../builders/submitter-job.ts';
import { submissionOptions } from '../../builders/submitter-command.ts';
import { isTerminalRayJobStatus } from '../../contracts/termination-message.ts';
import type { JobStatus } from '../../schema/index.ts';
import type { Context, Ending } from '../context.ts';
import { copyJson, emit, transition } from '../context.ts';
import { activeDeadlinePassed, failForActiveDeadline } from '../deadlines.ts';
import type { DashboardJobInfo } from '../inputs.ts';
import { eventNotes, messages } from '../messages.ts';
import { observeSubmitter, type SubmitterState } from '../submitter-state.ts';
import { addSeconds, formatKubeTime, parseKubeTime } from '../time-format.ts';
import { stopIfLive } from './stop.ts';
import { suspendIfRequested } from './suspend.ts';

/**
 * Running, in the order of status-correctness.md (addition E): suspend first; then observe (the fresh job
 * status and the driver node's liveness are inputs); then the timers, judged on what was observed; then the
 * submitter's claims, which are evidence only before the job was seen RUNNING; then the dashboard's answer.
 */
export function decideRunning(ctx: Context): Ending {
  if (suspendIfRequested(ctx)) return { kind: 'epilogue' };
  const { input, status } = ctx;
  const fresh = input.dashboard.kind === 'found' ? input.dashboard.info : undefined;
  const submitter = observeSubmitter(ctx);

  // The cluster vanished under a live job. KubeRay silently recreates it under the same name, where the job
  // no longer exists; we say what happened (a listed difference). Retries (backoffLimit) start a fresh attempt.
  if (!input.cluster && !ctx.clusterSelectorMode) {
    transition(ctx, 'Failed', 'AppFailed', messages.clusterDeleted(ctx.namespace, status.rayClusterName ?? ''));
    return { kind: 'epilogue' };
  }

  // Rule 1, activeDeadlineSeconds, against Ray's own end time when Ray reports the job ended (addition E).
  if (activeDeadlinePassed(ctx, fresh && isTerminalRayJobStatus(fresh.status) ? fresh.endTime : undefined)) {
    failForActiveDeadline(ctx);
    stopIfLive(ctx, fresh, 'activeDeadlineSeconds passed');
    return { kind: 'epilogue' };
  }
  if (transitionGracePeriodPassed(ctx, fresh, submitter)) return { kind: 'epilogue' };

  applyHeadService(ctx);

  // Rule 6: SidecarMode without a head pod. The head is not recreated, so the job is gone.
  if (submitter.headPodMissing) {
    transition(ctx, 'Failed', 'AppFailed', messages.headPodNotFound);
    return { kind: 'epilogue' };
  }
  if (submitter.multipleHeads) {
    ctx.notes.push('found multiple heads; waiting for the RayCluster controller to settle');
    return { kind: 'return', requeueSeconds: input.settings.requeueSeconds };
  }

  // Rule 2: a submitter failure is evidence only before the job was seen RUNNING. A terminal status Ray reports
  // now wins over the submitter's claim too (normal mapping below: the submitter has finished).
  const known: JobStatus = fresh?.status ?? status.jobStatus ?? '';
  if (submitter.failure && known !== 'RUNNING' && !(fresh && isTerminalRayJobStatus(fresh.status))) {
    ctx.notes.push('The submitter has failed. Attempting to transition the status to `Failed`.');
    if (known === 'FAILED') transition(ctx, 'Failed', 'AppFailed', undefined);
    else transition(ctx, 'Failed', 'SubmissionFailed', submitter.failure.message);
    if (fresh) status.jobStatus = fresh.status;
    stopIfLive(ctx, fresh, 'the submitter failed before the job ran');
    return { kind: 'epilogue' };
  }

  switch (input.dashboard.kind) {
    case 'not-found':
      return jobNotFound(ctx, submitter);
    case 'unreachable':
      return dashboardUnreachable(ctx, submitter, input.dashboard.reason);
    case 'not-queried':
      return { kind: 'return', requeueSeconds: input.settings.requeueSeconds };
    case 'found':
      return jobFound(ctx, input.dashboard.info, submitter);
  }
}

/**
 * Rule 1's grace period: Ray reports the job terminal, yet the submitter has not finished 300 s after Ray's end
 * time. Only judged while the submitter is still running: a finished one lets the normal mapping report the
 * real result instead (addition E).
 */
function transitionGracePeriodPassed(ctx: Context, fresh: DashboardJobInfo | undefined, submitter: SubmitterState): boolean {
  const jobStatus = fresh?.status ?? ctx.status.jobStatus;
  if (!isTerminalRayJobStatus(jobStatus)) return false;
  const end = fresh?.endTime ? new Date(fresh.endTime) : parseKubeTime(ctx.status.rayJobInfo?.endTime);
  if (!end) return false;
  if (!submitter.exists || submitter.finishedAt || submitter.missing) return false;
  if (ctx.now.getTime() < addSeconds(end, ctx.input.settings.transitionGracePeriodSeconds).getTime()) return false;
  ctx.notes.push('JobDeploymentStatus does not transition to Complete or Failed within the grace period.');
  if (fresh) recordJobInfo(ctx, fresh);
  transition(ctx, jobStatus === 'FAILED' ? 'Failed' : 'Complete', 'JobDeploymentStatusTransitionGracePeriodExceeded', messages.transitionGracePeriod, jobStatus);
  return true;
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

/** Rule 3, "not found". */
function jobNotFound(ctx: Context, submitter: SubmitterState): Ending {
  const requeue = ctx.input.settings.requeueSeconds;
  if (ctx.mode === 'HTTPMode') return submitOverHttp(ctx);
  if (ctx.mode === 'InteractiveMode') return { kind: 'return', requeueSeconds: requeue };
  if (submitter.finishedAt) {
    // Addition A, precedence: the head was lost after the job ended; the submitter saw the end.
    if (fromTerminationMessage(ctx, submitter)) return { kind: 'epilogue' };
    transition(ctx, 'Failed', 'AppFailed', messages.jobNotFoundAfterSubmitter);
    return { kind: 'epilogue' };
  }
  recreateSubmitterIfMissing(ctx, submitter);
  clearStatusCheckFailure(ctx);
  return { kind: 'return', requeueSeconds: requeue };
}

/** HTTPMode: the operator submits; a failed submission counts as a failed status check (KubeRay). */
function submitOverHttp(ctx: Context): Ending {
  const { status, input } = ctx;
  const jobId = status.jobId ?? '';
  const failure = input.memory.submitFailure?.jobId === jobId ? input.memory.submitFailure : undefined;
  if (failure) {
    const timedOut = statusCheckTimedOut(ctx);
    if (timedOut) return timedOut;
    if (!status.jobStatusCheckFailureStartTime) status.jobStatusCheckFailureStartTime = failure.at;
  }
  const options = submissionOptions(ctx.rayJob);
  const request = options.ok ? buildSubmitRequest(jobId, options.value) : options;
  if (!request.ok) {
    ctx.notes.push(`Cannot build the submission: ${request.error}`);
    return { kind: 'epilogue' };
  }
  ctx.notes.push('The Ray job was not found. Submit a Ray job via an HTTP request.');
  ctx.actions.push({ type: 'submitRayJob', dashboardURL: status.dashboardURL ?? '', request: request.value });
  return { kind: 'epilogue' };
}

/** Rule 3, "unreachable": record when checks began failing; rule 1's status-check timeout is the backstop. */
function dashboardUnreachable(ctx: Context, submitter: SubmitterState, reason: string): Ending {
  // Addition A: the dashboard cannot answer, but the submitter recorded the job's end for this submission.
  if (submitter.finishedAt && fromTerminationMessage(ctx, submitter)) return { kind: 'epilogue' };
  const timedOut = statusCheckTimedOut(ctx);
  if (timedOut) return timedOut;
  recreateSubmitterIfMissing(ctx, submitter);
  if (!ctx.status.jobStatusCheckFailureStartTime) {
    ctx.notes.push(`Job status check began failing: ${reason}`);
    ctx.status.jobStatusCheckFailureStartTime = ctx.nowText;
    return { kind: 'epilogue' };
  }
  return { kind: 'return', requeueSeconds: ctx.input.settings.requeueSeconds };
}

/** The status-check timeout, counted from the first failed check that was observed. */
function statusCheckTimedOut(ctx: Context): Ending | undefined {
  const since = parseKubeTime(ctx.status.jobStatusCheckFailureStartTime);
  const timeout = ctx.input.settings.statusCheckTimeoutSeconds;
  if (!since || ctx.now.getTime() < addSeconds(since, timeout).getTime()) return undefined;
  ctx.notes.push('Job status check timeout exceeded.');
  transition(ctx, 'Failed', 'JobStatusCheckTimeoutExceeded', messages.statusCheckTimeout(since, timeout));
  stopIfLive(ctx, undefined, 'job status checks timed out');
  return { kind: 'epilogue' };
}

function clearStatusCheckFailure(ctx: Context): void {
  delete ctx.status.jobStatusCheckFailureStartTime;
}

/** Addition A: a terminal status from our submitter's termination message, for this submission ID. */
function fromTerminationMessage(ctx: Context, submitter: SubmitterState): boolean {
  const last = submitter.terminationMessage?.lastStatus;
  if (!isTerminalRayJobStatus(last)) return false;
  const message = messages.fromTerminationMessage(last);
  if (submitter.terminationMessage?.endTime) ctx.status.rayJobInfo = { ...(ctx.status.rayJobInfo ?? {}), endTime: formatKubeTime(new Date(submitter.terminationMessage.endTime)) };
  if (last === 'FAILED') transition(ctx, 'Failed', 'AppFailed', message, last);
  else transition(ctx, 'Complete', undefined, message, last);
  clearStatusCheckFailure(ctx);
  return true;
}

/** Addition B: the submitter Job was deleted by hand while the job is not terminal. It re-attaches. */
function recreateSubmitterIfMissing(ctx: Context, submitter: SubmitterState): void {
  if (ctx.mode !== 'K8sJobMode' || !submitter.missing || !ctx.input.cluster) return;
  const options = submissionOptions(ctx.rayJob);
  if (!options.ok) return;
  ctx.actions.push({
    type: 'createSubmitterJob',
    recreated: true,
    job: buildSubmitterJob({
      rayJob: ctx.rayJob,
      dashboardURL: ctx.status.dashboardURL ?? '',
      jobId: ctx.status.jobId ?? '',
      clusterName: ctx.status.rayClusterName ?? '',
      clusterSpec: ctx.input.cluster.spec,
      options: options.value,
      settings: ctx.input.settings,
    }),
  });
  emit(ctx, { type: 'Normal', reason: 'CreatedRayJobSubmitter', action: 'Create', note: eventNotes.recreatedSubmitter(ctx.namespace, ctx.name) });
}

/** The dashboard answered: rules 4, F and 5. */
function jobFound(ctx: Context, info: DashboardJobInfo, submitter: SubmitterState): Ending {
  const { status, input } = ctx;
  clearStatusCheckFailure(ctx);
  recordJobInfo(ctx, info);
  const terminal = isTerminalRayJobStatus(info.status);

  if (!terminal) {
    // Rule F: Ray says RUNNING but the driver's node is gone (ray#65037). Counted on the operator's own clock.
    const lost = driverLost(ctx, info);
    // Rule 4: the submitter finished 30 s ago and nothing shows the job alive.
    if (submitter.finishedAt && ctx.now.getTime() >= addSeconds(submitter.finishedAt, input.settings.submitterFinishedTimeoutSeconds).getTime()) {
      if (!(info.status === 'RUNNING' && driverMayBeAlive(ctx, info))) {
        ctx.notes.push('The RayJob has passed the submitterFinishedTimeoutSeconds and the job shows no sign of life.');
        transition(ctx, 'Failed', 'JobDeploymentStatusTransitionGracePeriodExceeded',
          messages.submitterFinishedTimeout(submitter.finishedAt, input.settings.submitterFinishedTimeoutSeconds), 'FAILED');
        stopIfLive(ctx, info, 'the submitter finished and the job shows no sign of life');
        return { kind: 'epilogue' };
      }
    }
    if (lost) {
      transition(ctx, 'Failed', 'JobDeploymentStatusTransitionGracePeriodExceeded', messages.driverLost(lost.nodeId, lost.since, input.settings.driverLostAfterSeconds), 'FAILED');
      stopIfLive(ctx, info, 'the driver node is lost');
      return { kind: 'epilogue' };
    }
    recreateSubmitterIfMissing(ctx, submitter);
    return { kind: 'epilogue' };
  }

  // Rule 5: terminal only once the submitter finished (#1919: let it print the last logs). A submitter Job that
  // was deleted has nothing left to wait for.
  const submitterDone = !submitter.exists || submitter.missing || submitter.finishedAt !== undefined;
  if (!submitterDone) return { kind: 'epilogue' };
  if (info.status === 'FAILED') transition(ctx, 'Failed', 'AppFailed', info.message ?? status.message);
  else transition(ctx, 'Complete', undefined, info.message ?? status.message);
  return { kind: 'epilogue' };
}

/** Mirrors the fresh answer into status: jobStatus, message, Ray's times and the cluster's status. */
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

/** Alive, or we cannot tell: "inconclusive is not dead". Only a conclusive DEAD or missing answer counts. */
function driverMayBeAlive(ctx: Context, info: DashboardJobInfo): boolean {
  if (!info.driverNodeId) return false;
  const node = ctx.input.driverNode;
  return node.kind === 'alive' || node.kind === 'inconclusive' || node.kind === 'not-checked';
}

/**
 * Addition F. Remembers (in operator memory) since when the driver's node has been seen DEAD or missing, and
 * reports it lost once that has lasted `driverLostAfterSeconds`. Any other answer resets the clock.
 */
function driverLost(ctx: Context, info: DashboardJobInfo): { nodeId: string; since: Date } | undefined {
  const node = ctx.input.driverNode;
  const jobId = ctx.status.jobId ?? '';
  if (info.status !== 'RUNNING' || !info.driverNodeId || (node.kind !== 'dead' && node.kind !== 'missing') || node.nodeId !== info.driverNodeId) {
    if (node.kind !== 'not-checked') delete ctx.memory.driverNodeLostSince;
    return undefined;
  }
  const seen = ctx.memory.driverNodeLostSince;
  const since = seen && seen.jobId === jobId && seen.nodeId === node.nodeId ? new Date(seen.since) : ctx.now;
  ctx.memory.driverNodeLostSince = { jobId, nodeId: node.nodeId, since: since.toISOString() };
  if (ctx.now.getTime() < addSeconds(since, ctx.input.settings.driverLostAfterSeconds).getTime()) return undefined;
  return { nodeId: node.nodeId, since };
}
