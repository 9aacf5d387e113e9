import { isTerminalRayJobStatus } from '../../contracts/termination-message.ts';
import { SUBMITTER_CONTAINER_NAME } from '../../builders/submitter-container.ts';
import type { ContainerStatus, Pod } from '../../schema/index.ts';
import type { Context } from '../context.ts';
import { addSeconds, formatGoDateTime } from '../../go-text/time-format.ts';
import { notStartedMessage } from '../conditions/job.ts';
import { RAYJOB_CONDITION_TYPES as T, type ConditionDraft, type RunningEvidence } from '../conditions/types.ts';
import type { RunningObservation } from './observation.ts';
import type { Verdict } from './rules.ts';

/**
 * The JobRunning condition of a RayJob that stays Running, with the evidence for it in plain words: above all
 * the deliberate non-verdicts (a dead submitter while Ray says RUNNING, a silent dashboard within its budget,
 * a job the head forgot while the submitter still runs). A verdict that leaves Running is told by the Complete
 * or Failed condition instead (the status message is its evidence).
 */
export function explainRunning(ctx: Context, o: RunningObservation, rule: string, verdict: Verdict): RunningEvidence | undefined {
  if (verdict.to) return undefined;
  const job = `Ray job ${o.jobId}`;
  switch (rule) {
    case 'multipleHeadPods':
      return unknown('MultipleHeadPods', `RayCluster ${o.namespace}/${o.clusterName} has more than one head pod; waiting for the RayCluster controller to settle before judging ${job}.`);
    case 'headLost':
      return unknown('JobNotFoundOnHead', `The Ray head no longer knows ${job} (last seen ${o.seen?.status ?? ''}); waiting for the submitter to finish before deciding (it reports what it saw).`, 'Warning');
    case 'dashboardUnreachable': {
      const since = o.checkFailingSince ?? o.now;
      const why = o.dashboard.kind === 'unreachable' ? o.dashboard.reason : 'no answer';
      const until = formatGoDateTime(addSeconds(since, o.settings.statusCheckTimeoutSeconds));
      return unknown('StatusCheckFailing', `Ray's dashboard has not answered for ${job} since ${formatGoDateTime(since)} (${why}). Kept Running: a silent dashboard is not a verdict; the RayJob fails with JobStatusCheckTimeoutExceeded at ${until} if it stays silent.`, 'Warning');
    }
    case 'notQueried':
      return 'keep';
    case 'notFoundBeforeSeen':
      // The words of Initializing's NotStarted: not knowing the job yet is no news (and no write of its own).
      return { type: T.running, status: 'False', reason: 'NotStarted', message: notStartedMessage(o.jobId) };
    case 'terminalMapping': {
      const status = o.fresh?.status ?? '';
      return unknown('WaitingForSubmitter', `Ray reports ${job} ${status}; the RayJob follows once the submitter has printed the job's last logs.`, 'Normal');
    }
    case 'live':
      return live(ctx, o, job);
    default:
      return 'keep';
  }
}

/**
 * Evidence a verdict's KubeRay message leaves out, added to the Complete or Failed condition's message (the
 * status message keeps KubeRay's words).
 */
export function verdictEvidence(o: RunningObservation, rule: string, verdict: Verdict): string | undefined {
  if (!verdict.to || verdict.to === 'Suspending') return undefined;
  switch (rule) {
    case 'notFoundAfterSubmitter':
      return o.seen ? `Ray last reported Ray job ${o.jobId} ${o.seen.status}; the head no longer knows it (it was lost or replaced).` : `Ray never reported Ray job ${o.jobId}.`;
    case 'headPodMissing':
      return `RayCluster ${o.namespace}/${o.clusterName} has no head pod; the job cannot be followed.`;
    case 'recordedTerminalStands':
      return recordedResultEvidence(o);
    case 'transitionGracePeriod':
      return gracePeriodEvidence(o);
    default:
      return undefined;
  }
}

/** Issue 20: whose word the result is, and what was lost after it, in the words a user can check. */
function recordedResultEvidence(o: RunningObservation): string | undefined {
  const recorded = o.recordedTerminal;
  if (!recorded) return undefined;
  const word = recorded.source === 'termination-message' ? "The submitter's termination message recorded" : 'Ray reported';
  return `${word} Ray job ${o.jobId} ${recorded.status}; since then ${lossSinceTheResult(o)}. A result Ray reported stands.`;
}

function lossSinceTheResult(o: RunningObservation): string {
  if (!o.clusterExists) return `RayCluster ${o.namespace}/${o.clusterName} is gone`;
  if (o.submitter.headPodMissing) return `the head pod of RayCluster ${o.namespace}/${o.clusterName} is gone`;
  switch (o.dashboard.kind) {
    case 'not-found':
      return 'the Ray head no longer knows the job';
    case 'unreachable':
      return `the dashboard cannot be reached (${o.dashboard.reason})`;
    default:
      return 'the submitter has nothing more to report';
  }
}

