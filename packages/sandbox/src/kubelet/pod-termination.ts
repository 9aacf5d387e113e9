// Ending a pod: its containers get SIGTERM and the grace period, then SIGKILL; the final status is written, the
// pod's network and directory go, and the object is deleted (uid precondition: never a successor of the same
// name). Kubelet shutdown and a force deletion end the processes the same way but write nothing.
import { describeError, resources, rfc3339 } from '@rayjob/kube-runtime';
import { rmSync } from 'node:fs';
import { signalGroup } from './container-process.ts';
import { podLogDir } from './log-paths.ts';
import { clearAll, nowIso, podEvent, type PodWorkerContext } from './pod-worker-context.ts';

export async function killAll(ctx: PodWorkerContext, graceMs: number): Promise<void> {
  const all = [...ctx.initRuns, ...ctx.runs];
  for (const run of all) clearAll(run.timers);
  clearAll(ctx.workerTimers);
  for (const run of all) {
    if (run.state.running === undefined && run.state.terminated === undefined) {
      run.state = { terminated: { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', startedAt: rfc3339(0), finishedAt: nowIso() } };
    }
  }
  const running = all.filter((r) => r.pid !== undefined);
  for (const run of running) {
    if (graceMs > 0) podEvent(ctx, 'Normal', 'Killing', `Stopping container ${run.spec.name}`);
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

export async function cleanUp(ctx: PodWorkerContext): Promise<void> {
  ctx.torn = true;
  await ctx.deps.network.detach(ctx.uid);
  rmSync(ctx.podDir, { recursive: true, force: true });
}

export function removeLogs(ctx: PodWorkerContext): void {
  rmSync(podLogDir(ctx.deps.dir, ctx.namespace, ctx.name), { recursive: true, force: true });
}

export async function terminate(ctx: PodWorkerContext): Promise<void> {
  ctx.terminating = true;
  const { pod, deps, namespace, name, uid } = ctx;
  const graceSeconds = pod.metadata.deletionGracePeriodSeconds ?? pod.spec.terminationGracePeriodSeconds ?? 30;
  await killAll(ctx, graceSeconds * 1000);
  if (ctx.shutDown) return;
  ctx.sandboxReady = false;
  await ctx.writeStatus();
  await cleanUp(ctx);
  removeLogs(ctx);
  const removed = await deps.client.delete(resources.pods, { namespace, name }, { gracePeriodSeconds: 0, preconditions: { uid } });
  if (!removed.ok && removed.error.status !== 404 && removed.error.status !== 409) deps.log(`delete ${namespace}/${name}: ${describeError(removed.error)}`);
}
