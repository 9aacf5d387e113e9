// Starting one run of a container: the image's program (ErrImagePull and back-off when no program maps it),
// its environment (CreateContainerConfigError, retried, when a reference does not resolve), its files and
// mounts, then the process group; its exit becomes a terminated state (container-exits.ts decides what next).
import { rfc3339 } from '@rayjob/kube-runtime';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerState } from '../kube-objects/types.ts';
import type { BindMount, ContainerExit } from './container-process.ts';
import { containerMarkerVariable, killContainerRemnants, launchContainer, withPrivateTmp } from './container-process.ts';
import { finishRun } from './container-exits.ts';
import { scheduleProbe } from './container-probes.ts';
import { resolveEnv } from './env.ts';
import { containerArgv, lookupImage, type ImageProgram } from './image-program.ts';
import { rootfsMounts } from './image-rootfs.ts';
import { prepareContainerLog } from './log-paths.ts';
import { later, nowIso, podEvent, podFacts, type ContainerRun, type PodWorkerContext } from './pod-worker-context.ts';
import { needsServiceAccountFiles, serviceAccountMountPath } from './service-account.ts';
import { terminationMessage } from './termination-message.ts';
import { unmappedImageMessage } from './unmapped-image.ts';

export async function startContainer(ctx: PodWorkerContext, run: ContainerRun): Promise<void> {
  if (ctx.terminating) return;
  const image = run.spec.image ?? '';
  const program = lookupImage(ctx.deps.images, image);
  if (program === undefined) return imageNotMapped(ctx, run, image);
  const resolved = await resolveEnv(ctx.pod, run.spec, ctx.deps.sources, podFacts(ctx));
  if (ctx.terminating) return;
  if (!resolved.ok) return configError(ctx, run, resolved.message);
  const { pod, name, namespace, deps } = ctx;
  // HOME is a fresh per-pod directory (as an image's home would be): the host's own ~/.profile
  // (pyenv, cargo...) must not run in `bash -l` containers.
  const home = join(ctx.podDir, 'home');
  mkdirSync(home, { recursive: true });
  const env = { HOME: home, ...deps.baseEnv, HOSTNAME: pod.spec.hostname ?? name, ...deps.serviceEnv, ...(program.env ?? {}), ...resolved.env };
  let argv = containerArgv(program, run.spec, resolved.env);
  if (program.rewrite !== undefined) argv = program.rewrite(argv, { podName: name, namespace, podIP: ctx.podIP, containerName: run.spec.name, env });
  const { runDir, messageFile, tmpDir } = prepareRunDir(ctx, run);
  const mounts = containerMounts(ctx, run, program, messageFile);
  const logFile = prepareContainerLog(deps.dir, { namespace, pod: name, container: run.spec.name, firstRun: run.runs === 0 });
  const containerID = randomBytes(16).toString('hex');
  const launched = launchContainer({
    argv, env: { ...env, [containerMarkerVariable]: containerID }, workingDir: run.spec.workingDir ?? program.workingDir ?? '/', netns: ctx.netns,
    mounts: program.rootfs === undefined ? withPrivateTmp(mounts, tmpDir) : rootfsMounts(program.rootfs, mounts, tmpDir),
    logFile, baseDir: ctx.podDir, mountTable: join(runDir, 'mounts.fstab'), hostname: (pod.spec.hostname ?? name).slice(0, 63), ...(program.rootfs && { rootfs: program.rootfs }),
  }, deps.tools);
  const startedAt = nowIso();
  run.runs += 1;
  run.containerID = `sandbox://${containerID}`;
  if (!launched.ok) {
    writeFileSync(logFile, `${launched.message}\n`, { flag: 'a' });
    finishRun(ctx, run, { terminated: { exitCode: launched.exitCode, reason: 'StartError', message: launched.message, startedAt: rfc3339(0), finishedAt: nowIso(), containerID: run.containerID } });
    return;
  }
  run.pid = launched.pid;
  // Processes started by `kubectl exec` carry the container's marker too, so they end with the container.
  run.env = { ...env, [containerMarkerVariable]: containerID };
  run.state = { running: { startedAt } };
  podEvent(ctx, 'Normal', 'Pulled', `Container image "${image}" already present on machine`);
  podEvent(ctx, 'Normal', 'Created', `Created container: ${run.spec.name}`);
  podEvent(ctx, 'Normal', 'Started', `Started container ${run.spec.name}`);
  run.started = true;
  run.ready = run.spec.readinessProbe === undefined && !run.init;
  run.exited = launched.exited.then((exit) => containerExited(ctx, run, exit, { containerID, messageFile, logFile, startedAt }));
  if (!run.init) {
    scheduleProbe(ctx, 'readiness', run, env, program.rewriteProbe);
    scheduleProbe(ctx, 'liveness', run, env, program.rewriteProbe);
  }
  void ctx.writeStatus();
}

