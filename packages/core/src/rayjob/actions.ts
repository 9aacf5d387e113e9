import type { ConfigMap, K8sJob, RayCluster, Service } from '../schema/index.ts';
import type { SubmitJobRequest } from '../builders/submit-request.ts';

/** An event about the RayJob, events.k8s.io style (KubeRay's recorder: reason, action, note). */
export interface EventSpec {
  type: 'Normal' | 'Warning';
  reason: string;
  action: string;
  note: string;
}

/**
 * What the executor does after (or before, see `writeStatusFirst`) the status write. Every action is idempotent:
 * create means create-if-absent (409 AlreadyExists is success), delete means delete-if-present.
 */
export type Action =
  | { type: 'addFinalizer'; finalizer: string }
  | { type: 'removeFinalizer'; finalizer: string }
  | { type: 'createCluster'; cluster: RayCluster }
  | { type: 'deleteCluster'; name: string }
  | { type: 'suspendWorkerGroups'; name: string }
  | { type: 'createSubmitterJob'; job: K8sJob; recreated: boolean }
  | { type: 'deleteSubmitterJob'; name: string }
  /**
   * Addition H: create the submitter-state ConfigMap, or merge `key` into it, so every submitter built before the
   * job was seen starts attach-only from now on. The executor remembers `attachOnlyMarked` once it is written.
   */
  | { type: 'markSubmittersAttachOnly'; configMap: ConfigMap; key: string }
  /**
   * K8sJobMode, just before the attempt's first submitter Job is created: create the submitter-state ConfigMap
   * with `key` = the head's IP, or merge the key in, never changing a key already there (a recreated Job keeps the
   * first head). A failure is an error, so the Job after it is not created this reconcile: a Job whose head was not
   * recorded would submit again to a replacement head. The executor remembers `submitterHeadRecorded`.
   */
  | { type: 'recordSubmitterHead'; configMap: ConfigMap; key: string; headIP: string }
  /** Create the RayJob head Service, or update it (keeping its clusterIP) when it points at another cluster. */
  | { type: 'applyHeadService'; service: Service; existing: 'absent' | 'stale' }
  /**
   * HTTPMode. Once Ray accepted the job, the same reconcile writes the decision's `onAccept` status (when it has
   * one), so an operator restart before the next look still knows the job was submitted (addition H).
   */
  | { type: 'submitRayJob'; dashboardURL: string; request: SubmitJobRequest }
  /** Best effort: failures are retried by later reconciles, never block the state machine. */
  | { type: 'stopRayJob'; dashboardURL: string; jobId: string; why: string }
  | { type: 'deleteRayJob' }
  | { type: 'emitEvent'; event: EventSpec };

export type ActionType = Action['type'];
