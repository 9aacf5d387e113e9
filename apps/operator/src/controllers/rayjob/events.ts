import type { EventSpec, RayJob } from '@rayjob/core';
import { createEventRecorder, type EventRecorder, type KubeClient, type KubeObject } from '@rayjob/kube-runtime';

/** KubeRay's event recorder name for RayJobs (events' reportingController, and the field manager of our writes). */
export const RAYJOB_CONTROLLER_NAME = 'rayjob-controller';

/**
 * kube-runtime's recorder as the RayJob controller uses it: written in the background, repeats counted on one
 * Event (no event storms when a failing create is retried with backoff); reportingInstance is this replica.
 */
export function createRayJobEventRecorder(client: KubeClient, identity: string): EventRecorder {
  return createEventRecorder({ client, component: RAYJOB_CONTROLLER_NAME, instance: identity });
}

/** Records core's event about a RayJob (its EventSpec: type, reason, action, note). */
export function recordRayJobEvent(events: EventRecorder, rayJob: { metadata: RayJob['metadata'] }, event: EventSpec): void {
  const regarding = { apiVersion: 'ray.io/v1', kind: 'RayJob', ...rayJob } as KubeObject;
  events.event(regarding, event.type, event.reason, event.action, event.note);
}
