// core/v1 Events, as controllers and the kubelet record them (what `kubectl describe` shows).
// Fire-and-forget: an event that cannot be written never blocks or fails the caller. Repeats of the
// same (object, reason, message) bump `count` and `lastTimestamp` on one Event, as Kubernetes does.
import { kubeTime } from './time.ts';
import { randomBytes } from 'node:crypto';
import type { KubeClient } from './rest-client.ts';
import { resources } from './rest-client.ts';
import type { KubeObject } from './types.ts';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorder {
  record(object: KubeObject, type: EventType, reason: string, message: string): void;
}

export function createEventRecorder(client: KubeClient, component: string, host?: string): EventRecorder {
  const seen = new Map<string, { name: string; count: number }>();
  return {
    record(object, type, reason, message) {
      const namespace = object.metadata.namespace ?? 'default';
      const key = `${object.metadata.uid ?? ''}|${reason}|${message}`;
      const now = kubeTime();
      const previous = seen.get(key);
      if (previous !== undefined) {
        previous.count += 1;
        void client.patch(resources.events, { namespace, name: previous.name }, { count: previous.count, lastTimestamp: now });
        return;
      }
      const name = `${object.metadata.name ?? 'object'}.${randomBytes(8).toString('hex')}`;
      seen.set(key, { name, count: 1 });
      if (seen.size > 5000) seen.delete(seen.keys().next().value ?? '');
      const source: Record<string, string> = { component };
      if (host !== undefined) source.host = host;
      void client.create(resources.events, { namespace }, {
        apiVersion: 'v1', kind: 'Event',
        metadata: { name, namespace },
        involvedObject: { apiVersion: object.apiVersion, kind: object.kind, namespace, name: object.metadata.name, uid: object.metadata.uid, resourceVersion: object.metadata.resourceVersion },
        reason, message, type, source, count: 1,
        firstTimestamp: now, lastTimestamp: now,
        reportingComponent: component, reportingInstance: host ?? component,
      });
    },
  };
}
