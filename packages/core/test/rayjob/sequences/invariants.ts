/**
 * The invariants behind issue 8's defects, checked on every reconcile of a played sequence. Each returns a
 * description of the violation, or undefined; `exercised` says whether the reconcile was one the invariant
 * is about (so a test can show every invariant was really put to the test). No vitest import: the bench uses
 * these too.
 */
import { formatKubeTime, isTerminalRayJobStatus, messages, parseTerminationMessage, type DecisionInput } from '../../../src/index.ts';
import type { Reconcile } from './world.ts';

export interface Invariant {
  name: string;
  /** undefined: not about this reconcile; '' : held; otherwise the violation. */
  check: (r: Reconcile) => string | undefined;
}

const TIMER_REASONS = new Set(['DeadlineExceeded', 'JobStatusCheckTimeoutExceeded', 'JobDeploymentStatusTransitionGracePeriodExceeded']);
const stops = (r: Reconcile) => r.decision.actions.some((a) => a.type === 'stopRayJob');
const live = (status: string | undefined) => status === 'PENDING' || status === 'RUNNING';
const fresh = (input: DecisionInput) => (input.dashboard.kind === 'found' ? input.dashboard.info : undefined);
const jobId = (r: Reconcile) => r.rayJobBefore.status?.jobId ?? '';

export const invariants: Invariant[] = [
  {
    name: 'a Failed RayJob whose Ray job Ray reports PENDING/RUNNING gets a stop on every reconcile until Ray acknowledges or reports it terminal',
    check: (r) => {
      const before = r.rayJobBefore.status?.jobDeploymentStatus;
      const acknowledged = r.memoryBefore.stopAcknowledged?.jobId === jobId(r);
      // Entering Failed from Running: the first stop goes out in the same reconcile (Retrying moots it).
      if (before === 'Running' && r.decision.status.jobDeploymentStatus === 'Failed' && live(fresh(r.input)?.status)) return stops(r) ? '' : 'entered Failed without stopping a live job';
      if (before !== 'Failed' || acknowledged || !live(r.phase)) return undefined;
      if (!r.queried) return 'the observation plan did not ask the dashboard about a live job under a Failed RayJob';
      if (!live(fresh(r.input)?.status)) return undefined;
      return stops(r) ? '' : 'no stop for a live job under a Failed RayJob';
    },
  },
  {
    name: 'no submitter is (re)created, and nothing submitted, for a job Ray says it does not know after it was seen',
    check: (r) => {
      const seen = r.seenBefore || !!r.rayJobBefore.status?.jobStatus;
      if (!seen) return undefined;
      for (const a of r.decision.actions) {
        if (a.type === 'submitRayJob') return 'submitted a job that was seen';
        if (a.type !== 'createSubmitterJob') continue;
        if (r.input.dashboard.kind === 'not-found') return 'created a submitter for a job Ray no longer knows';
        const env = a.job.spec?.template.spec?.containers?.[0]?.env ?? [];
        if (!env.some((e) => e.name === 'RAYJOB_SUBMITTER_ATTACH_ONLY' && e.value === 'true')) return 'created a submitter that may submit a seen job';
      }
      return r.input.dashboard.kind === 'not-found' ? '' : undefined;
    },
  },
  {
    name: 'rule 1\'s timers win over rules 2-6',
    check: (r) => {
      if (r.rayJobBefore.status?.jobDeploymentStatus !== 'Running') return undefined;
      const expected = timerDue(r.input);
      if (!expected) return undefined;
      const { reason, message } = r.decision.status;
      if (reason !== expected.reason) return `expected ${expected.reason}, got ${reason ?? 'no reason'} (${message ?? ''})`;
      if (expected.message && message !== expected.message) return `expected the message "${expected.message}", got "${message ?? ''}"`;
      return '';
    },
  },
  {
    name: 'a terminal status the termination message recorded (ending in time) is never overruled by a timer',
    check: (r) => {
      if (r.rayJobBefore.status?.jobDeploymentStatus !== 'Running' || r.input.dashboard.kind === 'found') return undefined;
      // Issue 20's precedence: a terminal status the CR recorded from Ray beats the termination message.
      if (isTerminalRayJobStatus(r.rayJobBefore.status?.jobStatus)) return undefined;
      const recorded = recordedBySubmitter(r.input);
      if (!recorded) return undefined;
      const deadline = deadlineOf(r.input);
      if (deadline !== undefined && (recorded.endTime ?? Infinity) > deadline && r.input.now.getTime() >= deadline) return undefined;
      const s = r.decision.status;
      if (TIMER_REASONS.has(s.reason ?? '')) return `overruled by ${s.reason}`;
      if (s.jobStatus !== recorded.status) return `jobStatus ${s.jobStatus ?? ''} instead of ${recorded.status}`;
      const wanted = recorded.status === 'FAILED' ? ['Failed', 'Retrying'] : ['Complete'];
      return wanted.includes(s.jobDeploymentStatus ?? '') ? '' : `${s.jobDeploymentStatus ?? ''} instead of ${wanted.join('/')}`;
    },
  },
  {
    name: 'a recorded terminal status is never contradicted and never retried (issue 20)',
    check: (r) => {
      const before = r.rayJobBefore.status ?? {};
      const recorded = before.jobStatus;
      if (!isTerminalRayJobStatus(recorded)) return undefined;
      const ended = before.jobDeploymentStatus === 'Complete' || before.jobDeploymentStatus === 'Failed';
      if (ended) {
        // Settled: later losses change nothing (the only way a terminal answer is followed by a loss in HTTPMode).
        const after = r.decision.status;
        if (after.jobStatus !== recorded || after.jobDeploymentStatus !== before.jobDeploymentStatus) return `${before.jobDeploymentStatus}/${recorded} became ${after.jobDeploymentStatus ?? ''}/${after.jobStatus ?? ''}`;
        return r.decision.actions.some((a) => a.type === 'submitRayJob' || a.type === 'createSubmitterJob') ? 'submitted again under a settled RayJob' : '';
      }
      if (before.jobDeploymentStatus !== 'Running') return undefined;
      const answer = fresh(r.input);
      // An answer about another run of the ID (a retried submitter that was not attach-only submitted it again
      // to a replacement head) is judged by the resubmission rule, not here.
      const recordedStart = before.rayJobInfo?.startTime ? Math.floor(new Date(before.rayJobInfo.startTime).getTime() / 1000) : undefined;
      const anotherRun = answer?.startTime !== undefined && recordedStart !== undefined && Math.floor(answer.startTime / 1000) !== recordedStart;
      if (answer && (answer.status !== recorded || anotherRun)) return undefined;
      const s = r.decision.status;
      if (s.jobStatus !== recorded) return `jobStatus ${s.jobStatus ?? ''} over the recorded ${recorded}`;
      for (const a of r.decision.actions) {
        if (a.type === 'submitRayJob') return 'submitted a job whose result was recorded';
        const env = a.type === 'createSubmitterJob' ? a.job.spec?.template.spec?.containers?.[0]?.env ?? [] : undefined;
        if (env && !env.some((e) => e.name === 'RAYJOB_SUBMITTER_ATTACH_ONLY' && e.value === 'true')) return 'created a submitter that may submit again';
      }
      const deadline = deadlineOf(r.input);
      const end = answer?.endTime ?? (before.rayJobInfo?.endTime ? new Date(before.rayJobInfo.endTime).getTime() : undefined);
      const missedDeadline = deadline !== undefined && r.input.now.getTime() >= deadline && !(end !== undefined && end <= deadline);
      if (s.reason === 'DeadlineExceeded') return missedDeadline ? '' : 'DeadlineExceeded though the recorded end met the deadline';
      const to = s.jobDeploymentStatus ?? '';
      if (recorded !== 'FAILED' && (to === 'Failed' || to === 'Retrying')) return `${to}/${s.reason ?? ''} over the recorded ${recorded}`;
      if (recorded === 'FAILED' && to === 'Complete') return 'Complete over the recorded FAILED';
      if (to === 'Running' && !answer && !missedDeadline && nothingLeftToReport(r.input)) return `still Running (${r.input.dashboard.kind}) with nothing left to wait for`;
      return '';
    },
  },
];

