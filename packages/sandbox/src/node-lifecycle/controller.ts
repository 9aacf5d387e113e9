// The node lifecycle controller of kube-controller-manager, as an API client: every monitor period it checks each
// node's heartbeats (node status and the Lease in kube-node-lease); a node silent past the grace period becomes
// Unknown, gets the unreachable taints, and its pods Ready=False (they drop out of Endpoints and DNS). When the
// kubelet posts Ready again the taints go; the kubelet itself re-asserts its pods' conditions.
import { createEventRecorder, createInformer, describeError, resources, rfc3339, type EventRecorder, type Informer, type KubeClient } from '@rayjob/kube-runtime';
import { nodeInformerBackoff, runInformers } from '../node-runtime/component.ts';
import type { Lease, Node, Pod } from '../kube-objects/types.ts';
import type { NodeHealth, NodeLifecycleTiming } from './decide.ts';
import { defaultNodeLifecycleTiming, desiredTaints, nodeReadyStatus, observeHealth, staleNodeConditions, taintsEqual } from './decide.ts';

export interface NodeLifecycleControllerOptions {
  client: KubeClient;
  timing?: Partial<NodeLifecycleTiming>;
  now?: () => number;
  log?: (message: string) => void;
}

export interface NodeLifecycleController {
  readonly synced: Promise<void>;
  /** Runs one monitor pass now (tests; the controller also runs one every monitor period). */
  monitor(): Promise<void>;
  stop(): Promise<void>;
}

/** What one controller keeps between passes, and the informers and clients it acts through. */
interface LifecycleState {
  client: KubeClient;
  timing: NodeLifecycleTiming;
  now: () => number;
  log: (message: string) => void;
  events: EventRecorder;
  nodes: Informer<Node>;
  leases: Informer<Lease>;
  pods: Informer<Pod>;
  health: Map<string, NodeHealth>;
  /** The Ready status each node had when the controller last looked (to act once per transition). */
  observedReady: Map<string, string>;
  /** Nodes whose pods could not all be marked not ready yet. */
  retryPods: Set<string>;
}

/** Marks the node's pods Ready=False; false when a write failed (the next pass retries). */
async function markPodsNotReady(s: LifecycleState, nodeName: string): Promise<boolean> {
  let ok = true;
  for (const pod of s.pods.cache.list().filter((p) => p.spec.nodeName === nodeName)) {
    const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready === undefined || ready.status === 'False') continue;
    const conditions = (pod.status?.conditions ?? []).map((c) => (c.type === 'Ready' ? { ...c, status: 'False' as const, lastTransitionTime: rfc3339(s.now()) } : c));
    const written = await s.client.replaceStatus<Pod>(resources.pods, { ...pod, status: { ...pod.status, conditions } });
    if (written.ok) s.events.event({ ...pod, apiVersion: 'v1', kind: 'Pod' }, 'Warning', 'NodeNotReady', '', 'Node is not ready');
    else if (written.error.status !== 404) { ok = false; s.log(`mark pod ${pod.metadata.namespace}/${pod.metadata.name} not ready: ${describeError(written.error)}`); }
  }
  return ok;
}

/** On a transition away from Ready (or while a retry is owed), the node's pods go not ready. */
async function followReadiness(s: LifecycleState, node: Node, current: Node): Promise<void> {
  const name = node.metadata.name ?? '';
  const readyBefore = s.observedReady.get(name) ?? 'True';
  const readyNow = nodeReadyStatus(current);
  s.observedReady.set(name, readyNow);
  if (readyNow !== 'True' && (readyBefore === 'True' || s.retryPods.has(name))) {
    if (readyBefore === 'True') s.events.event({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: node.metadata.uid ?? '' } }, 'Normal', 'NodeNotReady', '', `Node ${name} status is now: NodeNotReady`);
    if (await markPodsNotReady(s, name)) s.retryPods.delete(name);
    else s.retryPods.add(name);
  } else if (readyNow === 'True') {
    s.retryPods.delete(name);
  }
}

