// The node lifecycle controller of kube-controller-manager, as an API client: every monitor period it checks each
// node's heartbeats (node status and the Lease in kube-node-lease); a node silent past the grace period becomes
// Unknown, gets the unreachable taints, and its pods Ready=False (they drop out of Endpoints and DNS). When the
// kubelet posts Ready again the taints go; the kubelet itself re-asserts its pods' conditions.
import { createEventRecorder, createInformer, describeError, resources, rfc3339, type KubeClient } from '@rayjob/kube-runtime';
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

// structure-exception(function-lines startNodeLifecycleController): over the limit before #21 set it; the split is left for a follow-up of #21
export function startNodeLifecycleController(options: NodeLifecycleControllerOptions): NodeLifecycleController {
  const { client } = options;
  const timing = { ...defaultNodeLifecycleTiming, ...options.timing };
  const now = options.now ?? Date.now;
  const log = options.log ?? ((message: string) => console.error(`[node-lifecycle] ${message}`));
  const events = createEventRecorder({ client, component: 'node-controller', api: 'core' });
  const health = new Map<string, NodeHealth>();
  /** The Ready status each node had when the controller last looked (to act once per transition). */
  const observedReady = new Map<string, string>();
  const retryPods = new Set<string>();
  const nodes = createInformer<Node>({ client, type: resources.nodes, backoff: nodeInformerBackoff });
  const leases = createInformer<Lease>({ client, type: resources.leases, namespace: 'kube-node-lease', backoff: nodeInformerBackoff });
  const pods = createInformer<Pod>({ client, type: resources.pods, backoff: nodeInformerBackoff });
  const watching = runInformers([nodes, leases, pods]);
  const { synced } = watching;

  async function markPodsNotReady(nodeName: string): Promise<boolean> {
    let ok = true;
    for (const pod of pods.cache.list().filter((p) => p.spec.nodeName === nodeName)) {
      const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
      if (ready === undefined || ready.status === 'False') continue;
      const conditions = (pod.status?.conditions ?? []).map((c) => (c.type === 'Ready' ? { ...c, status: 'False' as const, lastTransitionTime: rfc3339(now()) } : c));
      const written = await client.replaceStatus<Pod>(resources.pods, { ...pod, status: { ...pod.status, conditions } });
      if (written.ok) events.event({ ...pod, apiVersion: 'v1', kind: 'Pod' }, 'Warning', 'NodeNotReady', '', 'Node is not ready');
      else if (written.error.status !== 404) { ok = false; log(`mark pod ${pod.metadata.namespace}/${pod.metadata.name} not ready: ${describeError(written.error)}`); }
    }
    return ok;
  }

  async function checkNode(node: Node, fullDisruption: boolean): Promise<void> {
    const name = node.metadata.name ?? '';
    const observed = observeHealth(health.get(name), node, leases.cache.getByName('kube-node-lease', name), now());
    health.set(name, observed);
    if (!observedReady.has(name)) {
      events.event({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: node.metadata.uid ?? '' } }, 'Normal', 'RegisteredNode', '', `Node ${name} event: Registered Node ${name} in Controller`);
    }
    let current = node;
    const stale = staleNodeConditions(node, observed, now(), timing, rfc3339(now()));
    if (stale !== undefined) {
      const written = await client.replaceStatus<Node>(resources.nodes, { ...node, status: { ...node.status, conditions: stale } });
      if (!written.ok) { log(`node ${name} status: ${describeError(written.error)}`); return; }
      current = written.value;
    }
    const readyBefore = observedReady.get(name) ?? 'True';
    const readyNow = nodeReadyStatus(current);
    observedReady.set(name, readyNow);
    if (readyNow !== 'True' && (readyBefore === 'True' || retryPods.has(name))) {
      if (readyBefore === 'True') events.event({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid: node.metadata.uid ?? '' } }, 'Normal', 'NodeNotReady', '', `Node ${name} status is now: NodeNotReady`);
      if (await markPodsNotReady(name)) retryPods.delete(name);
      else retryPods.add(name);
    } else if (readyNow === 'True') {
      retryPods.delete(name);
    }
    const taints = desiredTaints(current, fullDisruption, rfc3339(now()));
    if (!taintsEqual(taints, current.spec?.taints)) {
      // A conflict (the kubelet posted status meanwhile) is retried on the next pass.
      const written = await client.replace<Node>(resources.nodes, { ...current, spec: { ...current.spec, taints } });
      if (!written.ok && written.error.status !== 409 && written.error.status !== 404) log(`node ${name} taints: ${describeError(written.error)}`);
    }
  }

  let passing: Promise<void> | undefined;
  async function pass(): Promise<void> {
    const all = nodes.cache.list();
    // Health first, so "every node is down" (full disruption) is judged with this pass's conditions.
    const known = new Set(all.map((n) => n.metadata.name ?? ''));
    for (const name of [...health.keys()]) if (!known.has(name)) { health.delete(name); observedReady.delete(name); retryPods.delete(name); }
    const unhealthy = (n: Node): boolean => {
      const h = observeHealth(health.get(n.metadata.name ?? ''), n, leases.cache.getByName('kube-node-lease', n.metadata.name ?? ''), now());
      return nodeReadyStatus(n) !== 'True' || staleNodeConditions(n, h, now(), timing, rfc3339(now())) !== undefined;
    };
    const fullDisruption = all.length > 0 && all.every(unhealthy);
    for (const node of all) {
      await checkNode(node, fullDisruption).catch((error: unknown) => log(`node ${node.metadata.name ?? ''}: ${(error as Error).message}`));
    }
  }
  const monitor = (): Promise<void> => {
    passing ??= synced.then(pass).finally(() => { passing = undefined; });
    return passing;
  };

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = (): void => {
    if (stopped) return;
    timer = setTimeout(() => { void monitor().then(tick); }, timing.monitorPeriodMs);
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
      await events.flush();
    },
  };
}
