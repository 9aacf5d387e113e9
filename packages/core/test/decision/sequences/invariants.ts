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
];

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
  if (terminal && submitterRunning && end && now >= end + input.settings.transitionGracePeriodSeconds * 1000) {
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
