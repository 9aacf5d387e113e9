// The kubelet's two heartbeats, as Kubernetes 1.32 runs them: a Lease in kube-node-lease renewed every
// 10 s (a quarter of its 40 s duration), and the Node's status recomputed every 10 s but posted only when it
// changed (e.g. the node lifecycle controller marked it Unknown) or when 5 minutes passed since the last post.
// Without these the node lifecycle controller marks the node Unknown after its grace period, taints it and
// sets every pod on it Ready=False.
import { describeError, microTime, resources, rfc3339, type KubeClient } from '@rayjob/kube-runtime';
import type { Lease, Node, NodeCondition, NodeStatus } from '../kube-objects/types.ts';

export interface HeartbeatTiming {
  /** Lease renewal interval (kubelet: 25% of the lease duration, 10 s). */
  nodeLeaseRenewMs: number;
  /** spec.leaseDurationSeconds of the node Lease (kubelet: 40). */
  nodeLeaseDurationSeconds: number;
  /** How often the node status is recomputed and posted if it changed (kubelet nodeStatusUpdateFrequency: 10 s). */
  nodeStatusUpdateMs: number;
  /** Post the node status at least this often even if nothing changed (kubelet nodeStatusReportFrequency: 5 min). */
  nodeStatusReportMs: number;
}

export const defaultHeartbeatTiming: HeartbeatTiming = {
  nodeLeaseRenewMs: 10_000,
  nodeLeaseDurationSeconds: 40,
  nodeStatusUpdateMs: 10_000,
  nodeStatusReportMs: 300_000,
};

export const nodeLeaseNamespace = 'kube-node-lease';

export interface NodeFacts {
  nodeName: string;
  /** The node's InternalIP: where pods see their host and the API server reaches the kubelet. */
  address: string;
  /** The kubelet's HTTPS port (0 when it serves none). */
  kubeletPort: number;
}

