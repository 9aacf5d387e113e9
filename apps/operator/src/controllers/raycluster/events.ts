import { hostname } from 'node:os';
import type { ClusterEvent } from '@rayjob/core';
import { createEventRecorder as createRuntimeRecorder, systemClock, type KubeClient, type Logger } from '@rayjob/kube-runtime';

/**
 * KubeRay's `raycluster-controller` event recorder (events.k8s.io/v1), regarding the RayCluster. Recording is
 * best effort: a failed event never fails a reconcile, it is only logged. Repeats go through kube-runtime's
 * recorder, like client-go's: KubeRay re-emits some events on every pass (a suspension's `DeletedPod`, a
 * suspended group's `DeletedWorkerPod`), and those must count up one event's series, not pile up new objects.
 */

export const RAYCLUSTER_REPORTING_CONTROLLER = 'raycluster-controller';

export interface Regarding {
  namespace: string;
  name: string;
  uid?: string | undefined;
  resourceVersion?: string | undefined;
}

export type RecordEvent = (regarding: Regarding, event: ClusterEvent) => void;

export interface RayClusterEventRecorder {
  record: RecordEvent;
  /** Resolves once every recorded event is written (or given up on). */
  flush(): Promise<void>;
}

export function createEventRecorder(client: KubeClient, log: Logger, now: () => Date = () => new Date()): RayClusterEventRecorder {
  const recorder = createRuntimeRecorder({
    client,
    component: RAYCLUSTER_REPORTING_CONTROLLER,
    instance: `${RAYCLUSTER_REPORTING_CONTROLLER}-${hostname()}`,
    clock: { ...systemClock, now: () => now().getTime() },
    logger: log,
  });
  return {
    record: (regarding, event) => {
      const metadata = {
        namespace: regarding.namespace,
        name: regarding.name,
        ...(regarding.uid ? { uid: regarding.uid } : {}),
        ...(regarding.resourceVersion ? { resourceVersion: regarding.resourceVersion } : {}),
      };
      recorder.event({ apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata }, event.type, event.reason, event.action, event.note);
    },
    flush: () => recorder.flush(),
  };
}
