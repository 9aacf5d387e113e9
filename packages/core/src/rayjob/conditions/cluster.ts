import { findCondition, RAY_CLUSTER_CONDITION_TYPES as RC } from '../../conditions/condition-set.ts';
import type { RayCluster, RayJobResourceStatus } from '../../schema/index.ts';
import { RAYJOB_CONDITION_TYPES as T, type ConditionDraft } from './types.ts';

/**
 * Container waiting reasons that mean the head pod cannot start by itself (a starting container's
 * ContainerCreating or PodInitializing is no failure and is not announced).
 */
const HEAD_FAILURE_REASONS: ReadonlySet<string> = new Set([
  'ImagePullBackOff', 'ErrImagePull', 'ErrImageNeverPull', 'InvalidImageName', 'RegistryUnavailable',
  'CrashLoopBackOff', 'CreateContainerConfigError', 'CreateContainerError', 'RunContainerError', 'PreStartHookError', 'PostStartHookError',
]);

export interface ClusterFacts {
  cluster: RayCluster | undefined;
  status: RayJobResourceStatus;
  namespace: string;
  clusterSelectorMode: boolean;
}

/**
 * RayClusterProvisioned and RayClusterReady from the RayCluster's own status. A cluster that cannot create its
 * pods (a ResourceQuota, an admission webhook: the RayCluster's ReplicaFailure; an image that cannot be pulled:
 * its HeadPodReady) says so on both, with the cluster's own words, so the RayJob is not just "Initializing".
 */
export function clusterConditions(facts: ClusterFacts): [ConditionDraft, ConditionDraft] {
  const { cluster, status } = facts;
  const name = `${facts.namespace}/${status.rayClusterName ?? ''}`;
  // A cluster without a status yet says no more than one being created (and costs no write of its own).
  if (!cluster || !cluster.status) {
    const absent = absentCluster(facts, name, !!cluster);
    return [{ type: T.clusterProvisioned, ...absent }, { type: T.clusterReady, ...absent, event: undefined }];
  }
  const cs = cluster.status ?? {};
  const failure = findCondition(cs.conditions, RC.replicaFailure);
  if (failure?.status === 'True') {
    // The cluster's message starts with the marker on its own line (KubeRay's format); the API error follows.
    const detail = failure.message.split('\n').slice(1).join(' ').trim() || failure.message;
    const message = `RayCluster ${name} cannot create its pods: ${detail}`;
    return [
      { type: T.clusterProvisioned, status: 'False', reason: failure.reason, message, event: 'Warning' },
      { type: T.clusterReady, status: 'False', reason: failure.reason, message },
    ];
  }
  return [provisioned(cluster, name), ready(cluster, name)];
}

function absentCluster(facts: ClusterFacts, name: string, exists: boolean): Omit<ConditionDraft, 'type'> {
  const { status } = facts;
  if (!status.rayClusterName) return { status: 'False', reason: 'RayClusterNotCreated', message: 'No RayCluster has been created for this attempt yet.' };
  if (facts.clusterSelectorMode) {
    return { status: 'False', reason: 'RayClusterNotFound', message: `RayCluster ${name} named by the clusterSelector does not exist; create it.`, event: 'Warning' };
  }
  if (exists || !status.jobDeploymentStatus || status.jobDeploymentStatus === 'Initializing') {
    return { status: 'False', reason: 'RayClusterCreating', message: `RayCluster ${name} is being created.` };
  }
  return { status: 'False', reason: 'RayClusterNotFound', message: `RayCluster ${name} does not exist (any more).` };
}

function provisioned(cluster: RayCluster, name: string): ConditionDraft {
  const own = findCondition(cluster.status?.conditions, RC.provisioned);
  if (own) {
    const status = own.status;
    return { type: T.clusterProvisioned, status, reason: own.reason, message: `RayCluster ${name}: ${own.message || own.reason}`, event: status === 'True' ? 'Normal' : undefined };
  }
  // Without the RayCluster's conditions (its feature gate off, or another operator): its state is all there is.
  return cluster.status?.state === 'ready'
    ? { type: T.clusterProvisioned, status: 'True', reason: 'RayClusterReady', message: `RayCluster ${name} is ready.`, event: 'Normal' }
    : { type: T.clusterProvisioned, status: 'False', reason: 'RayClusterPodsProvisioning', message: `RayCluster ${name}: its pods are being provisioned.` };
}

function ready(cluster: RayCluster, name: string): ConditionDraft {
  const cs = cluster.status ?? {};
  const head = findCondition(cs.conditions, RC.headPodReady);
  if (head?.status === 'False' && HEAD_FAILURE_REASONS.has(head.reason)) {
    // A named container reason (ImagePullBackOff, CrashLoopBackOff, ...) is the cluster's failure, in its words.
    return { type: T.clusterReady, status: 'False', reason: head.reason, message: `The head pod of RayCluster ${name} is not ready: ${head.message || head.reason}`, event: 'Warning' };
  }
  if (cs.state === 'ready') return { type: T.clusterReady, status: 'True', reason: 'RayClusterReady', message: `RayCluster ${name} is ready.` };
  if (cs.state === 'suspended') return { type: T.clusterReady, status: 'False', reason: 'RayClusterSuspended', message: `RayCluster ${name} is suspended.` };
  return { type: T.clusterReady, status: 'False', reason: 'RayClusterNotReady', message: `RayCluster ${name} is not ready yet${cs.state ? ` (state ${cs.state})` : ''}.` };
}
