// The state one pod worker keeps about its pod, shared by the parts that act on it (status writes, container
// starts and exits, probes, termination). Each part is a module of functions over this context; the calls that
// loop back (an exit may restart a container, everything writes status) go through the two hooks pod-worker.ts
// sets, so no module imports another that imports it back.
import { rfc3339 } from '@rayjob/kube-runtime';
import { join } from 'node:path';
import type { Container, ContainerState, ContainerStatus, Pod } from '../kube-objects/types.ts';
import type { KubeletDeps } from './kubelet-config.ts';

export interface ContainerRun {
  spec: Container;
  init: boolean;
  restartCount: number;
  runs: number;
  state: ContainerState;
  lastState: ContainerState;
  ready: boolean;
  started: boolean;
  containerID: string | undefined;
  pid: number | undefined;
  exited: Promise<void> | undefined;
  oomKill: boolean;
  timers: Set<NodeJS.Timeout>;
  /** The environment this run started with (exec sessions get it too, as in a container). */
  env: Record<string, string>;
}

export interface PodWorkerContext {
  readonly deps: KubeletDeps;
  /** The latest object seen (the worker reads it live: deletion grace, hostname). */
  pod: Pod;
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  readonly podDir: string;
  readonly restartPolicy: NonNullable<Pod['spec']['restartPolicy']>;
  readonly startTime: string;
  readonly initRuns: ContainerRun[];
  readonly runs: ContainerRun[];
  podIP: string;
  netns: string | undefined;
  files: { hosts: string; resolv: string } | undefined;
  volumePaths: Map<string, string>;
  serviceAccountDir: string | undefined;
  initialized: boolean;
  initFailed: boolean;
  sandboxReady: boolean;
  terminating: boolean;
  finished: boolean;
  torn: boolean;
  /**
   * The kubelet is stopping: a termination still under way ends with the processes, without its status write
   * and delete (the API server is going too; their connection errors would be noise, not news).
   */
  shutDown: boolean;
  readonly workerTimers: Set<NodeJS.Timeout>;
  /** Set by pod-worker.ts: the status writer and the container starter. */
  writeStatus: () => Promise<void>;
  startContainer: (run: ContainerRun) => Promise<void>;
}

export const nowIso = (): string => rfc3339(Date.now());

export function later(set: Set<NodeJS.Timeout>, ms: number, fn: () => void): void {
  const timer = setTimeout(() => { set.delete(timer); fn(); }, ms);
  set.add(timer);
}

export function clearAll(set: Set<NodeJS.Timeout>): void {
  for (const t of set) clearTimeout(t);
  set.clear();
}

function newRun(spec: Container, init: boolean): ContainerRun {
  return {
    spec, init, restartCount: 0, runs: 0, state: { waiting: { reason: init ? 'PodInitializing' : 'ContainerCreating' } }, lastState: {},
    ready: false, started: false, containerID: undefined, pid: undefined, exited: undefined, oomKill: false, timers: new Set(), env: {},
  };
}

const notWired = (): never => { throw new Error('pod worker used before it was wired'); };

export function newPodWorkerContext(pod: Pod, deps: KubeletDeps): PodWorkerContext {
  const uid = pod.metadata.uid ?? '';
  const initRuns = (pod.spec.initContainers ?? []).map((c) => newRun(c, true));
  const runs = pod.spec.containers.map((c) => newRun(c, false));
  if (initRuns.length > 0) for (const run of runs) run.state = { waiting: { reason: 'PodInitializing' } };
  return {
    deps, pod, uid,
    namespace: pod.metadata.namespace ?? 'default',
    name: pod.metadata.name ?? '',
    podDir: join(deps.dir, 'kubelet', 'pods', uid),
    restartPolicy: pod.spec.restartPolicy ?? 'Always',
    startTime: pod.status?.startTime ?? nowIso(),
    initRuns, runs,
    podIP: '', netns: undefined, files: undefined, volumePaths: new Map(), serviceAccountDir: undefined,
    initialized: initRuns.length === 0, initFailed: false, sandboxReady: false,
    terminating: false, finished: false, torn: false, shutDown: false,
    workerTimers: new Set(),
    writeStatus: notWired, startContainer: notWired,
  };
}

export function podEvent(ctx: PodWorkerContext, type: 'Normal' | 'Warning', reason: string, message: string): void {
  ctx.deps.events.event({ ...ctx.pod, apiVersion: 'v1', kind: 'Pod' }, type, reason, '', message);
}

export function podFacts(ctx: PodWorkerContext): { podIP: string; hostIP: string; nodeName: string } {
  return { podIP: ctx.podIP, hostIP: ctx.deps.network.gatewayIP, nodeName: ctx.deps.nodeName };
}

export function containerStatusOf(run: ContainerRun): ContainerStatus {
  const status: ContainerStatus = {
    name: run.spec.name, image: run.spec.image ?? '', imageID: '', ready: run.ready, started: run.started,
    restartCount: run.restartCount, state: run.state, lastState: run.lastState,
  };
  if (run.containerID !== undefined) { status.containerID = run.containerID; status.imageID = `sandbox://${run.spec.image ?? ''}`; }
  return status;
}

export function findRun(ctx: PodWorkerContext, container: string): ContainerRun | undefined {
  return ctx.runs.find((r) => r.spec.name === container) ?? ctx.initRuns.find((r) => r.spec.name === container);
}
