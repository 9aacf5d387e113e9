// The Job controller's decision, as a pure function of the Job, its pods and the clock. It follows
// the Kubernetes (1.31+) batch/v1 Job controller: finished pods are first recorded in
// status.uncountedTerminatedPods, then their tracking finalizer is removed, then they move into
// status.succeeded/failed, so a pod is counted exactly once even across crashes and retries.
import { rfc3339 } from '@rayjob/kube-runtime';
import type { Condition, Job, JobStatus, Pod } from '../kube-objects/types.ts';
import { matchPodFailurePolicy } from './pod-failure-policy.ts';

export const trackingFinalizer = 'batch.kubernetes.io/job-tracking';

export const jobMessages = {
  backoffLimit: { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
  deadline: { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
  completions: { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
  suspended: { reason: 'JobSuspended', message: 'Job suspended' },
  resumed: { reason: 'JobResumed', message: 'Job resumed' },
} as const;

export interface JobControllerTiming {
  /** First pod-failure back-off; Kubernetes uses 10 s and doubles it per consecutive failure. */
  backoffBaseMs: number;
  /** Cap of the back-off; Kubernetes uses 6 minutes. */
  backoffMaxMs: number;
}

export const defaultJobTiming: JobControllerTiming = { backoffBaseMs: 10_000, backoffMaxMs: 360_000 };

export interface JobObservation {
  job: Job;
  /** Pods the Job controls (controller ownerReference to this Job's uid). */
  pods: Pod[];
  /** Last seen state of controlled pods that vanished while still carrying the tracking finalizer. */
  vanished: Pod[];
  now: number;
  /** Time of the most recent failed pod the controller knows about (remembered in memory, as Kubernetes does). */
  lastFailureAt: number | undefined;
  timing: JobControllerTiming;
  /** Pods this controller created that its pod cache has not shown yet (Kubernetes' "expectations"). */
  expectedCreations?: number;
}

export interface JobDecision {
  status: JobStatus;
  createPods: number;
  /** Active pods to delete (the Job finished, failed or was suspended). */
  deletePods: string[];
  /** Pods whose tracking finalizer can go because the status now records them. */
  removeFinalizers: string[];
  /** Failure times observed in this round (the controller keeps the latest). */
  failureAt: number | undefined;
  /** Vanished pods now recorded in the status (or ignored by policy): the controller can forget them. */
  forgetVanished: string[];
  requeueAfterMs: number | undefined;
}

const isTrue = (conditions: Condition[] | undefined, type: string): Condition | undefined =>
  conditions?.find((c) => c.type === type && c.status === 'True');

const hasFinalizer = (pod: Pod): boolean => pod.metadata.finalizers?.includes(trackingFinalizer) ?? false;

/** A pod is failed if its phase says so; without a podFailurePolicy a pod deleted before succeeding counts too. */
export function isPodFailed(job: Job, pod: Pod): boolean {
  if (pod.status?.phase === 'Failed') return true;
  if (job.spec.podFailurePolicy !== undefined) return false;
  return pod.metadata.deletionTimestamp !== undefined && pod.status?.phase !== 'Succeeded';
}

export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && pod.metadata.deletionTimestamp === undefined;
}

function finishedAt(pod: Pod, now: number): number {
  let latest: number | undefined;
  for (const status of pod.status?.containerStatuses ?? []) {
    const time = status.state.terminated?.finishedAt;
    if (time !== undefined) latest = Math.max(latest ?? 0, Date.parse(time));
  }
  if (latest !== undefined) return latest;
  if (pod.metadata.deletionTimestamp !== undefined) return Date.parse(pod.metadata.deletionTimestamp);
  return now;
}

function setCondition(conditions: Condition[], type: string, reason: string, message: string, nowIso: string): Condition[] {
  if (conditions.some((c) => c.type === type && c.status === 'True')) return conditions;
  return [...conditions.filter((c) => c.type !== type), { type, status: 'True', reason, message, lastProbeTime: nowIso, lastTransitionTime: nowIso }];
}

export function backoffDelayMs(failures: number, timing: JobControllerTiming): number {
  if (failures <= 0) return 0;
  return Math.min(timing.backoffMaxMs, timing.backoffBaseMs * 2 ** Math.min(failures - 1, 30));
}

/** The pod tally after this round's bookkeeping: counted pods, pods recorded but not counted yet, a FailJob verdict. */
interface Tally {
  succeeded: number;
  failed: number;
  uncountedSucceeded: Set<string>;
  uncountedFailed: Set<string>;
  failJobMessage: string | undefined;
}

const emptyDecision = (): JobDecision => ({ status: {}, createPods: 0, deletePods: [], removeFinalizers: [], failureAt: undefined, forgetVanished: [], requeueAfterMs: undefined });

/**
 * Steps 1 and 2 of the tracking: uncounted pods whose finalizer is gone (or that vanished) move into the counters;
 * newly finished pods go into uncountedTerminatedPods (their finalizers come off after the status write).
 */
function tallyPods(obs: JobObservation, finished: Condition | undefined, decision: JobDecision): Tally {
  const { job, now } = obs;
  const previous = job.status ?? {};
  const tally: Tally = {
    succeeded: previous.succeeded ?? 0,
    failed: previous.failed ?? 0,
    uncountedSucceeded: new Set(previous.uncountedTerminatedPods?.succeeded ?? []),
    uncountedFailed: new Set(previous.uncountedTerminatedPods?.failed ?? []),
    failJobMessage: undefined,
  };
  const recordedBefore = new Set([...tally.uncountedSucceeded, ...tally.uncountedFailed]);
  const present = new Map(obs.pods.map((pod) => [pod.metadata.uid ?? '', pod]));
  for (const uid of [...tally.uncountedSucceeded]) {
    const pod = present.get(uid);
    if (pod === undefined || !hasFinalizer(pod)) { tally.uncountedSucceeded.delete(uid); tally.succeeded += 1; }
  }
  for (const uid of [...tally.uncountedFailed]) {
    const pod = present.get(uid);
    if (pod === undefined || !hasFinalizer(pod)) { tally.uncountedFailed.delete(uid); tally.failed += 1; }
  }
  for (const pod of [...obs.pods.filter(hasFinalizer), ...obs.vanished]) {
    const uid = pod.metadata.uid ?? '';
    const gone = !present.has(uid);
    const release = (): void => {
      if (gone) decision.forgetVanished.push(uid);
      else decision.removeFinalizers.push(pod.metadata.name ?? '');
    };
    if (recordedBefore.has(uid)) release();
    else if (pod.status?.phase === 'Succeeded') tally.uncountedSucceeded.add(uid);
    else if (isPodFailed(job, pod) || gone) {
      const verdict = matchPodFailurePolicy(job, pod);
      decision.failureAt = Math.max(decision.failureAt ?? 0, finishedAt(pod, now));
      if (verdict.action === 'Ignore') release();
      else {
        if (verdict.action === 'FailJob' && tally.failJobMessage === undefined) tally.failJobMessage = verdict.message;
        tally.uncountedFailed.add(uid);
      }
    } else if (finished !== undefined && !gone && !isPodActive(pod)) {
      // A terminating pod of a finished Job: nothing more to learn from it.
      decision.removeFinalizers.push(pod.metadata.name ?? '');
    }
  }
  return tally;
}

/** Why the Job fails, in Kubernetes' order: a FailureTarget already set, a FailJob rule, the backoff limit, the deadline. */
function jobFailure(obs: JobObservation, conditions: Condition[], tally: Tally, active: Pod[], startTime: string | undefined, decision: JobDecision): { reason: string; message: string } | undefined {
  const { job, now } = obs;
  const target = isTrue(conditions, 'FailureTarget');
  if (target !== undefined) return { reason: target.reason ?? '', message: target.message ?? '' };
  if (tally.failJobMessage !== undefined) return { reason: 'PodFailurePolicy', message: tally.failJobMessage };
  const backoffLimit = job.spec.backoffLimit ?? 6;
  const onFailure = job.spec.template.spec.restartPolicy === 'OnFailure';
  const restarts = onFailure
    ? active.reduce((sum, pod) => sum + [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].reduce((s, c) => s + c.restartCount, 0), 0)
    : 0;
  const pastOnFailure = onFailure && (backoffLimit === 0 ? restarts > 0 : restarts >= backoffLimit);
  if (tally.failed + tally.uncountedFailed.size > backoffLimit || pastOnFailure) return jobMessages.backoffLimit;
  const deadline = job.spec.activeDeadlineSeconds;
  if (deadline !== undefined && startTime !== undefined && job.spec.suspend !== true) {
    const remaining = Date.parse(startTime) + deadline * 1000 - now;
    if (remaining <= 0) return jobMessages.deadline;
    decision.requeueAfterMs = remaining;
  }
  return undefined;
}

/** How many pods to create now, or a requeue while the failure back-off runs. */
function scaleUp(obs: JobObservation, tally: Tally, active: Pod[], terminating: Pod[], decision: JobDecision): void {
  const { job, now } = obs;
  const completions = job.spec.completions ?? 1;
  const parallelism = job.spec.parallelism ?? 1;
  const totalFailed = tally.failed + tally.uncountedFailed.size;
  const totalSucceeded = tally.succeeded + tally.uncountedSucceeded.size;
  const wanted = Math.max(0, Math.min(parallelism, completions - totalSucceeded) - active.length - (obs.expectedCreations ?? 0) - terminatingCount(job, terminating));
  if (wanted <= 0) return;
  const lastFailure = Math.max(obs.lastFailureAt ?? 0, decision.failureAt ?? 0);
  const wait = totalFailed === 0 || lastFailure === 0 ? 0 : lastFailure + backoffDelayMs(totalFailed, obs.timing) - now;
  if (wait > 0) decision.requeueAfterMs = Math.min(decision.requeueAfterMs ?? wait, wait);
  else decision.createPods = wanted;
}

/** Step 3: the unfinished Job's fate (failure, success, suspension or more pods); returns the new conditions. */
function decideFate(obs: JobObservation, tally: Tally, active: Pod[], terminating: Pod[], startTime: string | undefined, decision: JobDecision): Condition[] {
  const { job } = obs;
  const nowIso = rfc3339(obs.now);
  let conditions = [...(job.status?.conditions ?? [])];
  const failure = jobFailure(obs, conditions, tally, active, startTime, decision);
  const success = failure === undefined && tally.succeeded + tally.uncountedSucceeded.size >= (job.spec.completions ?? 1);
  const drained = active.length === 0 && terminating.length === 0 && tally.uncountedFailed.size === 0 && tally.uncountedSucceeded.size === 0;
  if (failure !== undefined) {
    conditions = setCondition(conditions, 'FailureTarget', failure.reason, failure.message, nowIso);
    decision.deletePods = active.map((pod) => pod.metadata.name ?? '');
    if (drained) conditions = setCondition(conditions, 'Failed', failure.reason, failure.message, nowIso);
  } else if (success || isTrue(conditions, 'SuccessCriteriaMet') !== undefined) {
    conditions = setCondition(conditions, 'SuccessCriteriaMet', jobMessages.completions.reason, jobMessages.completions.message, nowIso);
    decision.deletePods = active.map((pod) => pod.metadata.name ?? '');
    if (drained) conditions = setCondition(conditions, 'Complete', jobMessages.completions.reason, jobMessages.completions.message, nowIso);
  } else if (job.spec.suspend === true) {
    conditions = setCondition(conditions, 'Suspended', jobMessages.suspended.reason, jobMessages.suspended.message, nowIso);
    decision.deletePods = active.map((pod) => pod.metadata.name ?? '');
  } else {
    if (isTrue(conditions, 'Suspended') !== undefined) {
      conditions = conditions.map((c) => c.type === 'Suspended' ? { ...c, status: 'False', reason: jobMessages.resumed.reason, message: jobMessages.resumed.message, lastTransitionTime: nowIso } : c);
    }
    scaleUp(obs, tally, active, terminating, decision);
  }
  return conditions;
}

export function decideJob(obs: JobObservation): JobDecision {
  const { job, now } = obs;
  const nowIso = rfc3339(now);
  const previous = job.status ?? {};
  const previousConditions = previous.conditions ?? [];
  const finished = isTrue(previousConditions, 'Complete') ?? isTrue(previousConditions, 'Failed');
  const decision = emptyDecision();
  const tally = tallyPods(obs, finished, decision);

  const active = obs.pods.filter(isPodActive);
  const terminating = obs.pods.filter((pod) => pod.metadata.deletionTimestamp !== undefined && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed');
  const ready = active.filter((pod) => isTrue(pod.status?.conditions, 'Ready') !== undefined).length;
  let startTime = previous.startTime;
  if (startTime === undefined && job.spec.suspend !== true && finished === undefined) startTime = nowIso;
  const conditions = finished === undefined ? decideFate(obs, tally, active, terminating, startTime, decision) : [...previousConditions];

  const nowFinished = isTrue(conditions, 'Complete') ?? isTrue(conditions, 'Failed');
  decision.status = {
    ...previous,
    conditions,
    startTime,
    active: nowFinished === undefined ? active.length - decision.deletePods.length + decision.createPods + (obs.expectedCreations ?? 0) : 0,
    ready,
    terminating: terminating.length,
    succeeded: tally.succeeded,
    failed: tally.failed,
    uncountedTerminatedPods: { succeeded: [...tally.uncountedSucceeded], failed: [...tally.uncountedFailed] },
  };
  if (isTrue(conditions, 'Complete') !== undefined && decision.status.completionTime === undefined) decision.status.completionTime = nowIso;
  return decision;
}

/** Terminating pods hold their slot until they are gone only when the Job replaces failed pods only. */
function terminatingCount(job: Job, terminating: Pod[]): number {
  return job.spec.podFailurePolicy !== undefined ? terminating.length : 0;
}
