import { isTerminalRayJobStatus } from '../../contracts/termination-message.ts';
import type { JobFailedReason, JobStatus } from '../../schema/index.ts';
import { messages } from '../messages.ts';
import { addSeconds } from '../../go-text/time-format.ts';
import type { RunningObservation } from './observation.ts';

/**
 * What a rule decided, as data; `applyVerdict` turns it into status, actions and memory in one place.
 * Without `to` the RayJob stays Running.
 */
export interface Verdict {
  to?: 'Suspending' | 'Complete' | 'Failed';
  reason?: JobFailedReason;
  /** The status message; absent keeps the current one (Ray's, usually). */
  message?: string;
  jobStatus?: JobStatus;
  /** Addition C: stop the Ray job if it may still be live, saying why. */
  stop?: string;
  /** Addition A: Ray's end time, as the submitter recorded it, goes into rayJobInfo. */
  rayEndTime?: Date;
  /** Addition B: recreate the missing submitter Job (attach-only once a Ray status was recorded). */
  recreateSubmitter?: boolean;
  /** HTTPMode: the job was never seen; submit it. */
  submit?: boolean;
  /** Change nothing and look again later (KubeRay returns an error here: no status write). */
  wait?: boolean;
  note?: string;
}

export const NEXT = 'next' as const;
export type RuleOutcome = Verdict | typeof NEXT;

export interface RunningRule {
  /** Stable name; the order test and the reconcile log use it. */
  name: string;
  /** Where the rule comes from in status-correctness.md. */
  source: string;
  judge: (o: RunningObservation) => RuleOutcome;
}

/**
 * Running, one rule after the other; the first that gives a verdict decides. The order is the order of evidence
 * (issue 20, docs/compatibility.md "Which evidence beats which"): a fresh answer from Ray beats a terminal status
 * the RayJob recorded from an earlier answer, which beats our submitter's termination message, and the timers
 * decide only what that evidence leaves open. The fresh answer needs no rule of its own here: when Ray answered,
 * nothing recorded is consulted (`observeRunning`). So: suspend (the user's request, KubeRay); the recorded
 * result (addition A), which stands through every later loss; rule 1's timers, judged on the evidence's end time
 * (addition E); rule 2 on the fresh status; the head's fate (the cluster, rule 6) before the dashboard's answer
 * is read (rule 3, H); then the answer itself (rules 4, F, 5).
 */
export const RUNNING_RULES: readonly RunningRule[] = [
  { name: 'suspend', source: 'KubeRay: suspend first', judge: (o) => (o.suspendRequested ? { to: 'Suspending', note: 'Suspend requested: transition to Suspending.' } : NEXT) },
  { name: 'recordedTerminalStands', source: 'addition A, issue 20', judge: recordedTerminalStands },
  { name: 'activeDeadline', source: 'rule 1, addition E', judge: activeDeadline },
  { name: 'transitionGracePeriod', source: 'rule 1', judge: transitionGracePeriod },
  { name: 'statusCheckTimeout', source: 'rule 1, C13', judge: statusCheckTimeout },
  { name: 'submitterFailedBeforeRunning', source: 'rule 2', judge: submitterFailedBeforeRunning },
  { name: 'clusterDeleted', source: 'ours (compatibility.md #10)', judge: (o) => (!o.clusterExists && !o.clusterSelectorMode ? { to: 'Failed', reason: 'AppFailed', message: messages.clusterDeleted(o.namespace, o.clusterName), jobStatus: lostJobStatus(o) } : NEXT) },
  { name: 'headPodMissing', source: 'rule 6', judge: (o) => (o.submitter.headPodMissing ? { to: 'Failed', reason: 'AppFailed', message: messages.headPodNotFound, jobStatus: lostJobStatus(o) } : NEXT) },
  { name: 'multipleHeadPods', source: 'KubeRay: wait for the RayCluster controller', judge: (o) => (o.submitter.multipleHeads ? { wait: true, note: 'found multiple heads; waiting for the RayCluster controller to settle' } : NEXT) },
  { name: 'notFoundAfterSubmitter', source: 'rule 3', judge: (o) => (o.dashboard.kind === 'not-found' && o.submitter.finishedAt ? { to: 'Failed', reason: 'AppFailed', message: messages.jobNotFoundAfterSubmitter, jobStatus: lostJobStatus(o) } : NEXT) },
  { name: 'headLost', source: 'addition H', judge: headLost },
  { name: 'notFoundBeforeSeen', source: 'rule 3', judge: notFoundBeforeSeen },
  { name: 'dashboardUnreachable', source: 'rule 3', judge: (o) => (o.dashboard.kind === 'unreachable' ? { recreateSubmitter: o.submitter.missing } : NEXT) },
  { name: 'notQueried', source: 'the operator did not ask', judge: (o) => (o.dashboard.kind === 'not-queried' ? {} : NEXT) },
  { name: 'resubmitted', source: 'addition H', judge: resubmitted },
  { name: 'submitterFinishedTimeout', source: 'rule 4', judge: submitterFinishedTimeout },
  { name: 'driverLost', source: 'addition F', judge: driverLost },
  { name: 'terminalMapping', source: 'rule 5', judge: terminalMapping },
  { name: 'live', source: 'rule 5: not terminal yet', judge: (o) => ({ recreateSubmitter: o.submitter.missing }) },
];

