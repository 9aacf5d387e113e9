import { hostname } from 'node:os';
import type { ClusterEvent } from '@rayjob/core';
import { describeError, resources, type KubeClient, type Logger } from '@rayjob/kube-runtime';

/**
 * KubeRay's `raycluster-controller` event recorder (events.k8s.io/v1), regarding the RayCluster. Recording is
 * best effort: a failed event never fails a reconcile, it is only logged.
 */

export const RAYCLUSTER_REPORTING_CONTROLLER = 'raycluster-controller';

export interface Regarding {
  namespace: string;
  name: string;
  uid?: string | undefined;
  resourceVersion?: string | undefined;
}

export type RecordEvent = (regarding: Regarding, event: ClusterEvent) => void;

/** Kubernetes MicroTime: RFC 3339 with exactly six fractional digits. */
export const microTime = (d: Date): string => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export function createEventRecorder(client: KubeClient, log: Logger, now: () => Date = () => new Date()): RecordEvent {
  const instance = `${RAYCLUSTER_REPORTING_CONTROLLER}-${hostname()}`;
  return (regarding, event) => {
    const at = now();
    const body = {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name: `${regarding.name}.${at.getTime().toString(16)}${Math.floor(Math.random() * 0xfffff).toString(16)}`, namespace: regarding.namespace },
      eventTime: microTime(at),
      reportingController: RAYCLUSTER_REPORTING_CONTROLLER,
      reportingInstance: instance,
      action: event.action,
      reason: event.reason,
      note: event.note.slice(0, 1024),
      type: event.type,
      regarding: {
        apiVersion: 'ray.io/v1',
        kind: 'RayCluster',
        namespace: regarding.namespace,
        name: regarding.name,
        ...(regarding.uid ? { uid: regarding.uid } : {}),
        ...(regarding.resourceVersion ? { resourceVersion: regarding.resourceVersion } : {}),
      },
    };
    void client.create(resources.eventsV1, body, { namespace: regarding.namespace }).then((result) => {
      if (!result.ok) log.info({ reason: event.reason, error: describeError(result.error) }, 'could not record event');
    });
  };
}
