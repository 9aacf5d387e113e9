import { fromHeadPods, fromK8sJob, parseKubeTime, type DecisionInput, type OperatorMemory } from '@rayjob/core';

/**
 * When the next timer of a Running RayJob falls due (activeDeadlineSeconds, the submitter-finished window,
 * the driver-lost window, the status-check timeout, the transition grace period), in seconds from now.
 * The operator polls a running job rarely (watch events and the log tail bring changes), so it must wake up
 * exactly when a timer can change the verdict. Scheduling only: core still decides what the timer means.
 */
export function secondsToNextTimer(input: DecisionInput, memory: OperatorMemory): number | undefined {
  const { rayJob, settings, now } = input;
  const status = rayJob.status ?? {};
  const due: Array<Date | undefined> = [];
  const at = (base: Date | undefined, seconds: number | undefined): Date | undefined =>
    base && typeof seconds === 'number' ? new Date(base.getTime() + seconds * 1000) : undefined;
  due.push(at(parseKubeTime(status.startTime), rayJob.spec.activeDeadlineSeconds ?? undefined));
  due.push(at(parseKubeTime(status.jobStatusCheckFailureStartTime), settings.statusCheckTimeoutSeconds));
  due.push(at(parseKubeTime(status.rayJobInfo?.endTime), settings.transitionGracePeriodSeconds));
  const lost = memory.driverNodeLostSince;
  if (lost) due.push(at(new Date(lost.since), settings.driverLostAfterSeconds));
  const mode = rayJob.spec.submissionMode ?? 'K8sJobMode';
  const jobId = status.jobId ?? '';
  const submitter =
    mode === 'K8sJobMode' && input.submitterJob
      ? fromK8sJob(input.submitterJob, input.submitterPods ?? [], jobId)
      : mode === 'SidecarMode'
        ? fromHeadPods(input.headPods ?? [], jobId, settings.featureGates.sidecarSubmitterRestart, rayJob.spec.submitterConfig?.backoffLimit ?? 2)
        : undefined;
  due.push(at(submitter?.finishedAt, settings.submitterFinishedTimeoutSeconds));
  const waits = due
    .filter((d): d is Date => d !== undefined)
    .map((d) => (d.getTime() - now.getTime()) / 1000)
    .filter((s) => s > 0);
  // A little after the instant, so the timer has surely passed when core looks.
  return waits.length ? Math.min(...waits) + 0.05 : undefined;
}