/** The first verdict of the table, with the name of the rule that gave it. */
export function judgeRunning(o: RunningObservation, rules: readonly RunningRule[] = RUNNING_RULES): { rule: string; verdict: Verdict } {
  for (const rule of rules) {
    const outcome = rule.judge(o);
    if (outcome !== NEXT) return { rule: rule.name, verdict: outcome };
  }
  // The last rule always decides; reaching here means the table was cut short.
  return { rule: 'none', verdict: {} };
}

/** Addition E: a job that ended (by Ray's or the submitter's record) before the deadline ended in time. */
function activeDeadline(o: RunningObservation): RuleOutcome {
  const deadline = o.activeDeadline;
  if (!deadlinePassedBeforeTheEnd(o) || !deadline) return NEXT;
  return {
    to: 'Failed', reason: 'DeadlineExceeded', message: messages.activeDeadline(deadline.start, deadline.seconds),
    stop: 'activeDeadlineSeconds passed', note: 'The RayJob has passed the activeDeadlineSeconds.',
  };
}

/** activeDeadlineSeconds has passed, and no evidence shows the Ray job ended by then. */
function deadlinePassedBeforeTheEnd(o: RunningObservation): boolean {
  const deadline = o.activeDeadline;
  if (!deadline || o.now.getTime() < deadline.at.getTime()) return false;
  return !(o.rayEndTime && o.rayEndTime.getTime() <= deadline.at.getTime());
}

/**
 * Ray reports the job terminal (now, or as the CR recorded it), yet the submitter has not finished 300 s after
 * Ray's end time. A finished submitter lets the normal mapping report the real result instead (addition E).
 */
function transitionGracePeriod(o: RunningObservation): RuleOutcome {
  const status = o.fresh?.status ?? o.recordedJobStatus;
  if (!isTerminalRayJobStatus(status) || o.submitterDone) return NEXT;
  const end = o.fresh?.endTime ? new Date(o.fresh.endTime) : o.recordedTerminal?.endTime;
  if (!end || o.now.getTime() < addSeconds(end, o.settings.transitionGracePeriodSeconds).getTime()) return NEXT;
  return {
    to: status === 'FAILED' ? 'Failed' : 'Complete', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', message: messages.transitionGracePeriod,
    jobStatus: status, note: 'JobDeploymentStatus does not transition to Complete or Failed within the grace period.',
  };
}

/**
 * The status-check timeout, counted from the first failed check that was observed. A terminal status recorded
 * before the dashboard went silent is never overruled by it (the grace period or addition A decide).
 */
