import { labelKeys } from '../builders/labels.ts';
import type { RayClusterSettings } from '../builders/raycluster/settings.ts';
import { formatKubeTime } from '../go-text/time-format.ts';
import type { Condition, Pod, RayCluster, RayClusterStatus, Service } from '../schema/index.ts';
import type { ReplicaFailureReason } from './actions.ts';
import { isConditionTrue, RAY_CLUSTER_CONDITION_TYPES as T, removeCondition, type ConditionInput, setCondition, suspendStatus } from '../conditions/condition-set.ts';
import { desiredResources } from './desired-resources.ts';
import { allPodsRunning, isRunningAndReady, podPhase } from './pod-health.ts';
import { desiredWorkerPods } from './plan-workers.ts';

/**
 * status as KubeRay's calculateStatus writes it (§9): recomputed every pass from the cached Pods and Services and
 * the spec. Returns an error instead of a status where KubeRay computes none (several head Pods, the head
 * Service not (yet) in the cache, several head Services, an empty clusterIP).
 */

export interface ReconcileError {
  message: string;
  /** Set when a Pod create/delete failed: the ReplicaFailure condition's reason. */
  marker?: ReplicaFailureReason;
}

export interface RayClusterStatusInput {
  cluster: RayCluster;
  pods: readonly Pod[];
  headServices: readonly Service[];
  reconcileError?: ReconcileError | undefined;
  now: Date;
}

export type RayClusterStatusResult = { ok: true; status: RayClusterStatus } | { ok: false; error: string };

const MAX_INT32 = 2147483647;

export function computeRayClusterStatus(input: RayClusterStatusInput, settings: RayClusterSettings): RayClusterStatusResult {
  const { cluster, pods, reconcileError } = input;
  const now = formatKubeTime(input.now);
  const old = cluster.status ?? {};
  const status: RayClusterStatus = structuredClone(old);
  const conditions: Condition[] = [...(old.conditions ?? [])];
  const gateOn = settings.featureGates.rayClusterStatusConditions;
  if (gateOn) {
    if (reconcileError) {
      if (reconcileError.marker) {
        setCondition(conditions, { type: T.replicaFailure, status: 'True', reason: reconcileError.marker, message: `${reconcileError.marker}\n${reconcileError.message}` }, now);
      }
    } else {
      removeCondition(conditions, T.replicaFailure);
    }
  }
  status.observedGeneration = cluster.metadata.generation;
  const workers = pods.filter((p) => p.metadata.labels?.[labelKeys.nodeType] === 'worker');
  const groups = cluster.spec.workerGroupSpecs ?? [];
  const active = groups.filter((g) => g.suspend !== true);
  status.readyWorkerReplicas = workers.filter(isRunningAndReady).length;
  status.availableWorkerReplicas = workers.filter((p) => podPhase(p) === 'Running').length;
  status.desiredWorkerReplicas = groups.reduce((sum, g) => sum + desiredWorkerPods(g), 0);
  status.minWorkerReplicas = active.reduce((sum, g) => sum + (g.minReplicas ?? 0) * (g.numOfHosts ?? 1), 0);
  status.maxWorkerReplicas = Math.min(MAX_INT32, active.reduce((sum, g) => sum + (g.maxReplicas ?? MAX_INT32) * (g.numOfHosts ?? 1), 0));
  Object.assign(status, desiredResources(cluster.spec));

  if (!reconcileError && pods.length === status.desiredWorkerReplicas + 1 && allPodsRunning(pods)) {
    status.state = 'ready';
    delete status.reason;
  }
  const heads = pods.filter((p) => p.metadata.labels?.[labelKeys.nodeType] === 'head');
  if (heads.length > 1) return { ok: false, error: `found ${heads.length} head Pods for RayCluster ${cluster.metadata.namespace}/${cluster.metadata.name}` };
  const head = heads[0];
  if (gateOn) applyConditions(conditions, cluster, head, pods, now);
  if (cluster.spec.suspend === true && pods.length === 0) status.state = 'suspended';

  const headService = input.headServices[0];
  if (headService) status.endpoints = { ...(status.endpoints ?? {}), ...serviceEndpoints(headService) };
  const filter = `cluster name ${cluster.metadata.name}`;
  if (input.headServices.length < 1) return { ok: false, error: `unable to find head service. ${filter}` };
  if (input.headServices.length > 1) return { ok: false, error: `found multiple head services. ${filter}` };
  const clusterIP = headService?.spec?.clusterIP ?? '';
  if (clusterIP === '') return { ok: false, error: `head service IP is empty. ${filter}` };
  status.head = {
    ...(status.head ?? {}),
    podIP: head?.status?.podIP ?? '',
    podName: head?.metadata.name ?? '',
    serviceIP: clusterIP === 'None' ? (head?.status?.podIP ?? '') : clusterIP,
    serviceName: headService?.metadata.name ?? '',
  };
  status.lastUpdateTime = now;
  if ((old.state ?? '') !== (status.state ?? '')) status.stateTransitionTimes = { ...(status.stateTransitionTimes ?? {}), [status.state ?? '']: now };
  if (conditions.length > 0 || old.conditions) status.conditions = conditions;
  return { ok: true, status };
}

