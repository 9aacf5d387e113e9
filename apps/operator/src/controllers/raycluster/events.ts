import { hostname } from 'node:os';
import type { ClusterEvent, RayCluster } from '@rayjob/core';
import type { EventRecorder, KubeObject, Manager } from '@rayjob/kube-runtime';

/** KubeRay's event recorder name for RayClusters (events' reportingController). */
export const RAYCLUSTER_CONTROLLER_NAME = 'raycluster-controller';

/**
 * The manager's recorder as the RayCluster controller uses it (events.k8s.io/v1, regarding the RayCluster, over the
 * lease-fenced client, flushed when the manager stops). Recording is best effort: a failed event never fails a
 * reconcile, it is only logged. Repeats are counted on one event's series, like client-go's: KubeRay re-emits some
 * events on every pass (a suspension's `DeletedPod`, a suspended group's `DeletedWorkerPod`), and those must count
 * up, not pile up new objects.
 */
export function rayClusterEventRecorder(manager: Pick<Manager, 'eventRecorder'>): EventRecorder {
  return manager.eventRecorder(RAYCLUSTER_CONTROLLER_NAME, { instance: `${RAYCLUSTER_CONTROLLER_NAME}-${hostname()}` });
}

/** Records core's event about a RayCluster (regarding its namespace, name, uid and resourceVersion). */
export function recordRayClusterEvent(events: EventRecorder, cluster: { metadata: RayCluster['metadata'] }, event: ClusterEvent): void {
  const m = cluster.metadata;
  const metadata = { namespace: m.namespace ?? '', name: m.name ?? '', ...(m.uid ? { uid: m.uid } : {}), ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}) };
  const regarding: KubeObject = { apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata };
  events.event(regarding, event.type, event.reason, event.action, event.note);
}
