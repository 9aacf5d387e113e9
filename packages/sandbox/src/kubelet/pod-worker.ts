// One pod on this node: sets up its network and volumes, runs init containers then containers as
// process groups, restarts them per restartPolicy with back-off, probes readiness, and reports
// status. Deletion: SIGTERM, wait the grace period, SIGKILL, final status, then delete the object.
// The parts, each over the worker's state (pod-worker-context.ts): status writes (pod-status-writer.ts),
// container starts (container-start.ts), probes (container-probes.ts), exits and restarts
// (container-exits.ts), termination (pod-termination.ts). This file sets the pod up and answers the kubelet.
import { mkdirSync } from 'node:fs';
import type { ContainerStatus, Pod } from '../kube-objects/types.ts';
import { signalGroup } from './container-process.ts';
import { runInitContainers } from './container-exits.ts';
import { startContainer } from './container-start.ts';
import type { KubeletDeps } from './kubelet-config.ts';
import { writePodFiles } from './pod-files.ts';
import { kubeletStatusDiffers } from './pod-status.ts';
import { newStatusWriter, statusSnapshot, type StatusWriter } from './pod-status-writer.ts';
import { cleanUp, killAll, removeLogs, terminate } from './pod-termination.ts';
import { containerStatusOf, findRun, later, newPodWorkerContext, podFacts, type PodWorkerContext } from './pod-worker-context.ts';
import { needsServiceAccountFiles, writeServiceAccountFiles } from './service-account.ts';
import { prepareVolumes } from './volumes.ts';

export interface PodWorker {
  update(pod: Pod): void;
  /** Writes the status if the live object disagrees with the kubelet's view (after a freeze, say). */
  resync(): void;
  /** The object was removed without us (force deletion): kill at once, clean up, write nothing. */
  gone(): Promise<void>;
  /** Kills the container like the kernel's OOM killer would; false if it is not running. */
  oomKill(container: string): boolean;
  containerPid(container: string): number | undefined;
  /** Where `kubectl exec` enters a running container: its main process and environment. */
  execTarget(container: string): { pid: number; env: Record<string, string> } | undefined;
  /** The kubelet's own, current view of a container (the API's copy may lag behind). */
  containerStatus(container: string): ContainerStatus | undefined;
  /** Whether the container's current run may still write logs (for `logs -f`). */
  containerRunning(container: string): boolean;
  /** Kubelet shutdown: kill everything and clean up, without API writes. */
  stop(): Promise<void>;
}

export function startPodWorker(initial: Pod, deps: KubeletDeps): PodWorker {
  const ctx = newPodWorkerContext(initial, deps);
  const writer = newStatusWriter(ctx);
  ctx.writeStatus = writer.write;
  ctx.startContainer = (run) => startContainer(ctx, run);
  void begin(ctx);
  return podWorkerApi(ctx, writer);
}

/** The pod's sandbox (network, /etc/hosts and resolv.conf, volumes, service-account files), then its containers. */
async function begin(ctx: PodWorkerContext): Promise<void> {
  const { deps, uid, namespace, name } = ctx;
  try {
    const address = await deps.network.attach(uid);
    ctx.podIP = address.ip;
    ctx.netns = address.netns;
  } catch (error) {
    if (ctx.terminating) return;
    deps.log(`pod ${namespace}/${name}: ${(error as Error).message}`);
    later(ctx.workerTimers, 1000, () => void begin(ctx));
    return;
  }
  // Deleted while the network was being set up: cleanUp may already have run, so release it here.
  if (ctx.terminating) { await deps.network.detach(uid); return; }
  mkdirSync(ctx.podDir, { recursive: true });
  ctx.files = writePodFiles(ctx.podDir, ctx.pod, ctx.podIP, deps.dns);
  ctx.sandboxReady = true;
  await ctx.writeStatus();
  while (!ctx.terminating) {
    const volumes = await prepareVolumes(ctx.pod, ctx.podDir, deps.sources, podFacts(ctx));
    if (volumes.ok) { ctx.volumePaths = volumes.paths; break; }
    deps.log(`pod ${namespace}/${name}: ${volumes.message}`);
    await new Promise<void>((resolve) => later(ctx.workerTimers, deps.timing.configRetryMs, resolve));
  }
  if (ctx.terminating) return;
  const pod = ctx.pod;
  const allContainers = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])];
  if (deps.clusterCA !== undefined && allContainers.some((c) => needsServiceAccountFiles(pod, c))) {
    ctx.serviceAccountDir = await writeServiceAccountFiles(pod, ctx.podDir, deps.sources, deps.clusterCA);
  }
  if (ctx.terminating) return;
  if (ctx.initRuns.length > 0) await runInitContainers(ctx);
  else for (const run of ctx.runs) void startContainer(ctx, run);
}

function podWorkerApi(ctx: PodWorkerContext, writer: StatusWriter): PodWorker {
  let terminated: Promise<void> | undefined;
  return {
    update(next) {
      ctx.pod = next;
      if (next.metadata.deletionTimestamp !== undefined && terminated === undefined) terminated = terminate(ctx);
      else if (writer.wrote() && !ctx.terminating && kubeletStatusDiffers(next.status, statusSnapshot(ctx, next))) void ctx.writeStatus();
    },
    resync() {
      if (!ctx.terminating) void ctx.writeStatus();
    },
    async gone() {
      ctx.terminating = true;
      await killAll(ctx, 0);
      await cleanUp(ctx);
      removeLogs(ctx);
    },
    oomKill(containerName) {
      const run = findRun(ctx, containerName);
      if (run?.pid === undefined) return false;
      run.oomKill = true;
      signalGroup(run.pid, 'SIGKILL');
      return true;
    },
    containerPid: (containerName) => findRun(ctx, containerName)?.pid,
    execTarget(containerName) {
      const run = findRun(ctx, containerName);
      return run?.pid === undefined ? undefined : { pid: run.pid, env: run.env };
    },
    containerStatus(containerName) {
      const run = findRun(ctx, containerName);
      return run === undefined ? undefined : containerStatusOf(run);
    },
    containerRunning(containerName) {
      const run = findRun(ctx, containerName);
      return run !== undefined && !ctx.torn && run.state.terminated === undefined;
    },
    async stop() {
      ctx.terminating = true;
      ctx.shutDown = true;
      await killAll(ctx, 0);
      await cleanUp(ctx);
    },
  };
}
