import type { Pod, Service } from '../schema/index.ts';

/** What the RayCluster controller executes, in order; the first failure ends the pass (KubeRay's sub-reconcilers). */

export type ReplicaFailureReason =
  | 'FailedCreateHeadPod'
  | 'FailedDeleteHeadPod'
  | 'FailedCreateWorkerPod'
  | 'FailedDeleteWorkerPod'
  | 'FailedDeleteAllPods';

export interface ClusterEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  action: 'Create' | 'Delete' | 'Validate' | 'Cleanup';
  note: string;
}

/** On failure the executor emits `reason` with `note + ", " + <API error>` and, with a marker, sets ReplicaFailure. */
export interface FailureSpec {
  reason: string;
  note: string;
  marker?: ReplicaFailureReason;
}

export type ClusterAction =
  | { type: 'createService'; role: 'head' | 'headless' | 'serve'; service: Service; failure?: FailureSpec }
  | { type: 'createAuthSecret'; name: string }
  /** The autoscaler's ServiceAccount, Role or RoleBinding; AlreadyExists counts as done (created once). */
  | { type: 'createRbacObject'; kind: 'ServiceAccount' | 'Role' | 'RoleBinding'; object: { metadata: { name?: string } }; success: ClusterEvent; failure: FailureSpec }
  /** A pass that cannot go on (e.g. the head's own ServiceAccount is missing): this Warning event, then the error. */
  | { type: 'fail'; event: ClusterEvent; message: string }
  | { type: 'createPod'; group: string; pod: Pod; failure: FailureSpec }
  | {
      type: 'deletePod';
      group: string;
      name: string;
      /** NotFound counts as success (workersToDelete, scale-down). */
      ignoreNotFound: boolean;
      /** Normal event on success; `{name}` is replaced by the Pod's name. */
      success: ClusterEvent;
      failure: FailureSpec;
    }
  | {
      type: 'deleteAllPods';
      /** Only this group's worker Pods; undefined = every Pod of the cluster. */
      group?: string;
      success: ClusterEvent;
      failure: FailureSpec;
      /** Recreate upgrades forget the cluster's expectations (the Pods are all going). */
      forgetExpectations?: boolean;
    }
  /** Adopt a head Pod built by another operator version: record our hash and version, recreate nothing. */
  | { type: 'annotateHeadPod'; name: string; annotations: Record<string, string> };

export type ClusterActionType = ClusterAction['type'];

/** An error of the pass itself (not of an API call): the status gets computed with it, then a 2 s requeue. */
export interface PlanError {
  message: string;
}

export interface RayClusterPlan {
  actions: ClusterAction[];
  error?: PlanError;
}