/**
 * Issue 20: no submitter can report anything new about the job. Ray does not know it, its cluster is gone or
 * going, or the submitter is: none (HTTPMode), Job missing, finished or being deleted, the sidecar's head pod
 * gone or terminating, the sidecar exited.
 */
function nothingLeftToReport(input: DecisionInput): boolean {
  if (input.dashboard.kind === 'not-found' || !input.cluster || input.cluster.metadata.deletionTimestamp) return true;
  switch (input.rayJob.spec.submissionMode) {
    case 'K8sJobMode': {
      const job = input.submitterJob;
      return !job || !!job.metadata.deletionTimestamp || !!job.status?.conditions?.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
    }
    case 'SidecarMode': {
      const head = input.headPods?.[0];
      const sidecar = head?.status?.containerStatuses?.find((c) => c.name === 'ray-job-submitter');
      return input.headPods?.length === 0 || !!head?.metadata?.deletionTimestamp || !!sidecar?.state?.terminated;
    }
    default:
      return true;
  }
}

/** Issue 20's reach: a reconcile after Ray's terminal answer was recorded (Running, or settled), with the head or the cluster lost. */
export function lossAfterTerminal(r: Reconcile): 'head' | 'cluster' | undefined {
  const before = r.rayJobBefore.status ?? {};
  const state = before.jobDeploymentStatus;
  if ((state !== 'Running' && state !== 'Complete' && state !== 'Failed') || !isTerminalRayJobStatus(before.jobStatus)) return undefined;
  return r.loss;
}

