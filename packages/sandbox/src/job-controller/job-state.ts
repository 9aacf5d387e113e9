// What the Job controller keeps between reconciles, shared by its event handlers (controller.ts) and its sync
// (sync-job.ts): the caches, the pods it has created but not yet seen (kube-runtime's expectations), pods
// that vanished while holding the tracking finalizer, and the last failure time per Job for back-off.
import { describeError, resources, type EventRecorder, type Expectations, type Informer, type KubeClient } from '@rayjob/kube-runtime';
import type { Job, Pod } from '../kube-objects/types.ts';
import { trackingFinalizer, type JobControllerTiming } from './decide.ts';

export interface JobControllerState {
  client: KubeClient;
  timing: JobControllerTiming;
  now: () => number;
  random: () => number;
  report: (message: string) => void;
  events: EventRecorder;
  jobs: Informer<Job>;
  pods: Informer<Pod>;
  jobKeyByUid: Map<string, string>;
  /** Pods deleted while they held the tracking finalizer, per Job uid: they still count as finished. */
  vanished: Map<string, Map<string, Pod>>;
  lastFailureAt: Map<string, number>;
  /**
   * Pods created but not yet seen in the pod cache, per Job uid (kube-controller-manager's expectations): the
   * pod informer's events observe them, so a reconcile before the cache catches up does not create them again.
   */
  expectations: Expectations;
  /** Pods last seen holding the tracking finalizer: a pod deleted from that state still counts as finished. */
  tracked: Set<string>;
}

export function controllerJobUid(pod: Pod): string | undefined {
  return pod.metadata.ownerReferences?.find((ref) => ref.controller === true && ref.kind === 'Job')?.uid;
}

export const hasTrackingFinalizer = (pod: Pod): boolean => pod.metadata.finalizers?.includes(trackingFinalizer) ?? false;

/** false: try again (409, or an error already reported). */
export async function removeFinalizer(state: JobControllerState, pod: Pod): Promise<boolean> {
  const remaining = (pod.metadata.finalizers ?? []).filter((f) => f !== trackingFinalizer);
  const result = await state.client.patch(resources.pods, { namespace: pod.metadata.namespace, name: pod.metadata.name },
    { metadata: { finalizers: remaining, resourceVersion: pod.metadata.resourceVersion } });
  if (result.ok || result.error.status === 404) return true;
  if (result.error.status !== 409) state.report(`remove finalizer of ${pod.metadata.name}: ${describeError(result.error)}`);
  return false;
}
