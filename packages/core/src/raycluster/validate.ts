import { goStringList, isDNS1035Label } from '../validation/k8s-names.ts';
import { validateRayClusterSpec } from '../validation/raycluster-spec.ts';
import type { ValidationSettings } from '../validation/result.ts';
import type { RayCluster } from '../schema/index.ts';
import { isConditionTrue, RAY_CLUSTER_CONDITION_TYPES as T } from '../conditions/condition-set.ts';
import type { ClusterEvent } from './actions.ts';

/**
 * KubeRay's RayCluster validation (§12): metadata, spec, upgrade strategy, status; first failure wins. A failure
 * is a Warning event only: no status write, no requeue until the object changes (as in KubeRay).
 */
export const MAX_RAYCLUSTER_NAME_LENGTH = 53;

export function validateRayCluster(cluster: RayCluster, settings: ValidationSettings): ClusterEvent | undefined {
  const id = `${cluster.metadata.namespace}/${cluster.metadata.name}`;
  const warn = (reason: string, note: string): ClusterEvent => ({ type: 'Warning', reason, action: 'Validate', note });
  const name = cluster.metadata.name ?? '';
  let metadataError: string | undefined;
  if (name.length > MAX_RAYCLUSTER_NAME_LENGTH) metadataError = `RayCluster name should be no more than ${MAX_RAYCLUSTER_NAME_LENGTH} characters`;
  else if (isDNS1035Label(name).length > 0) metadataError = `RayCluster name should be a valid DNS1035 label: ${goStringList(isDNS1035Label(name))}`;
  if (metadataError) return warn('InvalidRayClusterMetadata', `The RayCluster metadata is invalid ${id}: ${metadataError}`);
  const specError = validateRayClusterSpec(cluster.spec, cluster.metadata.annotations ?? {}, settings);
  if (specError) return warn('InvalidRayClusterSpec', `The RayCluster spec is invalid ${id}: ${specError}`);
  const upgrade = cluster.spec.upgradeStrategy?.type;
  if (upgrade !== undefined && cluster.metadata.labels?.['ray.io/originated-from-crd'] === 'RayJob') {
    return warn('InvalidRayClusterSpec', `The RayCluster UpgradeStrategy is invalid ${id}: upgradeStrategy cannot be set when RayCluster is created by RayJob`);
  }
  const conditions = cluster.status?.conditions;
  if (isConditionTrue(conditions, T.suspending) && isConditionTrue(conditions, T.suspended)) {
    return warn(
      'InvalidRayClusterStatus',
      `The RayCluster status is invalid ${id}, invalid RayCluster State: rayv1.RayClusterSuspending and rayv1.RayClusterSuspended conditions should not be both true`,
    );
  }
  return undefined;
}

/**
 * Autoscaler v1 with a worker restartPolicy other than Never: a warning event only, the pass goes on (KubeRay
 * checks it after validation, for an explicit `version: v1`).
 */
export function autoscalerV1RestartPolicyWarning(cluster: RayCluster): ClusterEvent | undefined {
  if (cluster.spec.enableInTreeAutoscaling !== true || cluster.spec.autoscalerOptions?.version !== 'v1') return undefined;
  const groups = (cluster.spec.workerGroupSpecs ?? []).filter((g) => {
    const policy = g.template.spec?.restartPolicy;
    return policy !== undefined && policy !== '' && policy !== 'Never';
  });
  if (groups.length === 0) return undefined;
  const id = `${cluster.metadata.namespace}/${cluster.metadata.name}`;
  const names = groups.map((g) => g.groupName).join(', ');
  return {
    type: 'Warning',
    reason: 'InvalidRayClusterSpec',
    action: 'Validate',
    note: `RayCluster spec warning ${id}: restartPolicy for worker groups [${names}] should be Never or unset when using autoscaler V1`,
  };
}
