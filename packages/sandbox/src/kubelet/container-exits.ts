// What follows a container run's end: the restart policy (CrashLoopBackOff with exponential back-off), the
// next init container or the app containers once init is done, and the pod's teardown once it has finished
// (its processes and network go; status and logs stay).
import type { ContainerState } from '../kube-objects/types.ts';
import { currentPhase } from './pod-status-writer.ts';
import { clearAll, later, podEvent, type ContainerRun, type PodWorkerContext } from './pod-worker-context.ts';

export function finishRun(ctx: PodWorkerContext, run: ContainerRun, state: ContainerState): void {
  clearAll(run.timers);
  run.state = state;
  run.ready = false;
  const exitCode = state.terminated?.exitCode ?? 0;
  if (ctx.terminating) { void ctx.writeStatus(); return; }
  const policy = ctx.restartPolicy;
  const restart = policy === 'Always' ? !run.init || exitCode !== 0 : policy === 'OnFailure' ? exitCode !== 0 : false;
  if (run.init && exitCode === 0) { void ctx.writeStatus(); void runInitContainers(ctx); return; }
  if (run.init && !restart) { ctx.initFailed = true; void ctx.writeStatus().then(() => teardownIfFinished(ctx)); return; }
  if (!restart) { void ctx.writeStatus().then(() => teardownIfFinished(ctx)); return; }
  const { timing } = ctx.deps;
  const delay = Math.min(timing.restartBackoffMaxMs, timing.restartBackoffBaseMs * 2 ** run.restartCount);
  const podRef = `${ctx.name}_${ctx.namespace}(${ctx.uid})`;
  run.lastState = state;
  run.state = { waiting: { reason: 'CrashLoopBackOff', message: `back-off ${formatDuration(delay)} restarting failed container=${run.spec.name} pod=${podRef}` } };
  podEvent(ctx, 'Warning', 'BackOff', `Back-off restarting failed container ${run.spec.name} in pod ${podRef}`);
  void ctx.writeStatus();
  later(run.timers, delay, () => {
    if (ctx.terminating) return;
    run.restartCount += 1;
    void ctx.startContainer(run);
  });
}

export async function runInitContainers(ctx: PodWorkerContext): Promise<void> {
  const next = ctx.initRuns.find((r) => r.state.terminated?.exitCode !== 0);
  if (next === undefined) {
    ctx.initialized = true;
    for (const run of ctx.runs) run.state = { waiting: { reason: 'ContainerCreating' } };
    await ctx.writeStatus();
    for (const run of ctx.runs) void ctx.startContainer(run);
    return;
  }
  if (next.state.running === undefined) await ctx.startContainer(next);
}

async function teardownIfFinished(ctx: PodWorkerContext): Promise<void> {
  const phase = currentPhase(ctx, false);
  if (ctx.finished || ctx.terminating || (phase !== 'Succeeded' && phase !== 'Failed')) return;
  // A finished pod keeps its status and logs, but its processes and network go (as the kubelet kills the sandbox).
  ctx.finished = true;
  ctx.sandboxReady = false;
  await ctx.deps.network.detach(ctx.uid);
  void ctx.writeStatus();
}

function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const seconds = Math.round(ms / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`;
}