function statusCheckTimeout(o: RunningObservation): RuleOutcome {
  const since = o.checkFailingSince;
  const failing = o.dashboard.kind === 'unreachable' || (o.dashboard.kind === 'not-found' && o.mode === 'HTTPMode' && o.submitFailed);
  if (!failing || !since || o.recordedTerminal) return NEXT;
  const timeout = o.settings.statusCheckTimeoutSeconds;
  if (o.now.getTime() < addSeconds(since, timeout).getTime()) return NEXT;
  return {
    to: 'Failed', reason: 'JobStatusCheckTimeoutExceeded', message: messages.statusCheckTimeout(since, timeout),
    stop: 'job status checks timed out', note: 'Job status check timeout exceeded.',
  };
}

/**
 * Rule 2: a submitter failure is evidence only before the job was seen RUNNING. A terminal status Ray reports
 * now, or one recorded before the head went silent, wins over the submitter's claim.
 */
function submitterFailedBeforeRunning(o: RunningObservation): RuleOutcome {
  const failure = o.submitter.failure;
  const known = o.seen?.status ?? '';
  if (!failure || known === 'RUNNING' || isTerminalRayJobStatus(o.fresh?.status) || o.recordedTerminal) return NEXT;
  const note = 'The submitter has failed. Attempting to transition the status to `Failed`.';
  if (known === 'FAILED') return { to: 'Failed', reason: 'AppFailed', note };
  return { to: 'Failed', reason: 'SubmissionFailed', message: failure.message, stop: 'the submitter failed before the job ran', note };
}

/**
 * Addition A and issue 20: the dashboard cannot answer for the job, but a terminal status survives the head:
 * what Ray told us before, else the submitter's termination message for this submission ID. It stands through
 * every later loss (head pod, cluster, submitter) as the result Ray gave: Complete for SUCCEEDED and STOPPED,
 * Failed/AppFailed for FAILED. It waits only while a submitter may still print the job's last logs (#1919),
 * and not at all once the head no longer knows the job. The one thing it does not excuse is a deadline the
 * job's recorded end missed (or cannot show it met): the user's limit, judged on the same evidence.
 */
function recordedTerminalStands(o: RunningObservation): RuleOutcome {
  const recorded = o.recordedTerminal;
  if (!recorded || deadlinePassedBeforeTheEnd(o)) return NEXT;
  if (recorded.source === 'status' && !o.submitterDone && o.dashboard.kind !== 'not-found') return NEXT;
  const fromSubmitter = recorded.source === 'termination-message';
  return {
    to: recorded.status === 'FAILED' ? 'Failed' : 'Complete',
    reason: recorded.status === 'FAILED' ? 'AppFailed' : undefined,
    message: fromSubmitter ? messages.fromTerminationMessage(recorded.status) : undefined,
    jobStatus: recorded.status,
    rayEndTime: fromSubmitter ? recorded.endTime : undefined,
  };
}

/**
 * Addition H: a job Ray reported and now does not know is gone with its head (no GCS fault tolerance, or the
 * head was replaced). It is never submitted again: no submitter is recreated, HTTPMode does not resubmit.
 */
function headLost(o: RunningObservation): RuleOutcome {
  if (o.dashboard.kind !== 'not-found' || !o.seen) return NEXT;
  // A submitter that still runs is about to finish (ours exits 3, head lost; its exit codes fail the Job at once):
  // C6 gives rule 3's verdict and message once it has. Nothing is created meanwhile.
  if (!o.submitterDone) return { note: 'The Ray job is not found while the submitter still runs: waiting for the submitter to finish (rule 3, C6).' };
  return { to: 'Failed', reason: 'AppFailed', message: messages.headLost(o.jobId, o.seen.status), jobStatus: lostJobStatus(o), note: 'The Ray job was seen before and is now not found: the Ray head was lost.' };
}

