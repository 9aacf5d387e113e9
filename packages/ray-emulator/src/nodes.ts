// The cluster's nodes: the head plus workers registered by tests. Tracks resource use so that entrypoint
// resources place (or hold back) drivers the way Ray's scheduler would, and serves `/nodes?view=summary`.
import { newNodeId } from './ids.ts';

export interface EmulatedNode {
  nodeId: string;
  isHead: boolean;
  ip: string;
  state: 'ALIVE' | 'DEAD';
  total: Record<string, number>;
  used: Record<string, number>;
  startTimeMs: number;
  endTimeMs: number;
  /** Killed but not yet reported DEAD: schedules nothing. */
  lost?: boolean;
}

export interface ResourceDemand {
  numCpus: number;
  numGpus: number;
  memory: number;
  resources: Record<string, number>;
}

export function demandOf(d: ResourceDemand): Record<string, number> {
  const out: Record<string, number> = { ...d.resources };
  if (d.numCpus > 0) out.CPU = (out.CPU ?? 0) + d.numCpus;
  if (d.numGpus > 0) out.GPU = (out.GPU ?? 0) + d.numGpus;
  if (d.memory > 0) out.memory = (out.memory ?? 0) + d.memory;
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v > 0));
}

export function requestsResources(d: ResourceDemand): boolean {
  return Object.keys(demandOf(d)).length > 0;
}

export function createNodeTable(ip: string, now: () => number) {
  const headResources = { CPU: 8, memory: 16 * 1024 ** 3, object_store_memory: 4 * 1024 ** 3, 'node:__internal_head__': 1 };
  let nodes: EmulatedNode[] = [];
  let workerCount = 0;

  function freshHead(): EmulatedNode {
    return {
      nodeId: newNodeId(), isHead: true, ip, state: 'ALIVE',
      total: { ...headResources, [`node:${ip}`]: 1 }, used: {}, startTimeMs: now(), endTimeMs: 0,
    };
  }
  nodes = [freshHead()];

  const fits = (node: EmulatedNode, demand: Record<string, number>) =>
    node.state === 'ALIVE' &&
    !node.lost &&
    Object.entries(demand).every(([k, v]) => (node.total[k] ?? 0) - (node.used[k] ?? 0) >= v - 1e-9);

  return {
    head: () => nodes.find((n) => n.isHead) as EmulatedNode,
    all: () => nodes,
    byId: (id: string) => nodes.find((n) => n.nodeId === id),
    addWorker(resources: Record<string, number> = { CPU: 1 }): string {
      workerCount += 1;
      const workerIp = ip.startsWith('127.') ? `127.0.0.${(workerCount % 250) + 2}` : ip;
      const node: EmulatedNode = {
        nodeId: newNodeId(), isHead: false, ip: workerIp, state: 'ALIVE',
        total: { ...resources }, used: {}, startTimeMs: now(), endTimeMs: 0,
      };
      nodes.push(node);
      return node.nodeId;
    },
    /**
     * Where a driver goes: the head when nothing is requested (Ray pins the supervisor there); otherwise the
     * head if it can hold the demand, else the first worker that can; undefined when no node can (PENDING).
     */
    place(d: ResourceDemand): EmulatedNode | undefined {
      const demand = demandOf(d);
      const head = nodes.find((n) => n.isHead);
      if (Object.keys(demand).length === 0) return head?.state === 'ALIVE' ? head : undefined;
      if (head && fits(head, demand)) return head;
      return nodes.find((n) => !n.isHead && fits(n, demand));
    },
    acquire(node: EmulatedNode, d: ResourceDemand): void {
      for (const [k, v] of Object.entries(demandOf(d))) node.used[k] = (node.used[k] ?? 0) + v;
    },
    release(nodeId: string | null, d: ResourceDemand): void {
      const node = nodes.find((n) => n.nodeId === nodeId);
      if (!node) return;
      for (const [k, v] of Object.entries(demandOf(d))) node.used[k] = Math.max(0, (node.used[k] ?? 0) - v);
    },
    markLost(nodeId: string): void {
      const node = nodes.find((n) => n.nodeId === nodeId);
      if (node) node.lost = true;
    },
    markDead(nodeId: string): void {
      const node = nodes.find((n) => n.nodeId === nodeId);
      if (node && node.state === 'ALIVE') {
        node.state = 'DEAD';
        node.endTimeMs = now();
      }
    },
    /** A fresh head (after loseHead): a new node id, and a GCS that knows no other node. */
    replaceHead(): void {
      nodes = [freshHead()];
    },
  };
}

export type NodeTable = ReturnType<typeof createNodeTable>;

/** `GET /nodes?view=summary` body in Ray's shape (ray-jobs-api.md §2 "Node summary"). */
export function nodeSummaryBody(table: NodeTable, nowMs: number): unknown {
  const summary = table.all().map((n) => ({
    now: nowMs / 1000,
    hostname: n.isHead ? 'ray-head' : `ray-worker-${n.nodeId.slice(0, 6)}`,
    ip: n.ip,
    cpus: [n.total.CPU ?? 0, n.total.CPU ?? 0],
    raylet: {
      nodeId: n.nodeId,
      nodeManagerAddress: n.ip,
      nodeManagerHostname: n.isHead ? 'ray-head' : `ray-worker-${n.nodeId.slice(0, 6)}`,
      nodeManagerPort: 40000,
      state: n.state,
      stateMessage: n.state === 'DEAD' ? 'health check failed due to missing too many heartbeats' : undefined,
      isHeadNode: n.isHead,
      nodeName: n.ip,
      resourcesTotal: n.total,
      labels: { 'ray.io/node-id': n.nodeId },
      startTimeMs: n.startTimeMs,
      endTimeMs: n.endTimeMs,
    },
  }));
  const nodeLogicalResources = Object.fromEntries(table.all().map((n) => [n.nodeId, '']));
  return { result: true, msg: 'Node summary fetched.', data: { summary, nodeLogicalResources } };
}