const kubeletConditions: Array<Pick<NodeCondition, 'type' | 'status' | 'reason' | 'message'>> = [
  { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
  { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
  { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
  { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
];

/** The status this kubelet reports; transition times are kept from `previous` where a condition did not change. */
export function nodeStatusFor(facts: NodeFacts, previous: NodeStatus | undefined, nowIso: string): NodeStatus {
  const conditions = kubeletConditions.map((c): NodeCondition => {
    const before = previous?.conditions?.find((p) => p.type === c.type);
    const lastTransitionTime = before !== undefined && before.status === c.status ? before.lastTransitionTime ?? nowIso : nowIso;
    return { ...c, lastHeartbeatTime: nowIso, lastTransitionTime };
  });
  const resources = { cpu: '2', memory: '24Gi', pods: '250', 'ephemeral-storage': '100Gi' };
  return {
    ...(previous ?? {}),
    conditions,
    // Only the InternalIP: kube-apiserver prefers a Hostname address when one exists, and a name nobody
    // resolves would break logs and exec through a real API server.
    addresses: [{ type: 'InternalIP', address: facts.address }],
    daemonEndpoints: { kubeletEndpoint: { Port: facts.kubeletPort } },
    capacity: resources,
    allocatable: resources,
    nodeInfo: {
      kubeletVersion: 'v1.32.0-rayjob-sandbox', operatingSystem: 'linux', architecture: process.arch === 'x64' ? 'amd64' : process.arch,
      containerRuntimeVersion: 'sandbox://1', kernelVersion: '', osImage: 'rayjob sandbox', kubeProxyVersion: '', machineID: '', systemUUID: '', bootID: '',
    },
  };
}

const conditionKey = (c: NodeCondition): string => `${c.type}=${c.status}/${c.reason ?? ''}/${c.message ?? ''}`;

/** Whether the live node differs from what the kubelet would report (ignoring heartbeat times). */
export function nodeStatusChanged(live: NodeStatus | undefined, desired: NodeStatus): boolean {
  const liveConditions = (live?.conditions ?? []).map(conditionKey).sort().join('|');
  const desiredConditions = (desired.conditions ?? []).map(conditionKey).sort().join('|');
  return liveConditions !== desiredConditions
    || JSON.stringify(live?.addresses ?? []) !== JSON.stringify(desired.addresses ?? [])
    || (live?.daemonEndpoints?.kubeletEndpoint?.Port ?? 0) !== (desired.daemonEndpoints?.kubeletEndpoint?.Port ?? 0);
}

export interface NodeHeartbeat {
  /** Resolves once the Node exists with this kubelet's status. */
  readonly registered: Promise<void>;
  /** Stops renewing the Lease and posting status (a hung kubelet, for tests and faults); `resume` restarts both. */
  pause(): void;
  resume(): void;
  stop(): void;
}

export interface NodeHeartbeatOptions {
  client: KubeClient;
  facts: NodeFacts;
  timing?: Partial<HeartbeatTiming>;
  now?: () => number;
  log?: (message: string) => void;
}

async function registerNode(client: KubeClient, facts: NodeFacts, now: number): Promise<Node> {
  const body: Node = {
    apiVersion: 'v1', kind: 'Node',
    metadata: { name: facts.nodeName, labels: { 'kubernetes.io/hostname': facts.nodeName, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': process.arch === 'x64' ? 'amd64' : process.arch } },
    spec: {},
    status: nodeStatusFor(facts, undefined, rfc3339(now)),
  };
  const created = await client.create<Node>(resources.nodes, body);
  if (created.ok) return created.value;
  if (created.error.status !== 409) throw new Error(`kubelet: could not register node ${facts.nodeName}: ${describeError(created.error)}`, { cause: created.error });
  const current = await client.get<Node>(resources.nodes, { name: facts.nodeName });
  if (!current.ok) throw new Error(`kubelet: could not read node ${facts.nodeName}: ${describeError(current.error)}`, { cause: current.error });
  return current.value;
}

/** What the status and lease loops share: the node's identity, its Lease as last written, when status was posted. */
interface HeartbeatState {
  client: KubeClient;
  facts: NodeFacts;
  timing: HeartbeatTiming;
  now: () => number;
  log: (message: string) => void;
  lease: Lease | undefined;
  nodeUid: string | undefined;
  lastPostedAt: number;
}

/** Posts the node's status when it changed or the report interval passed; re-registers a deleted Node. */
async function postStatus(s: HeartbeatState): Promise<boolean> {
  const { client, facts, now, log } = s;
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const live = await client.get<Node>(resources.nodes, { name: facts.nodeName });
    if (!live.ok && live.error.status === 404) {
      // Someone deleted our Node: register again, as a kubelet does.
      const node = await registerNode(client, facts, now());
      s.nodeUid = node.metadata.uid;
      s.lastPostedAt = now();
      return true;
    }
    if (!live.ok) { log(`node status: ${describeError(live.error)}`); return false; }
    s.nodeUid = live.value.metadata.uid;
    const desired = nodeStatusFor(facts, live.value.status, rfc3339(now()));
    if (!nodeStatusChanged(live.value.status, desired) && now() - s.lastPostedAt < s.timing.nodeStatusReportMs) return true;
    const written = await client.replaceStatus<Node>(resources.nodes, { ...live.value, status: desired });
    if (written.ok) { s.lastPostedAt = now(); return true; }
    if (written.error.status !== 409) { log(`node status: ${describeError(written.error)}`); return false; }
  }
  return false;
}

/** Reads the node's Lease, or creates it (owned by the Node, renewed at `renewTime`) when there is none. */
async function fetchLease(s: HeartbeatState, renewTime: string): Promise<'read' | 'created' | 'failed'> {
  const { client, facts, log } = s;
  const got = await client.get<Lease>(resources.leases, { namespace: nodeLeaseNamespace, name: facts.nodeName });
  if (got.ok) { s.lease = got.value; return 'read'; }
  if (got.error.status !== 404) { log(`node lease: ${describeError(got.error)}`); return 'failed'; }
  const body: Lease = {
    apiVersion: 'coordination.k8s.io/v1', kind: 'Lease',
    metadata: {
      name: facts.nodeName, namespace: nodeLeaseNamespace,
      ...(s.nodeUid !== undefined && { ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: facts.nodeName, uid: s.nodeUid }] }),
    },
    spec: { holderIdentity: facts.nodeName, leaseDurationSeconds: s.timing.nodeLeaseDurationSeconds, renewTime },
  };
  const created = await client.create<Lease>(resources.leases, body);
  if (created.ok) { s.lease = created.value; return 'created'; }
  log(`node lease: ${describeError(created.error)}`);
  return 'failed';
}

async function renewLease(s: HeartbeatState): Promise<boolean> {
  const { client, facts } = s;
  const renewTime = microTime(s.now());
  let lease = s.lease;
  if (lease === undefined) {
    const fetched = await fetchLease(s, renewTime);
    // A freshly created Lease already carries this renewal.
    if (fetched !== 'read' || s.lease === undefined) return fetched === 'created';
    lease = s.lease;
  }
  const body: Lease = { ...lease, spec: { ...lease.spec, holderIdentity: facts.nodeName, leaseDurationSeconds: s.timing.nodeLeaseDurationSeconds, renewTime } };
  const written = await client.replace<Lease>(resources.leases, body);
  if (written.ok) { s.lease = written.value; return true; }
  // 409 or 404: read (or create) it again on the retry.
  s.lease = undefined;
  if (written.error.status !== 409 && written.error.status !== 404) s.log(`node lease: ${describeError(written.error)}`);
  return false;
}

export function startNodeHeartbeat(options: NodeHeartbeatOptions): NodeHeartbeat {
  const state: HeartbeatState = {
    client: options.client,
    facts: options.facts,
    timing: { ...defaultHeartbeatTiming, ...options.timing },
    now: options.now ?? Date.now,
    log: options.log ?? (() => {}),
    lease: undefined,
    nodeUid: undefined,
    lastPostedAt: Number.NEGATIVE_INFINITY,
  };
  const { timing, log } = state;
  let paused = false;
  let stopped = false;
  let leaseRetryMs = 200;
  const timers = new Set<NodeJS.Timeout>();
  // Each pause/resume starts a new generation, so a loop iteration still in flight at pause time dies out.
  let generation = 0;
  const later = (gen: number, ms: number, fn: (gen: number) => Promise<void>): void => {
    if (stopped || paused || gen !== generation) return;
    const timer = setTimeout(() => { timers.delete(timer); if (!stopped && !paused && gen === generation) void fn(gen); }, ms);
    timers.add(timer);
  };
  const clearTimers = (): void => { for (const t of timers) clearTimeout(t); timers.clear(); };

  async function statusLoop(gen: number): Promise<void> {
    await postStatus(state).catch((error: unknown) => log(`node status: ${(error as Error).message}`));
    later(gen, timing.nodeStatusUpdateMs, statusLoop);
  }

  async function leaseLoop(gen: number): Promise<void> {
    const ok = await renewLease(state).catch((error: unknown) => { log(`node lease: ${(error as Error).message}`); return false; });
    // On failure retry sooner with back-off (kubelet: 200 ms doubling up to 7 s), never later than the cadence.
    leaseRetryMs = ok ? 200 : Math.min(leaseRetryMs * 2, 7000);
    later(gen, ok ? timing.nodeLeaseRenewMs : Math.min(leaseRetryMs, timing.nodeLeaseRenewMs), leaseLoop);
  }

  const registered = (async () => {
    const node = await registerNode(state.client, state.facts, state.now());
    state.nodeUid = node.metadata.uid;
    await postStatus(state);
    await renewLease(state);
  })();
  void registered.then(() => {
    later(generation, timing.nodeStatusUpdateMs, statusLoop);
    later(generation, timing.nodeLeaseRenewMs, leaseLoop);
  }, () => {});

  return {
    registered,
    pause() {
      paused = true;
      generation += 1;
      clearTimers();
    },
    resume() {
      if (!paused || stopped) return;
      paused = false;
      generation += 1;
      void statusLoop(generation);
      void leaseLoop(generation);
    },
    stop() {
      stopped = true;
      generation += 1;
      clearTimers();
    },
  };
}
