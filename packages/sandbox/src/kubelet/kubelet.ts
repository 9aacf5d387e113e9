// The sandbox kubelet: registers one Ready Node, binds unscheduled pods to it (the whole
// "scheduler" of a one-node cluster), and runs a PodWorker per pod bound here. It is an API client
// only: everything it knows comes from list/watch, everything it says goes through the API.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createEventRecorder, createInformer, resources, type Informer, type KubeClient, type ResourceType } from '@rayjob/kube-runtime';
import type { ConfigMap, KubeObject, Pod, Secret } from '../kube-objects/types.ts';
import { nodeInformerBackoff, runInformers } from '../node-runtime/component.ts';
import type { ImageCatalog } from './image-program.ts';
import type { KubeletDeps, KubeletTiming } from './kubelet-config.ts';
import { defaultKubeletTiming } from './kubelet-config.ts';
import { podLogsRoot } from './log-paths.ts';
import type { KubeletContainers, KubeletServer, KubeletServerOptions } from './kubelet-server.ts';
import { startKubeletServer } from './kubelet-server.ts';
import type { NodeHeartbeat } from './node-heartbeat.ts';
import { startNodeHeartbeat } from './node-heartbeat.ts';
import type { PodNetwork } from './pod-network.ts';
import type { PodWorker } from './pod-worker.ts';
import { startPodWorker } from './pod-worker.ts';
import type { VolumeSources } from './volumes.ts';

export interface KubeletOptions {
  client: KubeClient;
  dir: string;
  images: ImageCatalog;
  network: PodNetwork;
  /** The cluster DNS address written into every pod's resolv.conf. Defaults to the network gateway. */
  nameserver?: string;
  clusterDomain?: string;
  nodeName?: string;
  timing?: Partial<KubeletTiming>;
  /** Environment every container starts from; defaults to this process's PATH (HOME: a per-pod directory). */
  baseEnv?: Record<string, string>;
  log?: (message: string) => void;
  /** How pods reach the API server: the `kubernetes` Service variables and the CA their ca.crt holds. */
  apiAccess?: { env: Record<string, string>; caCert: string };
  /** The kubelet's HTTPS endpoint (logs, exec) on the node's InternalIP; `false` serves none. */
  server?: Omit<KubeletServerOptions, 'host' | 'dir' | 'containers' | 'nsenter'> | false;
}

export interface Kubelet {
  readonly nodeName: string;
  readonly synced: Promise<void>;
  /** The Lease renewal and node status loops. */
  readonly heartbeat: NodeHeartbeat;
  /** The HTTPS endpoint API servers reach for logs and exec (undefined when turned off). */
  readonly server: KubeletServer | undefined;
  /**
   * Plays a hung kubelet (a fault for tests): no Lease renewal, node status or pod status reaches the API server,
   * while containers keep running. `thaw` resumes and writes every pod's status again.
   */
  freeze(): void;
  thaw(): void;
  /** Kills a running container with SIGKILL and reports it OOMKilled (exit 137). */
  oomKill(namespace: string, pod: string, container: string): boolean;
  /** The host pid of a running container (its process group leader), for tests and faults. */
  containerPid(namespace: string, pod: string, container: string): number | undefined;
  stop(): Promise<void>;
}

function which(tool: string): string {
  try {
    return execFileSync('sh', ['-c', `command -v ${tool}`], { env: { PATH: `/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:${process.env.PATH ?? ''}` } }).toString().trim();
  } catch {
    return tool;
  }
}

