import { isTerminalRayJobStatus } from '../../contracts/termination-message.ts';
import type { JobStatus, SubmissionMode } from '../../schema/index.ts';
import type { Context } from '../context.ts';
import type { DashboardJobInfo, DashboardObservation, DriverNodeObservation, OperatorMemory } from '../inputs.ts';
import type { DecisionSettings } from '../settings.ts';
import { observeSubmitter, type SubmitterState } from '../submitter-state.ts';
import { addSeconds, parseKubeTime } from '../../go-text/time-format.ts';
import { gcsFaultToleranceOf, withGcsFaultToleranceWaits } from './gcs-fault-tolerance.ts';

type TerminalStatus = 'STOPPED' | 'SUCCEEDED' | 'FAILED';

/**
 * Everything Running's rules read, gathered once per reconcile (addition E: observe before judging). The rules
 * are pure functions of this value; the next operator memory is computed here too, so it changes in one place.
 */
export interface RunningObservation {
  mode: SubmissionMode;
  clusterSelectorMode: boolean;
  now: Date;
  settings: DecisionSettings;
  suspendRequested: boolean;
  jobId: string;
  namespace: string;
  clusterName: string;
  clusterExists: boolean;
  dashboard: DashboardObservation;
  /** The dashboard's answer of this reconcile, when it had one. */
  fresh: DashboardJobInfo | undefined;
  driverNode: DriverNodeObservation;
  submitter: SubmitterState;
  /**
   * The submitter can report nothing new: there is none, it finished, its Job is gone or being deleted, or what
   * it reports from is gone (SidecarMode: the head pod it lives in is missing or terminating; any mode: the
   * RayCluster is deleted or being deleted). #1919's wait for its last logs is then over.
   */
  submitterDone: boolean;
  /** The last Ray status of this job: fresh, else the CR's copy, else memory (a status write may have been lost). */
  seen: { status: JobStatus } | undefined;
  /** The CR's copy of Ray's status (may lag: rule 2 reads the fresh one first). */
  recordedJobStatus: JobStatus;
  /**
   * A terminal status that survives the head, used only when the dashboard did not answer with the job (a fresh
   * answer beats both): the status the CR recorded from an earlier answer of Ray's, else our submitter's
   * termination message for this submission ID (addition A).
   */
  recordedTerminal: { status: TerminalStatus; endTime: Date | undefined; source: 'termination-message' | 'status' } | undefined;
  /** When the Ray job ended, by the best evidence at hand (fresh answer, else the recorded terminal status). */
  rayEndTime: Date | undefined;
  /** activeDeadlineSeconds, counted from status.startTime (reset per attempt, as KubeRay). */
  activeDeadline: { start: Date; seconds: number; at: Date } | undefined;
  /** Since when dashboard checks have been failing (the status-check timeout counts from here). */
  checkFailingSince: Date | undefined;
  /** HTTPMode: the operator's last submission of this job failed. */
  submitFailed: boolean;
  /** Addition F: the driver's node has been DEAD or missing for `driverLostAfterSeconds`. */
  driverLost: { nodeId: string; since: Date } | undefined;
  /** Ray's start time of the job as recorded before, to tell a second submission under the same ID. */
  recordedStartTime: Date | undefined;
  memory: OperatorMemory;
}

export function observeRunning(ctx: Context): RunningObservation {
  const { input, status } = ctx;
  const jobId = status.jobId ?? '';
  const fresh = input.dashboard.kind === 'found' ? input.dashboard.info : undefined;
  const submitter = observeSubmitter(ctx);
  const recordedJobStatus: JobStatus = status.jobStatus ?? '';
  const remembered = input.memory.rayJobSeen?.jobId === jobId ? input.memory.rayJobSeen : undefined;
  const seenStatus = fresh?.status ?? (recordedJobStatus || remembered?.status);
  const recordedTerminal = fresh ? undefined : terminalEvidence(ctx, submitter);
  const submitFailed = input.memory.submitFailure?.jobId === jobId;
  const memory = nextMemory(ctx, jobId, fresh);
  const freshEnd = fresh && isTerminalRayJobStatus(fresh.status) && fresh.endTime ? new Date(fresh.endTime) : undefined;
  const deadlineSeconds = ctx.rayJob.spec.activeDeadlineSeconds;
  const start = parseKubeTime(status.startTime);
  // GCS fault tolerance: a replaced head comes back knowing the job, so the rules wait for Ray's word that long.
  const settings = withGcsFaultToleranceWaits(input.settings, gcsFaultToleranceOf(input.cluster));
  return {
    mode: ctx.mode,
    clusterSelectorMode: ctx.clusterSelectorMode,
    now: ctx.now,
    settings,
    suspendRequested: !!ctx.rayJob.spec.suspend,
    jobId,
    namespace: ctx.namespace,
    clusterName: status.rayClusterName ?? '',
    clusterExists: !!input.cluster,
    dashboard: input.dashboard,
    fresh,
    driverNode: input.driverNode,
    submitter,
    submitterDone: submitterDone(ctx, submitter),
    seen: seenStatus ? { status: seenStatus } : undefined,
    recordedJobStatus,
    recordedTerminal,
    rayEndTime: freshEnd ?? recordedTerminal?.endTime,
    activeDeadline: typeof deadlineSeconds === 'number' && start ? { start, seconds: deadlineSeconds, at: addSeconds(start, deadlineSeconds) } : undefined,
    checkFailingSince: checkFailingSince(ctx, submitFailed),
    submitFailed,
    driverLost: lostSince(memory, jobId, ctx, fresh, settings.driverLostAfterSeconds),
    recordedStartTime: parseKubeTime(status.rayJobInfo?.startTime),
    memory,
  };
}

