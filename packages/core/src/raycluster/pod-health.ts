import type { ContainerState, Pod } from '../schema/index.ts';

/** KubeRay's reading of Pod health (shouldDeletePod, IsRunningAndReady, CheckAllPodsRunning). */

export const podPhase = (pod: Pod): string => pod.status?.phase ?? '';

/** The Ray container (spec container 0, found by name in the statuses) has terminated. */
export function rayContainerTerminated(pod: Pod): ContainerState['terminated'] | undefined {
  const name = pod.spec?.containers?.[0]?.name;
  return pod.status?.containerStatuses?.find((s) => s.name === name)?.state?.terminated;
}

const readyCondition = (pod: Pod) => pod.status?.conditions?.find((c) => c.type === 'Ready');

export const isRunningAndReady = (pod: Pod): boolean => podPhase(pod) === 'Running' && readyCondition(pod)?.status === 'True';

/** Every Pod Running and none with a Ready condition other than True; false for no Pods. */
export function allPodsRunning(pods: readonly Pod[]): boolean {
  if (pods.length === 0) return false;
  return pods.every((p) => podPhase(p) === 'Running' && (readyCondition(p) === undefined || readyCondition(p)?.status === 'True'));
}

export function describeTerminated(pod: Pod): string {
  const t = rayContainerTerminated(pod);
  if (!t) return 'nil';
  return `&ContainerStateTerminated{ExitCode:${t.exitCode},Signal:${t.signal ?? 0},Reason:${t.reason ?? ''},Message:${t.message ?? ''}}`;
}

/**
 * A Pod that cannot come back: phase Failed/Succeeded, or Running with the Ray container terminated under
 * restartPolicy Never. Returns the reason text KubeRay logs and returns as the pass's error.
 */
export function unhealthyPodReason(pod: Pod, nodeType: 'head' | 'worker'): string | undefined {
  const phase = podPhase(pod);
  const name = pod.metadata.name ?? '';
  if (phase === 'Failed' || phase === 'Succeeded') {
    return `The ${nodeType} Pod ${name} status is ${phase} which is a terminal state. KubeRay will delete the Pod and create new Pods in the next reconciliation if necessary.`;
  }
  if (phase === 'Running' && rayContainerTerminated(pod) && pod.spec?.restartPolicy === 'Never') {
    return `The Pod status of the ${nodeType} Pod ${name} is ${phase}, and the Ray container terminated status is ${describeTerminated(pod)}. The container is unable to restart due to its restart policy Never, so KubeRay will delete it.`;
  }
  return undefined;
}

/** The note of KubeRay's DeletedHeadPod / DeletedWorkerPod events for an unhealthy Pod. */
export function unhealthyDeleteNote(pod: Pod, what: 'head' | 'worker'): string {
  const policy = pod.spec?.restartPolicy ?? '';
  return `Deleted ${what} Pod ${pod.metadata.namespace}/${pod.metadata.name}; Pod status: ${podPhase(pod)}; Pod restart policy: ${policy}; Ray container terminated status: ${describeTerminated(pod)}`;
}
