// The node lifecycle controller's decisions, pure (kube-controller-manager 1.32's nodelifecycle rules):
// - health is judged by *local observation time*: the controller notes when it last saw the Ready condition's
//   lastHeartbeatTime or the node Lease's renewTime change (so clocks of kubelet and controller never compare);
// - past the grace period (50 s; 60 s for a node that never posted Ready) Ready, MemoryPressure, DiskPressure and
//   PIDPressure become Unknown ("Kubelet stopped posting node status.");
// - conditions map to NoSchedule taints, and Ready False/Unknown to a NoExecute taint — except when every node is
//   unhealthy ("full disruption", e.g. the only node of a one-node cluster), where evictions stop and NoExecute
//   taints are removed.
import type { Lease, Node, NodeCondition, Taint } from '../kube-objects/types.ts';

export interface NodeLifecycleTiming {
  /** How often node health is checked (--node-monitor-period: 5 s). */
  monitorPeriodMs: number;
  /** Silence after which a node that posted Ready becomes Unknown (--node-monitor-grace-period: 50 s in 1.32). */
  gracePeriodMs: number;
  /** The same for a node that never posted a Ready condition (--node-startup-grace-period: 60 s). */
  startupGracePeriodMs: number;
}

export const defaultNodeLifecycleTiming: NodeLifecycleTiming = { monitorPeriodMs: 5000, gracePeriodMs: 50_000, startupGracePeriodMs: 60_000 };

export const unreachableTaintKey = 'node.kubernetes.io/unreachable';
export const notReadyTaintKey = 'node.kubernetes.io/not-ready';

export interface NodeHealth {
  /** When (controller clock) a heartbeat was last observed. */
  probeTimestamp: number;
  readyHeartbeat: string | undefined;
  leaseRenewTime: string | undefined;
}

const readyOf = (node: Node): NodeCondition | undefined => node.status?.conditions?.find((c) => c.type === 'Ready');

/** Updates what the controller knows of a node's heartbeats. A node seen for the first time counts as just heard from. */
export function observeHealth(previous: NodeHealth | undefined, node: Node, lease: Lease | undefined, now: number): NodeHealth {
  const readyHeartbeat = readyOf(node)?.lastHeartbeatTime;
  const leaseRenewTime = lease?.spec?.renewTime;
  if (previous === undefined) return { probeTimestamp: now, readyHeartbeat, leaseRenewTime };
  const heard = (readyHeartbeat !== undefined && readyHeartbeat !== previous.readyHeartbeat)
    || (leaseRenewTime !== undefined && leaseRenewTime !== previous.leaseRenewTime);
  return { probeTimestamp: heard ? now : previous.probeTimestamp, readyHeartbeat, leaseRenewTime };
}

/**
 * The node's conditions once the grace period has passed without a heartbeat, or undefined if the node is fine
 * (or already Unknown). Conditions already Unknown keep their transition time.
 */
export function staleNodeConditions(node: Node, health: NodeHealth, now: number, timing: NodeLifecycleTiming, nowIso: string): NodeCondition[] | undefined {
  const ready = readyOf(node);
  const grace = ready === undefined ? timing.startupGracePeriodMs : timing.gracePeriodMs;
  if (now <= health.probeTimestamp + grace) return undefined;
  const conditions = [...(node.status?.conditions ?? [])].map((c) => ({ ...c }));
  for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
    const current = conditions.find((c) => c.type === type);
    if (current === undefined) {
      conditions.push({ type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: node.metadata.creationTimestamp, lastTransitionTime: nowIso });
    } else if (current.status !== 'Unknown') {
      Object.assign(current, { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: nowIso });
    }
  }
  const before = readyOf(node);
  const after = conditions.find((c) => c.type === 'Ready');
  return JSON.stringify(before) === JSON.stringify(after) ? undefined : conditions;
}

const conditionTaints: Record<string, Partial<Record<NodeCondition['status'], string>>> = {
  Ready: { False: notReadyTaintKey, Unknown: unreachableTaintKey },
  MemoryPressure: { True: 'node.kubernetes.io/memory-pressure' },
  DiskPressure: { True: 'node.kubernetes.io/disk-pressure' },
  NetworkUnavailable: { True: 'node.kubernetes.io/network-unavailable' },
  PIDPressure: { True: 'node.kubernetes.io/pid-pressure' },
};
const controllerTaintKeys = new Set([...Object.values(conditionTaints).flatMap((m) => Object.values(m)), 'node.kubernetes.io/unschedulable']);

/** The node's taints after this pass: the controller's own taints recomputed, everyone else's kept. */
export function desiredTaints(node: Node, fullDisruption: boolean, nowIso: string): Taint[] {
  const existing = node.spec?.taints ?? [];
  const ours = (t: Taint): boolean => controllerTaintKeys.has(t.key) && (t.effect === 'NoSchedule' || t.effect === 'NoExecute');
  const wanted: Taint[] = [];
  for (const condition of node.status?.conditions ?? []) {
    const key = conditionTaints[condition.type]?.[condition.status];
    if (key !== undefined) wanted.push({ key, effect: 'NoSchedule' });
  }
  if (node.spec?.unschedulable === true) wanted.push({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });
  const readyStatus = readyOf(node)?.status;
  if (!fullDisruption && (readyStatus === 'False' || readyStatus === 'Unknown')) {
    const key = readyStatus === 'False' ? notReadyTaintKey : unreachableTaintKey;
    const kept = existing.find((t) => t.key === key && t.effect === 'NoExecute');
    wanted.push({ key, effect: 'NoExecute', timeAdded: kept?.timeAdded ?? nowIso });
  }
  return [...existing.filter((t) => !ours(t)), ...wanted];
}

export function taintsEqual(a: Taint[] | undefined, b: Taint[] | undefined): boolean {
  const key = (t: Taint): string => `${t.key}=${t.value ?? ''}:${t.effect}`;
  return JSON.stringify((a ?? []).map(key).sort()) === JSON.stringify((b ?? []).map(key).sort());
}

export const nodeReadyStatus = (node: Node): NodeCondition['status'] => readyOf(node)?.status ?? 'Unknown';
