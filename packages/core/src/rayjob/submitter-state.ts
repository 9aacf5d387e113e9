import { parseTerminationMessage, type TerminationMessage } from '../contracts/termination-message.ts';
import type { ContainerStatus, K8sJob, Pod } from '../schema/index.ts';
import type { Context } from './context.ts';
import { messages } from './messages.ts';
import { parseKubeTime } from '../go-text/time-format.ts';
import { SUBMITTER_CONTAINER_NAME } from '../builders/submitter-container.ts';



/**
 * What the submitter (K8sJobMode Job or SidecarMode container) tells us, reduced to what the rules read.
 * `failure` is a *claim* of the submitter, not evidence about the Ray job (rule 2).
 */
export interface SubmitterState {
  /** false for HTTPMode and InteractiveMode, which have no submitter. */
  exists: boolean;
  /** K8sJobMode: the Job object is missing (deleted by hand: addition B). */
  missing: boolean;
  failure?: { message: string } | undefined;
  /** When the submitter finished (Job Complete/Failed condition, sidecar terminated.finishedAt). */
  finishedAt?: Date | undefined;
  /** Addition A: the submitter's own final word, for this submission ID only. */
  terminationMessage?: TerminationMessage | undefined;
  /** SidecarMode: the head pod is gone (rule 6). */
  headPodMissing: boolean;
  /** SidecarMode: more than one head pod (KubeRay returns an error and retries). */
  multipleHeads: boolean;
  /**
   * The submitter is on its way out and can report nothing new: K8sJobMode, its Job is being deleted;
   * SidecarMode, the head pod it lives in is terminating.
   */
  terminating: boolean;
}

const none: SubmitterState = { exists: false, missing: false, headPodMissing: false, multipleHeads: false, terminating: false };

export function observeSubmitter(ctx: Context): SubmitterState {
  const jobId = ctx.status.jobId ?? '';
  if (ctx.mode === 'K8sJobMode') return fromK8sJob(ctx.input.submitterJob, ctx.input.submitterPods ?? [], jobId);
  if (ctx.mode === 'SidecarMode') {
    const limit = ctx.rayJob.spec.submitterConfig?.backoffLimit ?? 2;
    return fromHeadPods(ctx.input.headPods ?? [], jobId, ctx.input.settings.featureGates.sidecarSubmitterRestart, limit);
  }
  return none;
}

export function fromK8sJob(job: K8sJob | undefined, pods: Pod[], jobId: string): SubmitterState {
  if (!job) return { ...none, exists: true, missing: true };
  const conditions = job.status?.conditions ?? [];
  // KubeRay reads only Failed=True (FailureTarget is ignored: the pods may still be terminating).
  const failed = conditions.find((c) => c.type === 'Failed' && c.status === 'True');
  const finished = conditions.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  return {
    ...none,
    exists: true,
    terminating: job.metadata.deletionTimestamp !== undefined,
    failure: failed ? { message: messages.submitterJobFailed(failed.reason ?? '', failed.message ?? '') } : undefined,
    finishedAt: parseKubeTime(finished?.lastTransitionTime) ?? succeededAt(pods),
    terminationMessage: latestTerminationMessage(pods.map((p) => firstContainerStatus(p)), jobId),
  };
}

export function fromHeadPods(headPods: Pod[], jobId: string, restartGate: boolean, restartLimit: number): SubmitterState {
  if (headPods.length === 0) return { ...none, exists: true, headPodMissing: true };
  if (headPods.length > 1) return { ...none, exists: true, multipleHeads: true };
  const head = headPods[0];
  const cs = head?.status?.containerStatuses?.find((c) => c.name === SUBMITTER_CONTAINER_NAME);
  const terminated = cs?.state?.terminated;
  let failure: SubmitterState['failure'];
  if (!restartGate) {
    if (terminated && (terminated.exitCode ?? 0) !== 0) {
      failure = { message: messages.sidecarTerminated(terminated.exitCode ?? 0, terminated.reason ?? '') };
    }
  } else if (cs?.lastState?.terminated && !(terminated && (terminated.exitCode ?? 0) === 0)) {
    if ((cs.restartCount ?? 0) >= restartLimit) failure = { message: messages.sidecarRestartsExceeded };
  }
  return {
    ...none,
    exists: true,
    terminating: head?.metadata?.deletionTimestamp !== undefined,
    failure,
    finishedAt: parseKubeTime(terminated?.finishedAt),
    terminationMessage: latestTerminationMessage([cs], jobId),
  };
}

/**
 * When a submitter pod's container exited 0, if one did: the Job is then bound to turn Complete (one completion,
 * never retried), so the submitter has finished and #1919's wait is over. Acting on the container's exit instead
 * of the Job's condition saves the Job controller's round (compat B1). A non-zero exit proves nothing yet: the
 * Job may retry the pod, and only its Failed condition carries the reason rule 2 reports.
 */
function succeededAt(pods: Pod[]): Date | undefined {
  let first: Date | undefined;
  for (const pod of pods) {
    const terminated = firstContainerStatus(pod)?.state?.terminated;
    if (!terminated || (terminated.exitCode ?? -1) !== 0) continue;
    const at = parseKubeTime(terminated.finishedAt);
    if (at && (!first || at < first)) first = at;
  }
  return first;
}

function firstContainerStatus(pod: Pod): ContainerStatus | undefined {
  const first = pod.spec?.containers?.[0]?.name;
  const statuses = pod.status?.containerStatuses ?? [];
  return statuses.find((s) => s.name === first) ?? statuses[0];
}

/** The newest termination message of ours among these container statuses, for this submission ID only. */
function latestTerminationMessage(statuses: Array<ContainerStatus | undefined>, jobId: string): TerminationMessage | undefined {
  let best: { at: number; msg: TerminationMessage } | undefined;
  for (const cs of statuses) {
    for (const terminated of [cs?.state?.terminated, cs?.lastState?.terminated]) {
      const msg = parseTerminationMessage(terminated?.message);
      if (!msg || msg.submissionId !== jobId) continue;
      const at = parseKubeTime(terminated?.finishedAt)?.getTime() ?? 0;
      if (!best || at > best.at) best = { at, msg };
    }
  }
  return best?.msg;
}