/** Rule 1's grace period: Ray's end and how long the submitter has been let finish since. */
function gracePeriodEvidence(o: RunningObservation): string | undefined {
  const status = o.fresh?.status ?? o.recordedJobStatus;
  const end = o.rayEndTime;
  if (!end) return undefined;
  return `Ray reported Ray job ${o.jobId} ${status} ending at ${formatGoDateTime(end)}; the submitter had not finished ${o.settings.transitionGracePeriodSeconds}s later.`;
}

/** JobRunning of a job Ray reports PENDING (or just accepted, which Ray reports PENDING). */
export function jobPendingEvidence(jobId: string): ConditionDraft {
  return { type: T.running, status: 'False', reason: 'JobPending', message: `Ray accepted Ray job ${jobId}; it is PENDING (waiting for resources or its runtime environment).`, event: 'Normal' };
}

function live(ctx: Context, o: RunningObservation, job: string): RunningEvidence {
  const fresh = o.fresh;
  if (!fresh) return 'keep';
  if (fresh.status === 'PENDING') return jobPendingEvidence(o.jobId);
  if (fresh.status !== 'RUNNING') return 'keep';
  const node = driverNodeText(o);
  const lost = o.memory.driverNodeLostSince;
  if (lost && lost.jobId === o.jobId && lost.nodeId === fresh.driverNodeId) {
    const since = new Date(lost.since);
    const at = formatGoDateTime(addSeconds(since, o.settings.driverLostAfterSeconds));
    return unknown('DriverNodeNotAlive', `Ray reports ${job} RUNNING but its driver's node ${lost.nodeId} has been DEAD or missing since ${formatGoDateTime(since)}; the RayJob fails at ${at} unless the node is seen alive again.`, 'Warning');
  }
  const submitter = submitterEnd(ctx, o);
  if (submitter) {
    return {
      type: T.running, status: 'True', reason: 'SubmitterExitedJobRunning', event: 'Warning',
      message: `${submitter}. Ray still reports ${job} RUNNING${node}, so the RayJob stays Running: the submitter only submits and follows the job, Ray's answer decides its outcome.`,
    };
  }
  return { type: T.running, status: 'True', reason: 'Running', message: `Ray reports ${job} RUNNING${node}.`, event: 'Normal' };
}

function unknown(reason: string, message: string, event?: ConditionDraft['event']): ConditionDraft {
  return { type: T.running, status: 'Unknown', reason, message, event };
}

function driverNodeText(o: RunningObservation): string {
  const node = o.driverNode;
  switch (node.kind) {
    case 'alive':
      return ` with its driver on ALIVE node ${node.nodeId}`;
    case 'inconclusive':
      return ` (its driver's node ${node.nodeId} could not be checked: ${node.reason})`;
    default:
      return o.fresh?.driverNodeId ? ` with its driver on node ${o.fresh.driverNodeId}` : '';
  }
}

/** What ended the submitter while the job runs on, in plain words; undefined while it still runs. */
function submitterEnd(ctx: Context, o: RunningObservation): string | undefined {
  const s = o.submitter;
  if (!s.exists) return undefined;
  if (s.missing) return 'The submitter Job is gone';
  if (!s.failure && !s.finishedAt) return undefined;
  const exit = lastExit(ctx);
  const exitText = exit ? `The submitter ${exit.where} exited ${exit.code}${exit.reason ? ` (${exit.reason})` : ''}` : undefined;
  if (s.failure) {
    const jobFailed = (ctx.input.submitterJob?.status?.conditions ?? []).find((c) => c.type === 'Failed' && c.status === 'True');
    const failureText = jobFailed ? `the submitter Job failed (${jobFailed.reason ?? ''}: ${jobFailed.message ?? ''})` : s.failure.message;
    return exitText ? `${exitText}; ${failureText}` : capitalize(failureText);
  }
  return isTerminalRayJobStatus(o.fresh?.status) ? undefined : (exitText ?? 'The submitter finished');
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

function lastExit(ctx: Context): { where: string; code: number; reason: string } | undefined {
  const candidates: Array<{ where: string; cs: ContainerStatus | undefined }> =
    ctx.mode === 'SidecarMode'
      ? (ctx.input.headPods ?? []).map((p) => ({ where: `container of head pod ${p.metadata.name ?? ''}`, cs: p.status?.containerStatuses?.find((c) => c.name === SUBMITTER_CONTAINER_NAME) }))
      : (ctx.input.submitterPods ?? []).map((p: Pod) => ({ where: `pod ${p.metadata.name ?? ''}`, cs: p.status?.containerStatuses?.[0] }));
  let best: { where: string; code: number; reason: string; at: string } | undefined;
  for (const { where, cs } of candidates) {
    for (const t of [cs?.state?.terminated, cs?.lastState?.terminated]) {
      if (!t) continue;
      const at = t.finishedAt ?? '';
      if (!best || at > best.at) best = { where, code: t.exitCode ?? 0, reason: t.reason ?? '', at };
    }
  }
  return best;
}
