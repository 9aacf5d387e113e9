import { buildWorkerPod } from '../builders/raycluster/ray-pod.ts';
import { rayClusterLabelKeys, type RayClusterSettings } from '../builders/raycluster/settings.ts';
import type { Pod, RayCluster, WorkerGroupSpec } from '../schema/index.ts';
import { isAutoscalingEnabled } from '../validation/raycluster-spec.ts';
import type { ClusterAction, RayClusterPlan } from './actions.ts';
import { describeTerminated, podPhase, unhealthyPodReason } from './pod-health.ts';

/**
 * Multi-host worker groups (numOfHosts > 1, gate RayMultiHostIndexing; §7.4 of the reference): a replica is
 * numOfHosts Pods sharing `ray.io/worker-group-replica-name` (hosts 0..n-1 by `ray.io/replica-host-index`), and it
 * lives or dies whole, because a TPU slice or a multi-host model shard is useless with a host missing. So an
 * incomplete replica, a replica with an unhealthy Pod, and a replica one of whose Pods is in workersToDelete are
 * deleted entirely; scaling creates and removes whole replicas.
 */

export interface MultiHostGroupInput {
  cluster: RayCluster;
  group: WorkerGroupSpec;
  /** This group's worker Pods, terminating ones included. */
  pods: readonly Pod[];
  /** Pods this group should have (clamp(replicas, min, max) x numOfHosts). */
  desiredPods: number;
  settings: RayClusterSettings;
  now: Date;
}

/** KubeRay's replica names are `<group>-` + 5 characters of this alphabet (Kubernetes' random-string alphabet). */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/**
 * A fresh replica name. KubeRay draws it at random; a pure planner derives it from the cluster, the replica index
 * and the pass's clock (a recreated replica gets another name), skipping names already in use.
 */
export function replicaNameFor(group: string, seed: string, taken: ReadonlySet<string>): string {
  for (let attempt = 0; ; attempt++) {
    let suffix = '';
    for (let i = 0; i < 5; i++) suffix += NAME_ALPHABET[fnv1a32(`${seed}/${attempt}/${i}`) % NAME_ALPHABET.length];
    const name = `${group}-${suffix}`;
    if (!taken.has(name)) return name;
  }
}

function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

const nameOf = (pod: Pod) => pod.metadata.name ?? '';
const replicaOf = (pod: Pod) => pod.metadata.labels?.[rayClusterLabelKeys.replicaName];
const indexOf = (pods: readonly Pod[]) => Number(pods[0]?.metadata.labels?.[rayClusterLabelKeys.replicaIndex]);

