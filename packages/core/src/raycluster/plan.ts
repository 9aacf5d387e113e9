import { annotationKeys, labelKeys } from '../builders/labels.ts';
import { clusterAuthSecretName, needsAuthSecret } from '../builders/raycluster/auth-secret.ts';
import {
  buildClusterHeadService,
  buildHeadlessWorkerService,
  buildServeService,
  needsHeadlessWorkerService,
  serveServiceEnabled,
} from '../builders/raycluster/cluster-services.ts';
import { buildHeadPod } from '../builders/raycluster/ray-pod.ts';
import { rayClusterAnnotationKeys, type RayClusterSettings } from '../builders/raycluster/settings.ts';
import { clusterSpecHash } from '../builders/raycluster/spec-hash.ts';
import type { Pod, RayCluster } from '../schema/index.ts';
import type { RayClusterObservation } from './observation.ts';
import type { ClusterAction, RayClusterPlan } from './actions.ts';
import { isConditionTrue, RAY_CLUSTER_CONDITION_TYPES, suspendStatus } from '../conditions/condition-set.ts';
import { groupsWithPendingExpectations, HEAD_EXPECTATION_GROUP } from './expectations.ts';
import { unhealthyDeleteNote, unhealthyPodReason } from './pod-health.ts';
import { planAutoscalerRbac } from './plan-autoscaler-rbac.ts';
import { planWorkerGroups } from './plan-workers.ts';

/**
 * The RayCluster controller's decisions for one pass (§6, §7 of the reference): which Services, Secret and Pods
 * to create or delete, from what the cache shows. Pure: the controller lists, calls this, and executes the
 * actions in order, stopping at the first failure.
 */

export type { AutoscalerRbacObservation, RayClusterObservation } from './observation.ts';

const nodeTypeOf = (pod: Pod) => pod.metadata.labels?.[labelKeys.nodeType];

export function planRayCluster(obs: RayClusterObservation, settings: RayClusterSettings): RayClusterPlan {
  const { cluster } = obs;
  const actions: ClusterAction[] = planAutoscalerRbac(obs);
  if (actions.some((a) => a.type === 'fail')) return { actions };
  if (needsAuthSecret(cluster) && !obs.authSecretExists) actions.push({ type: 'createAuthSecret', name: clusterAuthSecretName(cluster) });
  if (obs.headServices.length > 1) {
    const names = obs.headServices.map((s) => s.metadata.name).join(' ');
    return { actions, error: { message: `${obs.headServices.length} head service found [${names}]` } };
  }
  if (obs.headServices.length === 0) {
    actions.push({ type: 'createService', role: 'head', service: buildClusterHeadService(cluster, settings) });
  }
  if (needsHeadlessWorkerService(cluster) && !obs.headlessServiceExists) {
    actions.push({ type: 'createService', role: 'headless', service: buildHeadlessWorkerService(cluster) });
  }
  if (serveServiceEnabled(cluster) && !obs.serveServiceExists) {
    const serve = buildServeService(cluster);
    if (!serve.ok) return { actions, error: { message: serve.error } };
    actions.push({ type: 'createService', role: 'serve', service: serve.service });
  }
  const pods = planPods(obs, settings);
  return { actions: [...actions, ...pods.actions], ...(pods.error ? { error: pods.error } : {}) };
}

