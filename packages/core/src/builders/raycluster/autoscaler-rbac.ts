import type { RayCluster } from '../../schema/index.ts';
import { CREATED_BY_OPERATOR, labelKeys } from '../labels.ts';
import { autoscalerRoleName, autoscalerServiceAccountName } from './autoscaler.ts';
import { rayClusterOwnerReference } from './ray-pod.ts';

/** The autoscaler's ServiceAccount, Role and RoleBinding (reference §6.3): owned by the RayCluster, created once. */

const rbacLabels = (cluster: RayCluster) => ({
  [labelKeys.cluster]: cluster.metadata.name ?? '',
  [labelKeys.appName]: 'kuberay',
  [labelKeys.createdBy]: CREATED_BY_OPERATOR,
});

export function buildAutoscalerServiceAccount(cluster: RayCluster) {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: { name: autoscalerServiceAccountName(cluster), namespace: cluster.metadata.namespace, labels: rbacLabels(cluster), ownerReferences: [rayClusterOwnerReference(cluster)] },
  };
}

/** Exactly the calls Ray's KubeRay node provider makes: read the RayCluster and its Pods, patch the RayCluster's replicas. */
export const AUTOSCALER_RULES = [
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch', 'patch'] },
  { apiGroups: [''], resources: ['pods/resize'], verbs: ['patch'] },
  { apiGroups: ['ray.io'], resources: ['rayclusters'], verbs: ['get', 'patch'] },
];

export function buildAutoscalerRole(cluster: RayCluster) {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: autoscalerRoleName(cluster), namespace: cluster.metadata.namespace, labels: rbacLabels(cluster), ownerReferences: [rayClusterOwnerReference(cluster)] },
    rules: structuredClone(AUTOSCALER_RULES),
  };
}

export function buildAutoscalerRoleBinding(cluster: RayCluster) {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name: autoscalerRoleName(cluster), namespace: cluster.metadata.namespace, labels: rbacLabels(cluster), ownerReferences: [rayClusterOwnerReference(cluster)] },
    subjects: [{ kind: 'ServiceAccount', name: autoscalerServiceAccountName(cluster), namespace: cluster.metadata.namespace }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: autoscalerRoleName(cluster) },
  };
}
