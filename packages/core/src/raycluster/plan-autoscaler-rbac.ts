import { autoscalerServiceAccountName } from '../builders/raycluster/autoscaler.ts';
import { buildAutoscalerRole, buildAutoscalerRoleBinding, buildAutoscalerServiceAccount } from '../builders/raycluster/autoscaler-rbac.ts';
import { isAutoscalingEnabled } from '../validation/raycluster-spec.ts';
import type { ClusterAction } from './actions.ts';
import type { RayClusterObservation } from './observation.ts';

/**
 * KubeRay's first three sub-reconcilers (§3 step 6, §6.3): with autoscaling on, the head's ServiceAccount, the
 * Role and the RoleBinding, each created once when missing. A ServiceAccount the head template names is the
 * user's to create: while it is missing the pass stops with KubeRay's AutoscalerServiceAccountNotFound.
 */
export function planAutoscalerRbac(obs: RayClusterObservation): ClusterAction[] {
  const { cluster } = obs;
  const seen = obs.autoscalerRbac;
  if (!isAutoscalingEnabled(cluster.spec) || !seen) return [];
  const ns = cluster.metadata.namespace ?? '';
  const actions: ClusterAction[] = [];
  if (!seen.serviceAccountExists) {
    const own = cluster.spec.headGroupSpec.template.spec?.serviceAccountName;
    if (own) {
      const advice = `If users specify ServiceAccountName for the head Pod, they need to create a ServiceAccount themselves. However, ServiceAccount ${own} is not found. Please create one. See the PR description of https://github.com/ray-project/kuberay/pull/1128 for more details.`;
      return [{
        type: 'fail',
        message: `serviceaccounts "${own}" not found`,
        event: { type: 'Warning', reason: 'AutoscalerServiceAccountNotFound', action: 'Validate', note: `Failed to reconcile RayCluster ${ns}/${cluster.metadata.name}. ${advice}` },
      }];
    }
    const name = autoscalerServiceAccountName(cluster);
    actions.push({
      type: 'createRbacObject',
      kind: 'ServiceAccount',
      object: buildAutoscalerServiceAccount(cluster),
      success: { type: 'Normal', reason: 'CreatedServiceAccount', action: 'Create', note: `Created service account ${ns}/${name}` },
      failure: { reason: 'FailedToCreateServiceAccount', note: `Failed creating service account ${ns}/${name}` },
    });
  }
  if (!seen.roleExists) {
    const role = buildAutoscalerRole(cluster);
    actions.push({
      type: 'createRbacObject',
      kind: 'Role',
      object: role,
      success: { type: 'Normal', reason: 'CreatedRole', action: 'Create', note: `Created role ${ns}/${role.metadata.name}` },
      failure: { reason: 'FailedToCreateRole', note: `Failed creating role ${ns}/${role.metadata.name}` },
    });
  }
  if (!seen.roleBindingExists) {
    const binding = buildAutoscalerRoleBinding(cluster);
    actions.push({
      type: 'createRbacObject',
      kind: 'RoleBinding',
      object: binding,
      success: { type: 'Normal', reason: 'CreatedRoleBinding', action: 'Create', note: `Created role binding ${ns}/${binding.metadata.name}` },
      failure: { reason: 'FailedToCreateRoleBinding', note: `Failed creating role binding ${ns}/${binding.metadata.name}` },
    });
  }
  return actions;
}