/** Pods by replica name, in name order; Pods without the label (made before multi-host mode) each stand alone. */
function groupByReplica(pods: readonly Pod[]): Map<string, Pod[]> {
  const replicas = new Map<string, Pod[]>();
  for (const pod of [...pods].sort((a, b) => (nameOf(a) < nameOf(b) ? -1 : 1))) {
    const key = replicaOf(pod) ?? `unlabelled pod ${nameOf(pod)}`;
    replicas.set(key, [...(replicas.get(key) ?? []), pod]);
  }
  return new Map([...replicas].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export function planMultiHostGroup(input: MultiHostGroupInput): RayClusterPlan {
  const { cluster, group, settings } = input;
  const ns = cluster.metadata.namespace ?? '';
  const hosts = group.numOfHosts ?? 1;
  const replicas = groupByReplica(input.pods);
  const deleteReplica = (pods: readonly Pod[], reason: string): ClusterAction[] => pods.map((pod) => deleteHost(ns, group.groupName, pod, reason));

  // 1. A replica with a host missing (deleted from outside, or never completed) cannot work: remove the rest.
  const incomplete = [...replicas].filter(([, pods]) => pods.length < hosts || replicaOf(pods[0]!) === undefined);
  if (incomplete.length > 0) {
    return {
      actions: incomplete.flatMap(([, pods]) => deleteReplica(pods, 'cleanup of incomplete multi-host group')),
      error: { message: `cleaned up incomplete replica group ${incomplete.map(([name]) => name).join(', ')}, requeueing` },
    };
  }

  // 2. One unhealthy host takes its whole replica down; replacements are created in this same pass.
  const actions: ClusterAction[] = [];
  const gone = new Set<string>();
  for (const [name, pods] of replicas) {
    const reason = pods.map((p) => unhealthyPodReason(p, 'worker')).find((r) => r !== undefined);
    if (reason === undefined) continue;
    actions.push(...deleteReplica(pods, reason));
    gone.add(name);
  }

  // 3. workersToDelete names a host: its whole replica goes (the autoscaler scales multi-host groups by replica).
  const listed = new Set(group.scaleStrategy?.workersToDelete ?? []);
  const requested = [...replicas].filter(([name, pods]) => !gone.has(name) && pods.some((p) => listed.has(nameOf(p))));
  if (requested.length > 0) {
    const pods = requested.flatMap(([, p]) => p);
    return {
      actions: [...actions, ...deleteReplica(pods, 'autoscaler scale-down request')],
      error: { message: `deleted ${pods.length} worker Pods based on ScaleStrategy, requeueing` },
    };
  }

  // 4. Scale by whole replicas: create at the lowest free replica indices, remove the highest ones first.
  const valid = [...replicas].filter(([name]) => !gone.has(name));
  const wanted = Math.floor(input.desiredPods / hosts);
  const diff = wanted - valid.length;
  if (diff > 0) {
    const usedIndices = new Set(valid.map(([, pods]) => indexOf(pods)).filter(Number.isInteger));
    const takenNames = new Set(replicas.keys());
    let index = 0;
    for (let created = 0; created < diff; created++) {
      while (usedIndices.has(index)) index++;
      usedIndices.add(index);
      const replicaName = replicaNameFor(group.groupName, `${cluster.metadata.uid ?? ''}/${group.groupName}/${index}/${input.now.getTime()}`, takenNames);
      takenNames.add(replicaName);
      for (let hostIndex = 0; hostIndex < hosts; hostIndex++) {
        actions.push({
          type: 'createPod',
          group: group.groupName,
          pod: buildWorkerPod(cluster, group, settings, index, { replicaName, hostIndex }),
          failure: { reason: 'FailedToCreateWorkerPod', note: `Failed to create worker Pod for the cluster ${ns}/${cluster.metadata.name ?? ''}`, marker: 'FailedCreateWorkerPod' },
        });
      }
    }
  } else if (diff < 0 && (!isAutoscalingEnabled(cluster.spec) || settings.enableRandomPodDelete)) {
    const byIndexDescending = [...valid].sort(([an, a], [bn, b]) => indexOf(b) - indexOf(a) || (an < bn ? -1 : 1));
    for (const [, pods] of byIndexDescending.slice(0, -diff)) actions.push(...deleteReplica(pods, 'scaling down'));
  }
  return { actions };
}

/** KubeRay's deletePods: one event per host, naming the group and why its replica went; NotFound is no failure. */
function deleteHost(ns: string, group: string, pod: Pod, reason: string): ClusterAction {
  const name = nameOf(pod);
  const state = `Pod status: ${podPhase(pod)}; Pod restart policy: ${pod.spec?.restartPolicy ?? ''}; Ray container terminated status: ${describeTerminated(pod)}`;
  return {
    type: 'deletePod',
    group,
    name,
    ignoreNotFound: true,
    success: { type: 'Normal', reason: 'DeletedWorkerPod', action: 'Delete', note: `Deleted worker Pod ${ns}/${name} for group ${group}: ${reason}` },
    failure: { reason: 'FailedToDeleteWorkerPod', note: `Failed deleting worker Pod ${ns}/${name} for group ${group}; ${state}`, marker: 'FailedDeleteWorkerPod' },
  };
}
