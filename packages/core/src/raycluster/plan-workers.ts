import { labelKeys } from '../builders/labels.ts';
import { buildWorkerPod } from '../builders/raycluster/ray-pod.ts';
import { rayClusterLabelKeys, type RayClusterSettings } from '../builders/raycluster/settings.ts';
import type { Pod, WorkerGroupSpec } from '../schema/index.ts';
import { isAutoscalingEnabled } from '../validation/raycluster-spec.ts';
import type { ClusterAction, RayClusterPlan } from './actions.ts';
import { unhealthyDeleteNote, unhealthyPodReason } from './pod-health.ts';
import type { RayClusterObservation } from './observation.ts';
import { planMultiHostGroup } from './plan-multi-host.ts';

/** Worker groups in spec order (§7.3): suspend, unhealthy Pods, workersToDelete, then scale to the desired count. */

/** Pods a group should have: clamp(replicas, min, max) x numOfHosts; 0 when the group is suspended. */
export function desiredWorkerPods(group: WorkerGroupSpec): number {
  if (group.suspend === true) return 0;
  const min = group.minReplicas ?? 0;
  const max = group.maxReplicas ?? 2147483647;
  const replicas = group.replicas === undefined || group.replicas < min ? min : Math.min(group.replicas, max);
  return replicas * (group.numOfHosts ?? 1);
}

const byName = (a: Pod, b: Pod) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1);

export function planWorkerGroups(obs: RayClusterObservation, settings: RayClusterSettings, unsatisfied: ReadonlySet<string>): RayClusterPlan {
  const actions: ClusterAction[] = [];
  for (const group of obs.cluster.spec.workerGroupSpecs ?? []) {
    if (unsatisfied.has(group.groupName)) continue;
    // Worker Pods only: KubeRay selects by group label alone, so a group named "headgroup" would count the head.
    const pods = obs.pods
      .filter((p) => p.metadata.labels?.[rayClusterLabelKeys.group] === group.groupName && p.metadata.labels?.[labelKeys.nodeType] === 'worker')
      .sort(byName);
    const plan = planWorkerGroup(obs, settings, group, pods);
    actions.push(...plan.actions);
    // An unhealthy Pod's (or a multi-host replica's) cleanup ends the pass: later groups wait for the next one.
    if (plan.error) return { actions, error: plan.error };
  }
  return { actions };
}

/** One group's actions, in §7.3's order: suspend, multi-host replicas, unhealthy Pods, then scale. */
function planWorkerGroup(obs: RayClusterObservation, settings: RayClusterSettings, group: WorkerGroupSpec, pods: Pod[]): RayClusterPlan {
  const { cluster } = obs;
  if (group.suspend === true) return { actions: [deleteSuspendedGroup(cluster.metadata.namespace ?? '', cluster.metadata.name ?? '', group.groupName)] };
  if (settings.featureGates.rayMultiHostIndexing && (group.numOfHosts ?? 1) > 1) {
    return planMultiHostGroup({ cluster, group, pods, desiredPods: desiredWorkerPods(group), settings, now: obs.now });
  }
  const unhealthy = deleteUnhealthy(cluster.metadata.namespace ?? '', group.groupName, pods);
  if (unhealthy.length > 0) return { actions: unhealthy, error: { message: `delete ${unhealthy.length} unhealthy worker Pods` } };
  return { actions: scaleWorkerGroup(obs, settings, group, pods) };
}

function deleteSuspendedGroup(ns: string, clusterName: string, groupName: string): ClusterAction {
  return {
    type: 'deleteAllPods',
    group: groupName,
    success: {
      type: 'Normal',
      reason: 'DeletedWorkerPod',
      action: 'Delete',
      note: `Deleted all pods for suspended worker group ${groupName} in RayCluster ${ns}/${clusterName}`,
    },
    failure: {
      reason: 'FailedToDeleteWorkerPodCollection',
      note: `Failed deleting worker Pods for suspended group ${groupName} in RayCluster ${ns}/${clusterName}`,
      marker: 'FailedDeleteWorkerPod',
    },
  };
}

function deleteUnhealthy(ns: string, groupName: string, pods: Pod[]): ClusterAction[] {
  return pods
    .filter((p) => unhealthyPodReason(p, 'worker') !== undefined)
    .map((pod): ClusterAction => ({
      type: 'deletePod',
      group: groupName,
      name: pod.metadata.name ?? '',
      ignoreNotFound: false,
      success: { type: 'Normal', reason: 'DeletedWorkerPod', action: 'Delete', note: unhealthyDeleteNote(pod, 'worker') },
      failure: { reason: 'FailedToDeleteWorkerPod', note: `Failed deleting worker Pod ${ns}/${pod.metadata.name}`, marker: 'FailedDeleteWorkerPod' },
    }));
}

/** workersToDelete, then Pods created (lowest free replica indexes) or deleted towards the desired count. */
function scaleWorkerGroup(obs: RayClusterObservation, settings: RayClusterSettings, group: WorkerGroupSpec, pods: Pod[]): ClusterAction[] {
  const { cluster } = obs;
  const ns = cluster.metadata.namespace ?? '';
  const groupName = group.groupName;
  const actions: ClusterAction[] = [];
  // workersToDelete is replayed every pass and never cleared (the autoscaler owns it); only this group's
  // existing Pods are deleted, never an arbitrary Pod that happens to carry a listed name.
  const deleted = new Set<string>();
  for (const name of new Set(group.scaleStrategy?.workersToDelete ?? [])) {
    if (!pods.some((p) => p.metadata.name === name)) continue;
    deleted.add(name);
    actions.push(deleteWorker(groupName, ns, name, `Deleted pod ${ns}/${name}`, `Failed deleting pod ${ns}/${name}`));
  }
  const remaining = pods.filter((p) => !deleted.has(p.metadata.name ?? ''));
  const diff = desiredWorkerPods(group) - remaining.length;
  if (diff > 0) {
    const used = new Set(remaining.map((p) => Number(p.metadata.labels?.[rayClusterLabelKeys.replicaIndex])).filter(Number.isInteger));
    let index = 0;
    for (let i = 0; i < diff; i++) {
      while (used.has(index)) index++;
      used.add(index);
      actions.push({
        type: 'createPod',
        group: groupName,
        pod: buildWorkerPod(cluster, group, settings, index),
        failure: { reason: 'FailedToCreateWorkerPod', note: `Failed to create worker Pod for the cluster ${ns}/${cluster.metadata.name ?? ''}`, marker: 'FailedCreateWorkerPod' },
      });
    }
  } else if (diff < 0 && (!isAutoscalingEnabled(cluster.spec) || settings.enableRandomPodDelete)) {
    for (const pod of remaining.slice(0, -diff)) {
      const name = pod.metadata.name ?? '';
      actions.push(deleteWorker(groupName, ns, name, `Deleted Pod ${ns}/${name}`, `Failed deleting Pod ${ns}/${name}`));
    }
  }
  return actions;
}

function deleteWorker(group: string, ns: string, name: string, note: string, failureNote: string): ClusterAction {
  return {
    type: 'deletePod',
    group,
    name,
    ignoreNotFound: true,
    success: { type: 'Normal', reason: 'DeletedWorkerPod', action: 'Delete', note },
    failure: { reason: 'FailedToDeleteWorkerPod', note: failureNote, marker: 'FailedDeleteWorkerPod' },
  };
}
