// Readiness and liveness probes of one container run: readiness flips `ready`; liveness kills the container
// after failureThreshold failures (the restart policy then decides, as in Kubernetes). Attempts stop when this
// run of the container ends.
import type { Probe } from '../kube-objects/types.ts';
import { signalGroup } from './container-process.ts';
import type { ProbeRewrite } from './image-program.ts';
import { later, podEvent, type ContainerRun, type PodWorkerContext } from './pod-worker-context.ts';
import { runProbe } from './probes.ts';

type ProbeKind = 'readiness' | 'liveness';

function rewritten(declared: Probe, rewriteProbe: ((command: string[]) => ProbeRewrite) | undefined): Probe {
  if (declared.exec === undefined || rewriteProbe === undefined) return declared;
  const action = rewriteProbe(declared.exec.command);
  if (Array.isArray(action)) return { ...declared, exec: { command: action } };
  const { exec: _exec, ...timing } = declared;
  return { ...timing, httpGet: action.httpGet };
}

export function scheduleProbe(ctx: PodWorkerContext, kind: ProbeKind, run: ContainerRun, env: Record<string, string>, rewriteProbe: ((command: string[]) => ProbeRewrite) | undefined): void {
  const declared = kind === 'readiness' ? run.spec.readinessProbe : run.spec.livenessProbe;
  if (declared === undefined || ctx.terminating) return;
  const probe = rewritten(declared, rewriteProbe);
  const scale = ctx.deps.timing.probeTimeScale;
  const generation = run.runs;
  const current = (): boolean => run.runs === generation && run.state.running !== undefined && !ctx.terminating;
  let successes = 0;
  let failures = 0;
  const attempt = async (): Promise<void> => {
    if (!current()) return;
    const ok = await runProbe(probe, { podIP: ctx.podIP, env, container: run.spec, pid: run.pid, nsenterTool: ctx.deps.tools.nsenter }, Math.max(50, (probe.timeoutSeconds ?? 1) * 1000 * scale));
    if (!current()) return;
    if (ok) { successes += 1; failures = 0; } else { failures += 1; successes = 0; }
    if (!ok) podEvent(ctx, 'Warning', 'Unhealthy', `${kind === 'readiness' ? 'Readiness' : 'Liveness'} probe failed: `);
    if (kind === 'readiness') readinessResult(ctx, run, probe, ok, successes, failures);
    else if (!ok && failures >= (probe.failureThreshold ?? 3) && run.pid !== undefined) return killForLiveness(ctx, run, run.pid);
    later(run.timers, (probe.periodSeconds ?? 10) * 1000 * scale, () => void attempt());
  };
  later(run.timers, (probe.initialDelaySeconds ?? 0) * 1000 * scale, () => void attempt());
}

function readinessResult(ctx: PodWorkerContext, run: ContainerRun, probe: Probe, ok: boolean, successes: number, failures: number): void {
  const before = run.ready;
  if (ok && successes >= (probe.successThreshold ?? 1)) run.ready = true;
  if (!ok && failures >= (probe.failureThreshold ?? 3)) run.ready = false;
  if (before !== run.ready) void ctx.writeStatus();
}

function killForLiveness(ctx: PodWorkerContext, run: ContainerRun, pid: number): void {
  podEvent(ctx, 'Normal', 'Killing', `Container ${run.spec.name} failed liveness probe, will be restarted`);
  signalGroup(pid, 'SIGTERM');
  const grace = (ctx.pod.spec.terminationGracePeriodSeconds ?? 30) * 1000;
  later(run.timers, grace, () => { if (run.pid === pid) signalGroup(pid, 'SIGKILL'); });
}