async function checkNode(s: LifecycleState, node: Node, fullDisruption: boolean): Promise<void> {
  const { client, now } = s;
  const name = node.metadata.name ?? '';
  const observed = observeHealth(s.health.get(name), node, s.leases.cache.getByName('kube-node-lease', name), now());
  s.health.set(name, observed);
  if (!s.observedReady.has(name)) {
    s.events.event({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: node.metadata.uid ?? '' } }, 'Normal', 'RegisteredNode', '', `Node ${name} event: Registered Node ${name} in Controller`);
  }
  let current = node;
  const stale = staleNodeConditions(node, observed, now(), s.timing, rfc3339(now()));
  if (stale !== undefined) {
    const written = await client.replaceStatus<Node>(resources.nodes, { ...node, status: { ...node.status, conditions: stale } });
    if (!written.ok) { s.log(`node ${name} status: ${describeError(written.error)}`); return; }
    current = written.value;
  }
  await followReadiness(s, node, current);
  const taints = desiredTaints(current, fullDisruption, rfc3339(now()));
  if (!taintsEqual(taints, current.spec?.taints)) {
    // A conflict (the kubelet posted status meanwhile) is retried on the next pass.
    const written = await client.replace<Node>(resources.nodes, { ...current, spec: { ...current.spec, taints } });
    if (!written.ok && written.error.status !== 409 && written.error.status !== 404) s.log(`node ${name} taints: ${describeError(written.error)}`);
  }
}

async function pass(s: LifecycleState): Promise<void> {
  const { now } = s;
  const all = s.nodes.cache.list();
  // Health first, so "every node is down" (full disruption) is judged with this pass's conditions.
  const known = new Set(all.map((n) => n.metadata.name ?? ''));
  for (const name of [...s.health.keys()]) if (!known.has(name)) { s.health.delete(name); s.observedReady.delete(name); s.retryPods.delete(name); }
  const unhealthy = (n: Node): boolean => {
    const h = observeHealth(s.health.get(n.metadata.name ?? ''), n, s.leases.cache.getByName('kube-node-lease', n.metadata.name ?? ''), now());
    return nodeReadyStatus(n) !== 'True' || staleNodeConditions(n, h, now(), s.timing, rfc3339(now())) !== undefined;
  };
  const fullDisruption = all.length > 0 && all.every(unhealthy);
  for (const node of all) {
    await checkNode(s, node, fullDisruption).catch((error: unknown) => s.log(`node ${node.metadata.name ?? ''}: ${(error as Error).message}`));
  }
}

export function startNodeLifecycleController(options: NodeLifecycleControllerOptions): NodeLifecycleController {
  const { client } = options;
  const backoff = nodeInformerBackoff;
  const state: LifecycleState = {
    client,
    timing: { ...defaultNodeLifecycleTiming, ...options.timing },
    now: options.now ?? Date.now,
    log: options.log ?? ((message: string) => console.error(`[node-lifecycle] ${message}`)),
    events: createEventRecorder({ client, component: 'node-controller', api: 'core' }),
    nodes: createInformer<Node>({ client, type: resources.nodes, backoff }),
    leases: createInformer<Lease>({ client, type: resources.leases, namespace: 'kube-node-lease', backoff }),
    pods: createInformer<Pod>({ client, type: resources.pods, backoff }),
    health: new Map(),
    observedReady: new Map(),
    retryPods: new Set(),
  };
  const watching = runInformers([state.nodes, state.leases, state.pods]);
  const { synced } = watching;

  let passing: Promise<void> | undefined;
  const monitor = (): Promise<void> => {
    passing ??= synced.then(() => pass(state)).finally(() => { passing = undefined; });
    return passing;
  };

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    if (stopped) return;
    timer = setTimeout(() => { void monitor().then(tick); }, state.timing.monitorPeriodMs);
  };
  void synced.then(tick);

  return {
    synced,
    monitor,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await passing;
      await watching.stop();
      await state.events.flush();
    },
  };
}