function volumeSources(client: KubeClient): VolumeSources {
  const getOrUndefined = async <T extends KubeObject>(type: ResourceType, namespace: string, name: string): Promise<T | undefined> => {
    const result = await client.get<T>(type, { namespace, name });
    return result.ok ? result.value : undefined;
  };
  return {
    configMap: (namespace, name) => getOrUndefined<ConfigMap>(resources.configmaps, namespace, name),
    secret: (namespace, name) => getOrUndefined<Secret>(resources.secrets, namespace, name),
    async serviceAccountToken(namespace, serviceAccount, audience, expirationSeconds) {
      const request = await client.create<KubeObject & { status?: { token?: string } }>(resources.serviceaccounts, {
        apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest',
        spec: { audiences: audience === undefined ? [] : [audience], expirationSeconds: expirationSeconds ?? 3607 },
      }, { namespace, name: serviceAccount, subresource: 'token' });
      // Without a TokenRequest endpoint the sandbox accepts any bearer token: hand out a recognisable one.
      return request.ok && request.value.status?.token !== undefined ? request.value.status.token : `sandbox-token.${namespace}.${serviceAccount}`;
    },
  };
}

/** What every pod worker of this kubelet shares. */
function podWorkerDeps(options: KubeletOptions, nodeName: string, log: (message: string) => void, frozen: () => boolean): KubeletDeps {
  const { client } = options;
  return {
    client,
    nodeName,
    dir: options.dir,
    images: options.images,
    network: options.network,
    dns: { nameserver: options.nameserver ?? options.network.gatewayIP, clusterDomain: options.clusterDomain ?? 'cluster.local' },
    timing: { ...defaultKubeletTiming, ...options.timing },
    tools: { ip: which('ip'), unshare: which('unshare'), sh: which('sh'), nsenter: which('nsenter') },
    sources: volumeSources(client),
    baseEnv: options.baseEnv ?? { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin' },
    log,
    events: createEventRecorder({ client, component: 'kubelet', instance: nodeName, api: 'core' }),
    frozen,
    serviceEnv: options.apiAccess?.env ?? {},
    clusterCA: options.apiAccess?.caCert,
  };
}

/** The pods of this node, and their workers, as the kubelet's endpoint looks them up. */
interface NodePods {
  nodeName: string;
  pods: Informer<Pod>;
  workers: Map<string, PodWorker>;
}

const workerOf = ({ pods, workers }: NodePods, namespace: string, name: string): PodWorker | undefined => {
  const pod = pods.cache.getByName(namespace, name);
  return pod === undefined ? undefined : workers.get(pod.metadata.uid ?? '');
};

/** Where the endpoint's logs, exec and port-forward reach a container of this node. */
function endpointContainers(node: NodePods): KubeletContainers {
  const { pods, nodeName } = node;
  return {
    logTarget(namespace, name, container) {
      const pod = pods.cache.getByName(namespace, name);
      if (pod?.spec.nodeName !== nodeName) return undefined;
      const status = workerOf(node, namespace, name)?.containerStatus(container)
        ?? [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].find((c) => c.name === container);
      return { status, running: () => workerOf(node, namespace, name)?.containerRunning(container) ?? false };
    },
    execTarget: (namespace, name, container) => workerOf(node, namespace, name)?.execTarget(container),
    portForwardTarget(namespace, name) {
      const pod = pods.cache.getByName(namespace, name);
      const podIP = pod?.status?.podIP;
      if (pod?.spec.nodeName !== nodeName || workerOf(node, namespace, name) === undefined || podIP === undefined || podIP === '') return undefined;
      return { podName: name, uid: pod.metadata.uid ?? '', podIP };
    },
  };
}

/** The whole "scheduler" of a one-node cluster: binds an unscheduled pod to this node (once at a time per pod). */
function podBinder(client: KubeClient, nodeName: string): (pod: Pod) => Promise<void> {
  const scheduler = createEventRecorder({ client, component: 'default-scheduler', api: 'core' });
  const binding = new Set<string>();
  return async (pod) => {
    const key = pod.metadata.uid ?? '';
    if (binding.has(key)) return;
    binding.add(key);
    const target = { namespace: pod.metadata.namespace, name: pod.metadata.name, subresource: 'binding' };
    const bound = await client.create(resources.pods, { apiVersion: 'v1', kind: 'Binding', metadata: { name: pod.metadata.name, namespace: pod.metadata.namespace }, target: { apiVersion: 'v1', kind: 'Node', name: nodeName } }, target);
    if (!bound.ok && (bound.error.status === 404 || bound.error.status === 405)) {
      // Servers without pods/binding: set spec.nodeName directly.
      await client.patch(resources.pods, { namespace: pod.metadata.namespace, name: pod.metadata.name }, { spec: { nodeName } });
    }
    if (bound.ok) scheduler.event({ ...pod, apiVersion: 'v1', kind: 'Pod' }, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${nodeName}`);
    binding.delete(key);
  };
}

/** Binds unscheduled pods, and starts, updates and ends a worker per pod bound to this node. */
function followPods(node: NodePods, deps: KubeletDeps, stopping: () => boolean): void {
  const { client, nodeName } = deps;
  const { workers } = node;
  const bind = podBinder(client, nodeName);
  const podChanged = (object: Pod): void => {
    if (stopping()) return;
    const uid = object.metadata.uid ?? '';
    if (object.spec.nodeName === undefined || object.spec.nodeName === '') {
      if (object.metadata.deletionTimestamp === undefined) void bind(object);
      return;
    }
    if (object.spec.nodeName !== nodeName) return;
    const existing = workers.get(uid);
    if (existing !== undefined) { existing.update(object); return; }
    const phase = object.status?.phase;
    if (phase === 'Succeeded' || phase === 'Failed') {
      // Finished before this kubelet started: nothing runs; finish a pending deletion.
      if (object.metadata.deletionTimestamp !== undefined) {
        void client.delete(resources.pods, { namespace: object.metadata.namespace, name: object.metadata.name }, { gracePeriodSeconds: 0, preconditions: { uid } });
      }
      return;
    }
    const worker = startPodWorker(object, deps);
    workers.set(uid, worker);
    worker.update(object);
  };
  node.pods.addHandlers({
    add: podChanged,
    update: (_old, pod) => podChanged(pod),
    delete: (pod) => {
      if (stopping()) return;
      const uid = pod.metadata.uid ?? '';
      const worker = workers.get(uid);
      workers.delete(uid);
      if (worker !== undefined) void worker.gone();
    },
  });
}

export async function startKubelet(options: KubeletOptions): Promise<Kubelet> {
  const { client } = options;
  const nodeName = options.nodeName ?? 'sandbox-node';
  const log = options.log ?? ((message: string) => console.error(`[kubelet] ${message}`));
  let frozen = false;
  const deps = podWorkerDeps(options, nodeName, log, () => frozen);
  const node: NodePods = { nodeName, pods: createInformer<Pod>({ client, type: resources.pods, backoff: nodeInformerBackoff }), workers: new Map() };
  const { workers } = node;
  const server = options.server === false ? undefined : await startKubeletServer({
    ...options.server, host: options.network.gatewayIP, dir: options.dir, nsenter: deps.tools.nsenter, containers: endpointContainers(node),
  });
  const heartbeat = startNodeHeartbeat({ client, facts: { nodeName, address: options.network.gatewayIP, kubeletPort: server?.port ?? 0 }, timing: deps.timing, log });
  try {
    await heartbeat.registered;
  } catch (error) {
    heartbeat.stop();
    await server?.stop();
    throw error;
  }
  let stopping = false;
  followPods(node, deps, () => stopping);
  const watching = runInformers([node.pods]);

  return {
    nodeName,
    synced: watching.synced,
    heartbeat,
    server,
    freeze() {
      frozen = true;
      heartbeat.pause();
    },
    thaw() {
      frozen = false;
      heartbeat.resume();
      for (const worker of workers.values()) worker.resync();
    },
    oomKill: (namespace, pod, container) => workerOf(node, namespace, pod)?.oomKill(container) ?? false,
    containerPid: (namespace, pod, container) => workerOf(node, namespace, pod)?.containerPid(container),
    async stop() {
      stopping = true;
      heartbeat.stop();
      await server?.stop();
      await watching.stop();
      await Promise.all([...workers.values()].map((w) => w.stop()));
      workers.clear();
      rmSync(join(options.dir, 'kubelet'), { recursive: true, force: true });
      rmSync(podLogsRoot(options.dir), { recursive: true, force: true });
    },
  };
}
