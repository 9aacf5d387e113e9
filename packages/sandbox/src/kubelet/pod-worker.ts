// structure-exception(file-lines): being split by #21 sandbox/shape work
// One pod on this node: sets up its network and volumes, runs init containers then containers as
// process groups, restarts them per restartPolicy with back-off, probes readiness, and reports
// status. Deletion: SIGTERM, wait the grace period, SIGKILL, final status, then delete the object.
import { describeError, resources, rfc3339 } from '@rayjob/kube-runtime';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Container, ContainerState, ContainerStatus, Pod } from '../kube-objects/types.ts';
import type { BindMount } from './container-process.ts';
import { containerMarkerVariable, killContainerRemnants, launchContainer, signalGroup, withPrivateTmp } from './container-process.ts';
import { resolveEnv } from './env.ts';
import { containerArgv, lookupImage } from './image-program.ts';
import type { KubeletDeps } from './kubelet-config.ts';
import { podLogDir, prepareContainerLog } from './log-paths.ts';
import { writePodFiles } from './pod-files.ts';
import { kubeletStatusDiffers, mergeForeignConditions, podConditions, podPhase } from './pod-status.ts';
import { runProbe } from './probes.ts';
import { terminationMessage } from './termination-message.ts';
import { rootfsMounts } from './image-rootfs.ts';
import { needsServiceAccountFiles, serviceAccountMountPath, writeServiceAccountFiles } from './service-account.ts';
import { prepareVolumes } from './volumes.ts';
import { unmappedImageMessage } from './unmapped-image.ts';

