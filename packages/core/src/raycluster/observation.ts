// What the RayCluster controller read for one pass: the input of planRayCluster (its own module, so the plan and
// the worker-group planning both depend on it without depending on each other).
import type { Pod, RayCluster, Service } from '../schema/index.ts';
import type { ScaleExpectations } from './expectations.ts';

export interface RayClusterObservation {
  /** The cluster as read (schema defaults applied). */
  cluster: RayCluster;
  /** Every Pod labelled `ray.io/cluster=<name>` in the cluster's namespace, terminating ones included. */
  pods: readonly Pod[];
  /** Services carrying the head lookup labels (cluster, node-type head, identifier). */
  headServices: readonly Service[];
  headlessServiceExists: boolean;
  serveServiceExists: boolean;
  authSecretExists: boolean;
  /** Autoscaling clusters: which of the autoscaler's ServiceAccount, Role and RoleBinding exist (read only then). */
  autoscalerRbac?: AutoscalerRbacObservation;
  /** Pending scale expectations: Pods created the cache does not show yet, or deleted it still shows. */
  expectations: ScaleExpectations;
  now: Date;
}

export interface AutoscalerRbacObservation {
  serviceAccountExists: boolean;
  roleExists: boolean;
  roleBindingExists: boolean;
}