function deadlineOf(input: DecisionInput): number | undefined {
  const seconds = input.rayJob.spec.activeDeadlineSeconds;
  const start = input.rayJob.status?.startTime;
  return typeof seconds === 'number' && start ? new Date(start).getTime() + seconds * 1000 : undefined;
}

/** Our submitter's termination message for this submission ID, with a terminal status, once it finished. */
function recordedBySubmitter(input: DecisionInput): { status: string; endTime: number | undefined } | undefined {
  const job = input.submitterJob;
  const finished = job?.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  const headSidecar = input.headPods?.[0]?.status?.containerStatuses?.find((c) => c.name === 'ray-job-submitter')?.state?.terminated;
  const terminated = finished ? input.submitterPods?.[0]?.status?.containerStatuses?.[0]?.state?.terminated : headSidecar;
  const message = parseTerminationMessage(terminated?.message);
  if (!message || message.submissionId !== input.rayJob.status?.jobId || !isTerminalRayJobStatus(message.lastStatus)) return undefined;
  const finishedAt = terminated?.finishedAt ? new Date(terminated.finishedAt).getTime() : undefined;
  return { status: message.lastStatus, endTime: message.endTime ?? finishedAt };
}

/**
 * Which rule 1 timer is due, read straight from status-correctness.md: the deadline unless the job is known
 * to have ended before it; the grace period 300 s after a terminal status while the submitter still runs;
 * the status-check timeout after 300 s of failed checks unless a terminal status was recorded.
 */
function timerDue(input: DecisionInput): { reason: string; message?: string } | undefined {
  const now = input.now.getTime();
  const status = input.rayJob.status ?? {};
  const answer = fresh(input);
  const bySubmitter = answer ? undefined : recordedBySubmitter(input);
  const recordedTerminal = isTerminalRayJobStatus(status.jobStatus) ? { status: status.jobStatus, endTime: status.rayJobInfo?.endTime ? new Date(status.rayJobInfo.endTime).getTime() : undefined } : undefined;
  const knownEnd = answer ? (isTerminalRayJobStatus(answer.status) ? answer.endTime : undefined) : (bySubmitter ?? recordedTerminal)?.endTime;
  const deadline = deadlineOf(input);
  if (deadline !== undefined && now >= deadline && !(knownEnd !== undefined && knownEnd > 0 && knownEnd <= deadline)) return { reason: 'DeadlineExceeded' };
  const submitterRunning = input.rayJob.spec.submissionMode === 'K8sJobMode'
    ? !!input.submitterJob && !input.submitterJob.status?.conditions?.some((c) => c.status === 'True')
    : input.rayJob.spec.submissionMode === 'SidecarMode' && input.headPods?.length === 1 && !input.headPods[0]?.status?.containerStatuses?.find((c) => c.name === 'ray-job-submitter')?.state?.terminated;
  const terminal = answer ? (isTerminalRayJobStatus(answer.status) ? answer : undefined) : recordedTerminal;
  const end = answer?.endTime ?? recordedTerminal?.endTime;
  // Issue 20: a submitter can still print the job's last logs only from a live head that knows the job; else
  // the recorded result stands at once and there is nothing for the grace period to wait for.
  const mayStillPrint = submitterRunning && !nothingLeftToReport(input);
  if (terminal && mayStillPrint && end && now >= end + input.settings.transitionGracePeriodSeconds * 1000) {
    return { reason: 'JobDeploymentStatusTransitionGracePeriodExceeded', message: messages.transitionGracePeriod };
  }
  const since = status.jobStatusCheckFailureStartTime;
  if (input.dashboard.kind === 'unreachable' && since && !bySubmitter && !recordedTerminal && now >= new Date(since).getTime() + input.settings.statusCheckTimeoutSeconds * 1000) {
    return { reason: 'JobStatusCheckTimeoutExceeded', message: messages.statusCheckTimeout(new Date(since), input.settings.statusCheckTimeoutSeconds) };
  }
  return undefined;
}

/** Plays and checks; returns the first violation with its reconcile, and which invariants were exercised. */
export function checkTrace(trace: Reconcile[], exercised?: Map<string, number>): { invariant: string; violation: string; at: number } | undefined {
  for (const [i, r] of trace.entries()) {
    for (const inv of invariants) {
      const outcome = inv.check(r);
      if (outcome === undefined) continue;
      exercised?.set(inv.name, (exercised.get(inv.name) ?? 0) + 1);
      if (outcome !== '') return { invariant: inv.name, violation: `${outcome} at ${formatKubeTime(r.input.now)}`, at: i };
    }
  }
  return undefined;
}