function imageNotMapped(ctx: PodWorkerContext, run: ContainerRun, image: string): void {
  run.state = { waiting: { reason: 'ErrImagePull', message: unmappedImageMessage(image) } };
  podEvent(ctx, 'Warning', 'Failed', `Failed to pull image "${image}": ${run.state.waiting?.message ?? ''}`);
  podEvent(ctx, 'Warning', 'Failed', 'Error: ErrImagePull');
  void ctx.writeStatus();
  later(run.timers, ctx.deps.timing.imagePullBackoffMs, () => {
    run.state = { waiting: { reason: 'ImagePullBackOff', message: `Back-off pulling image "${image}"` } };
    podEvent(ctx, 'Normal', 'BackOff', `Back-off pulling image "${image}"`);
    podEvent(ctx, 'Warning', 'Failed', 'Error: ImagePullBackOff');
    void ctx.writeStatus();
  });
}

function configError(ctx: PodWorkerContext, run: ContainerRun, message: string): void {
  run.state = { waiting: { reason: 'CreateContainerConfigError', message } };
  podEvent(ctx, 'Warning', 'Failed', `Error: ${message}`);
  void ctx.writeStatus();
  later(run.timers, ctx.deps.timing.configRetryMs, () => void ctx.startContainer(run));
}

/** This run's own directory: its termination-log file and its /tmp. */
function prepareRunDir(ctx: PodWorkerContext, run: ContainerRun): { runDir: string; messageFile: string; tmpDir: string } {
  const runDir = join(ctx.podDir, 'containers', run.spec.name, String(run.runs));
  mkdirSync(runDir, { recursive: true });
  const messageFile = join(runDir, 'termination-log');
  writeFileSync(messageFile, '');
  chmodSync(messageFile, 0o666); // as the kubelet makes it: the container's user (an image's 65532) writes it
  // Each container run has its own /tmp, as a fresh container filesystem would.
  const tmpDir = join(runDir, 'tmp');
  mkdirSync(tmpDir, { recursive: true, mode: 0o1777 });
  chmodSync(tmpDir, 0o1777);
  return { runDir, messageFile, tmpDir };
}

function containerMounts(ctx: PodWorkerContext, run: ContainerRun, program: ImageProgram, messageFile: string): BindMount[] {
  const mounts: BindMount[] = [];
  const { files } = ctx;
  if (files !== undefined) {
    mounts.push({ source: files.hosts, target: '/etc/hosts', readOnly: false }, { source: files.resolv, target: '/etc/resolv.conf', readOnly: false });
  }
  for (const mount of program.mounts ?? []) mounts.push({ source: mount.source, target: mount.target, readOnly: mount.readOnly ?? true });
  for (const mount of run.spec.volumeMounts ?? []) {
    const base = ctx.volumePaths.get(mount.name);
    if (base === undefined) continue;
    const source = mount.subPath !== undefined && mount.subPath !== '' ? join(base, mount.subPath) : base;
    // A missing subPath is created as a directory (as the kubelet does); an existing file (a ConfigMap key) is mounted as is.
    if (mount.subPath !== undefined && mount.subPath !== '' && !existsSync(source)) mkdirSync(source, { recursive: true });
    mounts.push({ source, target: mount.mountPath, readOnly: mount.readOnly === true });
  }
  if (ctx.serviceAccountDir !== undefined && needsServiceAccountFiles(ctx.pod, run.spec)) mounts.push({ source: ctx.serviceAccountDir, target: serviceAccountMountPath, readOnly: true });
  mounts.push({ source: messageFile, target: run.spec.terminationMessagePath ?? '/dev/termination-log', readOnly: false });
  return mounts;
}

interface RunFiles { containerID: string; messageFile: string; logFile: string; startedAt: string }

function containerExited(ctx: PodWorkerContext, run: ContainerRun, exit: ContainerExit, files: RunFiles): void {
  killContainerRemnants(files.containerID);
  run.pid = undefined;
  const reason = run.oomKill ? 'OOMKilled' : exit.exitCode === 0 ? 'Completed' : 'Error';
  const message = terminationMessage({ messageFile: files.messageFile, logFile: files.logFile, policy: run.spec.terminationMessagePolicy, exitCode: exit.exitCode });
  const terminated: NonNullable<ContainerState['terminated']> = { exitCode: run.oomKill ? 137 : exit.exitCode, reason, startedAt: files.startedAt, finishedAt: nowIso(), containerID: run.containerID };
  if (exit.signal !== undefined && !run.oomKill) terminated.signal = exit.signal;
  if (message !== undefined) terminated.message = message;
  run.oomKill = false;
  finishRun(ctx, run, { terminated });
}