/**
 * Evidence that survives the head, in precedence: Ray's own terminal answer as the CR recorded it, then our
 * submitter's termination message (the submitter's record of what Ray said). The message may still date the end
 * of a recorded status that has no end time of its own.
 */
function terminalEvidence(ctx: Context, submitter: SubmitterState): RunningObservation['recordedTerminal'] {
  const message = submitter.finishedAt ? submitter.terminationMessage : undefined;
  // The job ended no later than the submitter did, if the submitter did not record Ray's end time.
  const messageEnd = message?.endTime ? new Date(message.endTime) : submitter.finishedAt;
  const recorded = ctx.status.jobStatus;
  if (isTerminalRayJobStatus(recorded)) {
    const endTime = parseKubeTime(ctx.status.rayJobInfo?.endTime) ?? (message?.lastStatus === recorded ? messageEnd : undefined);
    return { status: recorded, endTime, source: 'status' };
  }
  if (message && isTerminalRayJobStatus(message.lastStatus)) return { status: message.lastStatus, endTime: messageEnd, source: 'termination-message' };
  return undefined;
}

function submitterDone(ctx: Context, submitter: SubmitterState): boolean {
  const cluster = ctx.input.cluster;
  const clusterGone = !cluster || cluster.metadata.deletionTimestamp !== undefined;
  if (!submitter.exists || submitter.missing || submitter.finishedAt !== undefined || submitter.terminating) return true;
  return submitter.headPodMissing || clusterGone;
}

/** A failed check starts (or continues) the status-check timer; any answer from the dashboard clears it. */
function checkFailingSince(ctx: Context, submitFailed: boolean): Date | undefined {
  const recorded = parseKubeTime(ctx.status.jobStatusCheckFailureStartTime);
  switch (ctx.input.dashboard.kind) {
    case 'found':
      return undefined;
    case 'not-found':
      // HTTPMode: a failed submission counts as a failed status check (KubeRay).
      if (ctx.mode === 'HTTPMode' && submitFailed) return recorded ?? parseKubeTime(ctx.input.memory.submitFailure?.at);
      return undefined;
    case 'unreachable':
      return recorded ?? ctx.now;
    case 'not-queried':
      return recorded;
  }
}

/**
 * The operator memory after this observation: the last status Ray reported for this job (so "not found" after
 * a lost status write still reads as "seen"), and since when the driver's node has been DEAD or missing
 * (addition F; any conclusive other answer resets that clock, an inconclusive one too).
 */
function nextMemory(ctx: Context, jobId: string, fresh: DashboardJobInfo | undefined): OperatorMemory {
  const memory: OperatorMemory = { ...ctx.memory };
  if (!fresh) return memory;
  memory.rayJobSeen = { jobId, status: fresh.status };
  if (isTerminalRayJobStatus(fresh.status)) return memory;
  const node = ctx.input.driverNode;
  const lost = fresh.status === 'RUNNING' && !!fresh.driverNodeId && (node.kind === 'dead' || node.kind === 'missing') && node.nodeId === fresh.driverNodeId;
  if (!lost) {
    if (node.kind !== 'not-checked') delete memory.driverNodeLostSince;
    return memory;
  }
  const before = memory.driverNodeLostSince;
  const continued = before && before.jobId === jobId && before.nodeId === node.nodeId;
  memory.driverNodeLostSince = { jobId, nodeId: node.nodeId, since: continued ? before.since : ctx.now.toISOString() };
  return memory;
}

function lostSince(memory: OperatorMemory, jobId: string, ctx: Context, fresh: DashboardJobInfo | undefined, afterSeconds: number): RunningObservation['driverLost'] {
  const lost = memory.driverNodeLostSince;
  const node = ctx.input.driverNode;
  if (!lost || lost.jobId !== jobId || fresh?.status !== 'RUNNING' || fresh.driverNodeId !== lost.nodeId) return undefined;
  const { nodeId } = lost;
  if ((node.kind !== 'dead' && node.kind !== 'missing') || node.nodeId !== nodeId) return undefined;
  const since = new Date(lost.since);
  if (ctx.now.getTime() < addSeconds(since, afterSeconds).getTime()) return undefined;
  return { nodeId, since };
}