interface ContainerRun {
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

const nowIso = (): string => rfc3339(Date.now());
/** How soon a status write the API server did not take is tried again. */
const statusRetryMs = 1_000;

// structure-exception(function-lines startPodWorker): being split by #21 sandbox/shape work
export function startPodWorker(initial: Pod, deps: KubeletDeps): PodWorker {
  let pod = initial;
  const uid = pod.metadata.uid ?? '';
  const namespace = pod.metadata.namespace ?? 'default';
  const name = pod.metadata.name ?? '';
  const podDir = join(deps.dir, 'kubelet', 'pods', uid);
  const restartPolicy = pod.spec.restartPolicy ?? 'Always';
  const startTime = pod.status?.startTime ?? nowIso();
  const makeRun = (spec: Container, init: boolean): ContainerRun => ({
    spec, init, restartCount: 0, runs: 0, state: { waiting: { reason: init ? 'PodInitializing' : 'ContainerCreating' } }, lastState: {},
    ready: false, started: false, containerID: undefined, pid: undefined, exited: undefined, oomKill: false, timers: new Set(), env: {},
  });
  const initRuns = (pod.spec.initContainers ?? []).map((c) => makeRun(c, true));
  const runs = pod.spec.containers.map((c) => makeRun(c, false));
  if (initRuns.length > 0) for (const run of runs) run.state = { waiting: { reason: 'PodInitializing' } };
  let podIP = '';
  let netns: string | undefined;
  let files: { hosts: string; resolv: string } | undefined;
  let volumePaths = new Map<string, string>();
  let serviceAccountDir: string | undefined;
  let initialized = initRuns.length === 0;
  let initFailed = false;
  let sandboxReady = false;
  let terminating = false;
  let finished = false;
  let torn = false;
  /**
   * The kubelet is stopping: a termination still under way ends with the processes, without its status write
   * and delete (the API server is going too; their connection errors would be noise, not news).
   */
  let shutDown = false;
  const workerTimers = new Set<NodeJS.Timeout>();
  const event = (type: 'Normal' | 'Warning', reason: string, message: string): void =>
    deps.events.event({ ...pod, apiVersion: 'v1', kind: 'Pod' }, type, reason, '', message);

  const later = (set: Set<NodeJS.Timeout>, ms: number, fn: () => void): void => {
    const timer = setTimeout(() => { set.delete(timer); fn(); }, ms);
    set.add(timer);
  };
  const clearAll = (set: Set<NodeJS.Timeout>): void => { for (const t of set) clearTimeout(t); set.clear(); };

  // ---- status -------------------------------------------------------------------------------
  const statusOf = (run: ContainerRun): ContainerStatus => {
    const status: ContainerStatus = {
      name: run.spec.name, image: run.spec.image ?? '', imageID: '', ready: run.ready, started: run.started,
      restartCount: run.restartCount, state: run.state, lastState: run.lastState,
    };
    if (run.containerID !== undefined) { status.containerID = run.containerID; status.imageID = `sandbox://${run.spec.image ?? ''}`; }
    return status;
  };

  const currentPhase = (deleting: boolean): NonNullable<NonNullable<Pod['status']>['phase']> => {
    if (initFailed) return 'Failed';
    const allStopped = [...runs, ...initRuns].every((r) => r.state.running === undefined);
    return podPhase(restartPolicy, initialized, runs.map(statusOf), deleting && allStopped);
  };

  let writing: Promise<void> | undefined;
  let dirty = false;
  let wroteStatus = false;
  const snapshot = (live: Pod): NonNullable<Pod['status']> => {
    const statuses = runs.map(statusOf);
    const initStatuses = initRuns.map(statusOf);
    const phase = currentPhase(terminating);
    const conditions = podConditions({ previous: live.status?.conditions ?? [], sandboxReady, initStatuses, initialized, statuses, phase, nowIso: nowIso() });
    const status: NonNullable<Pod['status']> = {
      ...(live.status ?? {}),
      phase,
      conditions: mergeForeignConditions(live, conditions),
      hostIP: deps.network.gatewayIP,
      hostIPs: [{ ip: deps.network.gatewayIP }],
      startTime,
      containerStatuses: statuses,
    };
    if (podIP !== '') { status.podIP = podIP; status.podIPs = [{ ip: podIP }]; }
    if (initRuns.length > 0) status.initContainerStatuses = initStatuses;
    return status;
  };

  // A write the API server did not take (a reset connection, a 5xx) is tried again a little later, as the real
  // kubelet's status manager re-syncs: nothing else may ever change about the pod to trigger another write.
  let retryScheduled = false;
  const retryLater = (): void => {
    if (retryScheduled) return;
    retryScheduled = true;
    later(workerTimers, statusRetryMs, () => { retryScheduled = false; void writeStatus(); });
  };

  async function writeOnce(): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const live = await deps.client.get<Pod>(resources.pods, { namespace, name });
      if (!live.ok && live.error.status !== 404) {
        if (shutDown) return;
        deps.log(`status of ${namespace}/${name}: ${describeError(live.error)}`);
        retryLater();
        return;
      }
      if (!live.ok || live.value.metadata.uid !== uid) return;
      const body = { ...live.value, status: snapshot(live.value) };
      const written = await deps.client.replaceStatus<Pod>(resources.pods, body);
      if (written.ok) wroteStatus = true;
      if (written.ok || written.error.status === 404) return;
      if (written.error.status !== 409) {
        if (shutDown) return;
        deps.log(`status of ${namespace}/${name}: ${describeError(written.error)}`);
        retryLater();
        return;
      }
    }
  }

  function writeStatus(): Promise<void> {
    if (torn && !terminating) return Promise.resolve();
    if (deps.frozen()) return Promise.resolve();
    dirty = true;
    if (writing !== undefined) return writing.then(() => (dirty ? writeStatus() : undefined));
    dirty = false;
    writing = writeOnce().finally(() => { writing = undefined; });
    return writing.then(() => (dirty ? writeStatus() : undefined));
  }

  // ---- containers ---------------------------------------------------------------------------
  const podFacts = (): { podIP: string; hostIP: string; nodeName: string } => ({ podIP, hostIP: deps.network.gatewayIP, nodeName: deps.nodeName });

  // structure-exception(function-lines startContainer): being split by #21 sandbox/shape work
  async function startContainer(run: ContainerRun): Promise<void> {
    if (terminating) return;
    const image = run.spec.image ?? '';
    const program = lookupImage(deps.images, image);
    if (program === undefined) {
      run.state = { waiting: { reason: 'ErrImagePull', message: unmappedImageMessage(image) } };
      event('Warning', 'Failed', `Failed to pull image "${image}": ${run.state.waiting?.message ?? ''}`);
      event('Warning', 'Failed', 'Error: ErrImagePull');
      void writeStatus();
      later(run.timers, deps.timing.imagePullBackoffMs, () => {
        run.state = { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` } };
        event('Normal', 'BackOff', `Back-off pulling image "${image}"`);
        event('Warning', 'Failed', 'Error: ImagePullBackOff');
        void writeStatus();
      });
      return;
    }
    const resolved = await resolveEnv(pod, run.spec, deps.sources, podFacts());
    if (terminating) return;
    if (!resolved.ok) {
      run.state = { waiting: { reason: 'CreateContainerConfigError', message: resolved.message } };
      event('Warning', 'Failed', `Error: ${resolved.message}`);
      void writeStatus();
      later(run.timers, deps.timing.configRetryMs, () => void startContainer(run));
      return;
    }
    // HOME is a fresh per-pod directory (as an image's home would be): the host's own ~/.profile
    // (pyenv, cargo...) must not run in `bash -l` containers.
    const home = join(podDir, 'home');
    mkdirSync(home, { recursive: true });
    const env = { HOME: home, ...deps.baseEnv, HOSTNAME: pod.spec.hostname ?? name, ...deps.serviceEnv, ...(program.env ?? {}), ...resolved.env };
    let argv = containerArgv(program, run.spec, resolved.env);
    if (program.rewrite !== undefined) argv = program.rewrite(argv, { podName: name, namespace, podIP, containerName: run.spec.name, env });
    const runDir = join(podDir, 'containers', run.spec.name, String(run.runs));
    mkdirSync(runDir, { recursive: true });
    const messageFile = join(runDir, 'termination-log');
    writeFileSync(messageFile, '');
    chmodSync(messageFile, 0o666); // as the kubelet makes it: the container's user (an image's 65532) writes it
    // Each container run has its own /tmp, as a fresh container filesystem would.
    const tmpDir = join(runDir, 'tmp');
    mkdirSync(tmpDir, { recursive: true, mode: 0o1777 });
    chmodSync(tmpDir, 0o1777);
    const mounts: BindMount[] = [];
    if (files !== undefined) {
      mounts.push({ source: files.hosts, target: '/etc/hosts', readOnly: false }, { source: files.resolv, target: '/etc/resolv.conf', readOnly: false });
    }
    for (const mount of program.mounts ?? []) mounts.push({ source: mount.source, target: mount.target, readOnly: mount.readOnly ?? true });
    for (const mount of run.spec.volumeMounts ?? []) {
      const base = volumePaths.get(mount.name);
      if (base === undefined) continue;
      const source = mount.subPath !== undefined && mount.subPath !== '' ? join(base, mount.subPath) : base;
      // A missing subPath is created as a directory (as the kubelet does); an existing file (a ConfigMap key) is mounted as is.
      if (mount.subPath !== undefined && mount.subPath !== '' && !existsSync(source)) mkdirSync(source, { recursive: true });
      mounts.push({ source, target: mount.mountPath, readOnly: mount.readOnly === true });
    }
    if (serviceAccountDir !== undefined && needsServiceAccountFiles(pod, run.spec)) mounts.push({ source: serviceAccountDir, target: serviceAccountMountPath, readOnly: true });
    mounts.push({ source: messageFile, target: run.spec.terminationMessagePath ?? '/dev/termination-log', readOnly: false });

    const logFile = prepareContainerLog(deps.dir, { namespace, pod: name, container: run.spec.name, firstRun: run.runs === 0 });
    const containerID = randomBytes(16).toString('hex');
    const launched = launchContainer({ argv, env: { ...env, [containerMarkerVariable]: containerID }, workingDir: run.spec.workingDir ?? program.workingDir ?? '/', netns, mounts: program.rootfs === undefined ? withPrivateTmp(mounts, tmpDir) : rootfsMounts(program.rootfs, mounts, tmpDir), logFile, baseDir: podDir, hostname: (pod.spec.hostname ?? name).slice(0, 63), ...(program.rootfs && { rootfs: program.rootfs }) }, deps.tools);
    const startedAt = nowIso();
    run.runs += 1;
    run.containerID = `sandbox://${containerID}`;
    if (!launched.ok) {
      writeFileSync(logFile, `${launched.message}\n`, { flag: 'a' });
      finishRun(run, { terminated: { exitCode: launched.exitCode, reason: 'StartError', message: launched.message, startedAt: rfc3339(0), finishedAt: nowIso(), containerID: run.containerID } });
      return;
    }
    run.pid = launched.pid;
    // Processes started by `kubectl exec` carry the container's marker too, so they end with the container.
    run.env = { ...env, [containerMarkerVariable]: containerID };
    run.state = { running: { startedAt } };
    event('Normal', 'Pulled', `Container image "${image}" already present on machine`);
    event('Normal', 'Created', `Created container: ${run.spec.name}`);
    event('Normal', 'Started', `Started container ${run.spec.name}`);
    run.started = true;
    run.ready = run.spec.readinessProbe === undefined && !run.init;
    run.exited = launched.exited.then((exit) => {
      killContainerRemnants(containerID);
      run.pid = undefined;
      const reason = run.oomKill ? 'OOMKilled' : exit.exitCode === 0 ? 'Completed' : 'Error';
      const message = terminationMessage({ messageFile, logFile, policy: run.spec.terminationMessagePolicy, exitCode: exit.exitCode });
      const terminated: NonNullable<ContainerState['terminated']> = { exitCode: run.oomKill ? 137 : exit.exitCode, reason, startedAt, finishedAt: nowIso(), containerID: run.containerID };
      if (exit.signal !== undefined && !run.oomKill) terminated.signal = exit.signal;
      if (message !== undefined) terminated.message = message;
      run.oomKill = false;
      finishRun(run, { terminated });
    });
    if (!run.init) {
      scheduleProbe('readiness', run, env, program.rewriteProbe);
      scheduleProbe('liveness', run, env, program.rewriteProbe);
    }
    void writeStatus();
  }

  /**
   * Readiness flips `ready`; liveness kills the container after failureThreshold failures (the
   * restart policy then decides, as in Kubernetes). Attempts stop when this run of the container ends.
   */
  function scheduleProbe(kind: 'readiness' | 'liveness', run: ContainerRun, env: Record<string, string>, rewriteProbe: ((command: string[]) => string[]) | undefined): void {
    const declared = kind === 'readiness' ? run.spec.readinessProbe : run.spec.livenessProbe;
    if (declared === undefined || terminating) return;
    const probe = declared.exec !== undefined && rewriteProbe !== undefined ? { ...declared, exec: { command: rewriteProbe(declared.exec.command) } } : declared;
    const scale = deps.timing.probeTimeScale;
    const generation = run.runs;
    const current = (): boolean => run.runs === generation && run.state.running !== undefined && !terminating;
    let successes = 0;
    let failures = 0;
    const attempt = async (): Promise<void> => {
      if (!current()) return;
      const ok = await runProbe(probe, { podIP, env, container: run.spec, pid: run.pid, nsenterTool: deps.tools.nsenter }, Math.max(50, (probe.timeoutSeconds ?? 1) * 1000 * scale));
      if (!current()) return;
      if (ok) { successes += 1; failures = 0; } else { failures += 1; successes = 0; }
      if (!ok) event('Warning', 'Unhealthy', `${kind === 'readiness' ? 'Readiness' : 'Liveness'} probe failed: `);
      if (kind === 'readiness') {
        const before = run.ready;
        if (ok && successes >= (probe.successThreshold ?? 1)) run.ready = true;
        if (!ok && failures >= (probe.failureThreshold ?? 3)) run.ready = false;
        if (before !== run.ready) void writeStatus();
      } else if (!ok && failures >= (probe.failureThreshold ?? 3) && run.pid !== undefined) {
        event('Normal', 'Killing', `Container ${run.spec.name} failed liveness probe, will be restarted`);
        const pid = run.pid;
        signalGroup(pid, 'SIGTERM');
        const grace = (pod.spec.terminationGracePeriodSeconds ?? 30) * 1000;
        later(run.timers, grace, () => { if (run.pid === pid) signalGroup(pid, 'SIGKILL'); });
        return;
      }
      later(run.timers, (probe.periodSeconds ?? 10) * 1000 * scale, () => void attempt());
    };
    later(run.timers, (probe.initialDelaySeconds ?? 0) * 1000 * scale, () => void attempt());
  }

  function finishRun(run: ContainerRun, state: ContainerState): void {
    clearAll(run.timers);
    run.state = state;
    run.ready = false;
    const exitCode = state.terminated?.exitCode ?? 0;
    if (terminating) { void writeStatus(); return; }
    const restart = restartPolicy === 'Always' ? !run.init || exitCode !== 0 : restartPolicy === 'OnFailure' ? exitCode !== 0 : false;
    if (run.init && exitCode === 0) { void writeStatus(); void runInitContainers(); return; }
    if (run.init && !restart) { initFailed = true; void writeStatus().then(teardownIfFinished); return; }
    if (!restart) { void writeStatus().then(teardownIfFinished); return; }
    const delay = Math.min(deps.timing.restartBackoffMaxMs, deps.timing.restartBackoffBaseMs * 2 ** run.restartCount);
    run.lastState = state;
    run.state = { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${formatDuration(delay)} restarting failed container=${run.spec.name} pod=${name}_${namespace}(${uid})` } };
    event('Warning', 'BackOff', `Back-off restarting failed container ${run.spec.name} in pod ${name}_${namespace}(${uid})`);
    void writeStatus();
    later(run.timers, delay, () => {
      if (terminating) return;
      run.restartCount += 1;
      void startContainer(run);
    });
  }

  async function runInitContainers(): Promise<void> {
    const next = initRuns.find((r) => r.state.terminated?.exitCode !== 0);
    if (next === undefined) {
      initialized = true;
      for (const run of runs) run.state = { waiting: { reason: 'ContainerCreating' } };
      await writeStatus();
      for (const run of runs) void startContainer(run);
      return;
    }
    if (next.state.running === undefined) await startContainer(next);
  }

  async function teardownIfFinished(): Promise<void> {
    const phase = currentPhase(false);
    if (finished || terminating || (phase !== 'Succeeded' && phase !== 'Failed')) return;
    // A finished pod keeps its status and logs, but its processes and network go (as the kubelet kills the sandbox).
    finished = true;
    sandboxReady = false;
    await deps.network.detach(uid);
    void writeStatus();
  }

  // ---- lifecycle ----------------------------------------------------------------------------
  async function begin(): Promise<void> {
    try {
      const address = await deps.network.attach(uid);
      podIP = address.ip;
      netns = address.netns;
    } catch (error) {
      if (terminating) return;
      deps.log(`pod ${namespace}/${name}: ${(error as Error).message}`);
      later(workerTimers, 1000, () => void begin());
      return;
    }
    // Deleted while the network was being set up: cleanUp may already have run, so release it here.
    if (terminating) { await deps.network.detach(uid); return; }
    mkdirSync(podDir, { recursive: true });
    files = writePodFiles(podDir, pod, podIP, deps.dns);
    sandboxReady = true;
    await writeStatus();
    while (!terminating) {
      const volumes = await prepareVolumes(pod, podDir, deps.sources, podFacts());
      if (volumes.ok) { volumePaths = volumes.paths; break; }
      deps.log(`pod ${namespace}/${name}: ${volumes.message}`);
      await new Promise<void>((resolve) => later(workerTimers, deps.timing.configRetryMs, resolve));
    }
    if (terminating) return;
    const allContainers = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])];
    if (deps.clusterCA !== undefined && allContainers.some((c) => needsServiceAccountFiles(pod, c))) {
      serviceAccountDir = await writeServiceAccountFiles(pod, podDir, deps.sources, deps.clusterCA);
    }
    if (terminating) return;
    if (initRuns.length > 0) await runInitContainers();
    else for (const run of runs) void startContainer(run);
  }

  async function killAll(graceMs: number): Promise<void> {
    const all = [...initRuns, ...runs];
    for (const run of all) clearAll(run.timers);
    clearAll(workerTimers);
    for (const run of all) {
      if (run.state.running === undefined && run.state.terminated === undefined) {
        run.state = { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', startedAt: rfc3339(0), finishedAt: nowIso() } };
      }
    }
    const running = all.filter((r) => r.pid !== undefined);
    for (const run of running) {
      if (graceMs > 0) event('Normal', 'Killing', `Stopping container ${run.spec.name}`);
      signalGroup(run.pid ?? 0, graceMs > 0 ? 'SIGTERM' : 'SIGKILL');
    }
    const exits = Promise.all(running.map((r) => r.exited));
    if (graceMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<'expired'>((resolve) => { timer = setTimeout(() => resolve('expired'), graceMs); });
      const outcome = await Promise.race([exits.then(() => 'exited' as const), expired]);
      clearTimeout(timer);
      if (outcome === 'expired') for (const run of running) if (run.pid !== undefined) signalGroup(run.pid, 'SIGKILL');
    }
    await exits;
  }

  async function cleanUp(): Promise<void> {
    torn = true;
    await deps.network.detach(uid);
    rmSync(podDir, { recursive: true, force: true });
  }

  async function terminate(): Promise<void> {
    terminating = true;
    const graceSeconds = pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
    await killAll(graceSeconds * 1000);
    if (shutDown) return;
    sandboxReady = false;
    await writeStatus();
    await cleanUp();
    rmSync(podLogDir(deps.dir, namespace, name), { recursive: true, force: true });
    const removed = await deps.client.delete(resources.pods, { namespace, name }, { gracePeriodSeconds: 0, preconditions: { uid } });
    if (!removed.ok && removed.error.status !== 404 && removed.error.status !== 409) deps.log(`delete ${namespace}/${name}: ${describeError(removed.error)}`);
  }

  let terminated: Promise<void> | undefined;
  void begin();

  return {
    update(next) {
      pod = next;
      if (next.metadata.deletionTimestamp !== undefined && terminated === undefined) terminated = terminate();
      else if (wroteStatus && !terminating && kubeletStatusDiffers(next.status, snapshot(next))) void writeStatus();
    },
    resync() {
      if (!terminating) void writeStatus();
    },
    async gone() {
      terminating = true;
      await killAll(0);
      await cleanUp();
      rmSync(podLogDir(deps.dir, namespace, name), { recursive: true, force: true });
    },
    oomKill(containerName) {
      const run = runs.find((r) => r.spec.name === containerName) ?? initRuns.find((r) => r.spec.name === containerName);
      if (run?.pid === undefined) return false;
      run.oomKill = true;
      signalGroup(run.pid, 'SIGKILL');
      return true;
    },
    containerPid: (containerName) => [...runs, ...initRuns].find((r) => r.spec.name === containerName)?.pid,
    execTarget(containerName) {
      const run = runs.find((r) => r.spec.name === containerName) ?? initRuns.find((r) => r.spec.name === containerName);
      return run?.pid === undefined ? undefined : { pid: run.pid, env: run.env };
    },
    containerStatus(containerName) {
      const run = runs.find((r) => r.spec.name === containerName) ?? initRuns.find((r) => r.spec.name === containerName);
      return run === undefined ? undefined : statusOf(run);
    },
    containerRunning(containerName) {
      const run = runs.find((r) => r.spec.name === containerName) ?? initRuns.find((r) => r.spec.name === containerName);
      return run !== undefined && !torn && run.state.terminated === undefined;
    },
    async stop() {
      terminating = true;
      shutDown = true;
      await killAll(0);
      await cleanUp();
    },
  };
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const seconds = Math.round(ms / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`;
}
