import type { EventSpec, RayJob } from '@rayjob/core';
import type { EventRecorder, KubeObject, Manager } from '@rayjob/kube-runtime';

/** KubeRay's event recorder name for RayJobs (events' reportingController, and the field manager of our writes). */
export const RAYJOB_CONTROLLER_NAME = 'rayjob-controller';

/**
 * The manager's recorder as the RayJob controller uses it (over the lease-fenced client, flushed when the manager
 * stops): written in the background, repeats counted on one Event (no event storms when a failing create is retried
 * with backoff); reportingInstance is this replica.
 */
export function rayJobEventRecorder(manager: Pick<Manager, 'eventRecorder'>, identity: string): EventRecorder {
  return manager.eventRecorder(RAYJOB_CONTROLLER_NAME, { instance: identity });
}

/** Records core's event about a RayJob (its EventSpec: type, reason, action, note). */
export function recordRayJobEvent(events: EventRecorder, rayJob: { metadata: RayJob['metadata'] }, event: EventSpec): void {
  const regarding = { apiVersion: 'ray.io/v1', kind: 'RayJob', ...rayJob } as KubeObject;
  events.event(regarding, event.type, event.reason, event.action, event.note);
}