function planPods(obs: RayClusterObservation, settings: RayClusterSettings): RayClusterPlan {
  const { cluster } = obs;
  const ns = cluster.metadata.namespace ?? '';
  const name = cluster.metadata.name ?? '';
  const gateOn = settings.featureGates.rayClusterStatusConditions;
  const suspend = suspendStatus(cluster.status?.conditions);
  if (suspend === RAY_CLUSTER_CONDITION_TYPES.suspending || (!gateOn && cluster.spec.suspend === true)) {
    return {
      actions: [
        {
          type: 'deleteAllPods',
          success: { type: 'Normal', reason: 'DeletedPod', action: 'Delete', note: `Deleted Pods for RayCluster ${ns}/${name} due to suspension` },
          failure: { reason: 'FailedToDeletePodCollection', note: `Failed deleting Pods due to suspension for RayCluster ${ns}/${name}`, marker: 'FailedDeleteAllPods' },
        },
      ],
    };
  }
  if (gateOn && (suspend === RAY_CLUSTER_CONDITION_TYPES.suspended || cluster.spec.suspend === true)) return { actions: [] };

  const heads = obs.pods.filter((p) => nodeTypeOf(p) === 'head');
  const expectedHash = clusterSpecHash(cluster.spec);
  const upgrade = planRecreateUpgrade(cluster, heads[0], expectedHash, settings);
  if (upgrade) return { actions: [upgrade] };

  const unsatisfiedGroups = groupsWithPendingExpectations(obs.expectations);
  const actions: ClusterAction[] = [];
  if (!unsatisfiedGroups.has(HEAD_EXPECTATION_GROUP)) {
    const head = heads[0];
    if (heads.length > 1) {
      const names = heads.map((p) => p.metadata.name).join(' ');
      return { actions, error: { message: `${heads.length} head pods found [${names}]. Please delete extra head pods` } };
    }
    if (head) {
      const reason = unhealthyPodReason(head, 'head');
      if (reason) {
        // The replacement is created on a later pass, once the cache no longer shows this Pod.
        actions.push({
          type: 'deletePod',
          group: HEAD_EXPECTATION_GROUP,
          name: head.metadata.name ?? '',
          ignoreNotFound: false,
          success: { type: 'Normal', reason: 'DeletedHeadPod', action: 'Delete', note: unhealthyDeleteNote(head, 'head') },
          failure: { reason: 'FailedToDeleteHeadPod', note: `Failed deleting head Pod ${ns}/${head.metadata.name}`, marker: 'FailedDeleteHeadPod' },
        });
        return { actions, error: { message: reason } };
      }
    } else {
      const provisioned = isConditionTrue(cluster.status?.conditions, RAY_CLUSTER_CONDITION_TYPES.provisioned);
      // SidecarMode RayJobs: a new head would know nothing of the submitted job, so a provisioned cluster is left headless.
      if (provisioned && cluster.metadata.annotations?.[annotationKeys.disableProvisionedHeadRestart] === 'true') return { actions };
      const pod = buildHeadPod(cluster, settings, { specHash: expectedHash });
      actions.push({
        type: 'createPod',
        group: HEAD_EXPECTATION_GROUP,
        pod,
        failure: { reason: 'FailedToCreateHeadPod', note: `Failed to create head Pod ${ns}/${pod.metadata.name ?? ''}`, marker: 'FailedCreateHeadPod' },
      });
    }
  }
  const workers = planWorkerGroups(obs, settings, unsatisfiedGroups);
  return { actions: [...actions, ...workers.actions], ...(workers.error ? { error: workers.error } : {}) };
}

/**
 * upgradeStrategy Recreate: a head Pod whose recorded spec hash differs means every Pod goes. A head Pod written
 * by another operator version is adopted instead (its hash is not comparable), as KubeRay does across upgrades.
 */
function planRecreateUpgrade(cluster: RayCluster, head: Pod | undefined, expectedHash: string, settings: RayClusterSettings): ClusterAction | undefined {
  if (cluster.spec.upgradeStrategy?.type !== 'Recreate' || !head) return undefined;
  const annotations = head.metadata.annotations ?? {};
  const version = annotations[rayClusterAnnotationKeys.kuberayVersion] ?? '';
  if (version !== '' && version !== settings.kuberayVersion) {
    return {
      type: 'annotateHeadPod',
      name: head.metadata.name ?? '',
      annotations: { [rayClusterAnnotationKeys.upgradeStrategyHash]: expectedHash, [rayClusterAnnotationKeys.kuberayVersion]: settings.kuberayVersion },
    };
  }
  const actual = annotations[rayClusterAnnotationKeys.upgradeStrategyHash] ?? '';
  if (actual === '' || actual === expectedHash) return undefined;
  const ns = cluster.metadata.namespace;
  const name = cluster.metadata.name;
  return {
    type: 'deleteAllPods',
    forgetExpectations: true,
    success: { type: 'Normal', reason: 'DeletedPod', action: 'Delete', note: `Deleted all Pods for RayCluster ${ns}/${name} due to spec change with Recreate upgradeStrategy` },
    failure: {
      reason: 'FailedToDeletePodCollection',
      note: `Failed deleting Pods due to spec change with Recreate upgradeStrategy for RayCluster ${ns}/${name}`,
      marker: 'FailedDeleteAllPods',
    },
  };
}