function applyConditions(conditions: Condition[], cluster: RayCluster, head: Pod | undefined, pods: readonly Pod[], now: string): void {
  if (head) setCondition(conditions, headPodReadyCondition(head), now);
  else setCondition(conditions, { type: T.headPodReady, status: 'False', reason: 'HeadPodNotFound', message: 'Head Pod not found' }, now);
  const suspend = suspendStatus(conditions);
  if (!isConditionTrue(conditions, T.provisioned) && suspend !== T.suspended) {
    setCondition(
      conditions,
      // KubeRay does not check the count; we do require the head among the ready Pods, so ready workers of a
      // lost head never mark a cluster provisioned (which would stop a SidecarMode head from ever being recreated).
      head && allPodsRunning(pods)
        ? { type: T.provisioned, status: 'True', reason: 'AllPodRunningAndReadyFirstTime', message: 'All Ray Pods are ready for the first time' }
        : { type: T.provisioned, status: 'False', reason: 'RayClusterPodsProvisioning', message: 'RayCluster Pods are being provisioned for first time' },
      now,
    );
  }
  const flag = (type: string, value: boolean) => setCondition(conditions, { type, status: value ? 'True' : 'False', reason: type, message: '' }, now);
  if (suspend === T.suspending) {
    if (pods.length === 0) {
      setCondition(conditions, { type: T.provisioned, status: 'False', reason: 'RayClusterPodsProvisioning', message: 'RayCluster has been suspended' }, now);
      flag(T.suspending, false);
      flag(T.suspended, true);
    }
  } else if (suspend === T.suspended) {
    // Resume needs an explicit `suspend: false`, as in KubeRay (an absent field keeps the cluster suspended).
    if (cluster.spec.suspend === false) flag(T.suspended, false);
  } else {
    flag(T.suspended, false);
    flag(T.suspending, cluster.spec.suspend === true);
  }
}

/** The head Pod's Ready condition as HeadPodReady, with the first waiting/terminated container's reason when not ready. */
export function headPodReadyCondition(head: Pod): ConditionInput {
  const ready = head.status?.conditions?.find((c) => c.type === 'Ready');
  if (!ready) return { type: T.headPodReady, status: 'False', reason: 'Unknown', message: '' };
  let reason = ready.reason ?? '';
  let message = ready.message ?? '';
  if (ready.status === 'True' && reason === '') reason = 'HeadPodRunningAndReady';
  if (reason === 'ContainersNotReady') {
    for (const s of head.status?.containerStatuses ?? []) {
      const state = s.state?.waiting ?? s.state?.terminated;
      if (!state) continue;
      reason = state.reason ?? '';
      message = `${message ? `${message}; ` : ''}${s.name}: ${state.message ?? ''}`;
      break;
    }
  }
  return { type: T.headPodReady, status: ready.status, reason: reason || 'Unknown', message };
}

/** Port name -> nodePort, else targetPort (unnamed ports and ports without either are skipped). */
function serviceEndpoints(service: Service): Record<string, string> {
  const out: Record<string, string> = {};
  for (const port of service.spec?.ports ?? []) {
    if (!port.name) continue;
    if (port.nodePort) out[port.name] = String(port.nodePort);
    else if (port.targetPort !== undefined && port.targetPort !== 0 && port.targetPort !== '') out[port.name] = String(port.targetPort);
  }
  return out;
}

export { rayClusterStatusChanged } from './status-write-rule.ts';