/**
 * Ours: a job Ray was running (or about to run) when its head was lost is recorded FAILED — the verdict Ray's own
 * JobManager gives a RUNNING job whose supervisor is gone, when a head with its GCS kept comes back. KubeRay leaves
 * the last status, RUNNING, under a Failed RayJob: the contradiction this project exists to remove. A job never
 * seen gets no status invented; a terminal one was settled by addition A before these rules.
 */
function lostJobStatus(o: RunningObservation): JobStatus | undefined {
  return o.seen && !isTerminalRayJobStatus(o.seen.status) ? 'FAILED' : undefined;
}

/** Rule 3, "not found", for a job never seen: it may not be submitted yet. */
function notFoundBeforeSeen(o: RunningObservation): RuleOutcome {
  if (o.dashboard.kind !== 'not-found') return NEXT;
  if (o.mode === 'HTTPMode') return { submit: true, note: 'The Ray job was not found. Submit a Ray job via an HTTP request.' };
  return { recreateSubmitter: o.submitter.missing };
}

/**
 * Addition H: Ray reports the job with a start time other than the one recorded: a submitter pod retried by
 * the Job controller submitted it again to a replacement head. The first run is lost; the second is stopped.
 */
function resubmitted(o: RunningObservation): RuleOutcome {
  const fresh = o.fresh;
  const recorded = o.recordedStartTime;
  if (!fresh?.startTime || !recorded || Math.floor(fresh.startTime / 1000) === Math.floor(recorded.getTime() / 1000)) return NEXT;
  return { to: 'Failed', reason: 'AppFailed', message: messages.resubmitted(o.jobId, recorded, new Date(fresh.startTime)), stop: 'the job was submitted again to a replacement head' };
}

/** Rule 4: 30 s after the submitter finished, a job that is not terminal must show a sign of life. */
function submitterFinishedTimeout(o: RunningObservation): RuleOutcome {
  const fresh = o.fresh;
  const finishedAt = o.submitter.finishedAt;
  if (!fresh || isTerminalRayJobStatus(fresh.status) || !finishedAt) return NEXT;
  const timeout = o.settings.submitterFinishedTimeoutSeconds;
  if (o.now.getTime() < addSeconds(finishedAt, timeout).getTime()) return NEXT;
  if (fresh.status === 'RUNNING' && driverMayBeAlive(o)) return NEXT;
  return {
    to: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', message: messages.submitterFinishedTimeout(finishedAt, timeout), jobStatus: 'FAILED',
    stop: 'the submitter finished and the job shows no sign of life', note: 'The RayJob has passed the submitterFinishedTimeoutSeconds and the job shows no sign of life.',
  };
}

/** Alive, or we cannot tell: "inconclusive is not dead". Only a conclusive DEAD or missing answer counts. */
function driverMayBeAlive(o: RunningObservation): boolean {
  if (!o.fresh?.driverNodeId) return false;
  const kind = o.driverNode.kind;
  return kind === 'alive' || kind === 'inconclusive' || kind === 'not-checked';
}

/** Addition F: Ray says RUNNING but the driver's node has been gone for 30 s of our own observation. */
function driverLost(o: RunningObservation): RuleOutcome {
  const lost = o.driverLost;
  if (!lost) return NEXT;
  return {
    to: 'Failed', reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', message: messages.driverLost(lost.nodeId, lost.since, o.settings.driverLostAfterSeconds),
    jobStatus: 'FAILED', stop: 'the driver node is lost',
  };
}

/** Rule 5: terminal only once the submitter finished (#1919: let it print the last logs). */
function terminalMapping(o: RunningObservation): RuleOutcome {
  const fresh = o.fresh;
  if (!fresh || !isTerminalRayJobStatus(fresh.status)) return NEXT;
  if (!o.submitterDone) return {};
  if (fresh.status === 'FAILED') return { to: 'Failed', reason: 'AppFailed' };
  return { to: 'Complete' };
}
