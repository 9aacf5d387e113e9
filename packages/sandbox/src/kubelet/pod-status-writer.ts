// The pod worker's status writes: the status it would report (phase, conditions, container statuses), and
// writes of it that never overlap (a write asked for while one is under way runs once after it), are retried
// on conflict with a fresh read, and are tried again later when the API server did not take them.
import { describeError, resources } from '@rayjob/kube-runtime';
import type { Pod } from '../kube-objects/types.ts';
import { containerStatusOf, later, nowIso, type PodWorkerContext } from './pod-worker-context.ts';
import { mergeForeignConditions, podConditions, podPhase } from './pod-status.ts';

type PodStatus = NonNullable<Pod['status']>;

/** How soon a status write the API server did not take is tried again. */
const statusRetryMs = 1_000;

export function currentPhase(ctx: PodWorkerContext, deleting: boolean): NonNullable<PodStatus['phase']> {
  if (ctx.initFailed) return 'Failed';
  const allStopped = [...ctx.runs, ...ctx.initRuns].every((r) => r.state.running === undefined);
  return podPhase(ctx.restartPolicy, ctx.initialized, ctx.runs.map(containerStatusOf), deleting && allStopped);
}

/** The status the kubelet reports, over what the live object holds (conditions others own stay). */
export function statusSnapshot(ctx: PodWorkerContext, live: Pod): PodStatus {
  const statuses = ctx.runs.map(containerStatusOf);
  const initStatuses = ctx.initRuns.map(containerStatusOf);
  const phase = currentPhase(ctx, ctx.terminating);
  const { initialized, sandboxReady } = ctx;
  const conditions = podConditions({ previous: live.status?.conditions ?? [], sandboxReady, initStatuses, initialized, statuses, phase, nowIso: nowIso() });
  const gatewayIP = ctx.deps.network.gatewayIP;
  const status: PodStatus = {
    ...(live.status ?? {}),
    phase,
    conditions: mergeForeignConditions(live, conditions),
    hostIP: gatewayIP,
    hostIPs: [{ ip: gatewayIP }],
    startTime: ctx.startTime,
    containerStatuses: statuses,
  };
  if (ctx.podIP !== '') { status.podIP = ctx.podIP; status.podIPs = [{ ip: ctx.podIP }]; }
  if (ctx.initRuns.length > 0) status.initContainerStatuses = initStatuses;
  return status;
}

export interface StatusWriter {
  write(): Promise<void>;
  /** Whether a status write has gone through (before that, the object's status is not the kubelet's yet). */
  wrote(): boolean;
}

export function newStatusWriter(ctx: PodWorkerContext): StatusWriter {
  const { deps, namespace, name, uid } = ctx;
  let writing: Promise<void> | undefined;
  let dirty = false;
  let wroteStatus = false;
  // A write the API server did not take (a reset connection, a 5xx) is tried again a little later, as the real
  // kubelet's status manager re-syncs: nothing else may ever change about the pod to trigger another write.
  let retryScheduled = false;
  const retryLater = (): void => {
    if (retryScheduled) return;
    retryScheduled = true;
    later(ctx.workerTimers, statusRetryMs, () => { retryScheduled = false; void write(); });
  };
  const failed = (message: string): void => {
    if (ctx.shutDown) return;
    deps.log(`status of ${namespace}/${name}: ${message}`);
    retryLater();
  };

  async function writeOnce(): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const live = await deps.client.get<Pod>(resources.pods, { namespace, name });
      if (!live.ok && live.error.status !== 404) return failed(describeError(live.error));
      if (!live.ok || live.value.metadata.uid !== uid) return;
      const body = { ...live.value, status: statusSnapshot(ctx, live.value) };
      const written = await deps.client.replaceStatus<Pod>(resources.pods, body);
      if (written.ok) wroteStatus = true;
      if (written.ok || written.error.status === 404) return;
      if (written.error.status !== 409) return failed(describeError(written.error));
    }
  }

  function write(): Promise<void> {
    if (ctx.torn && !ctx.terminating) return Promise.resolve();
    if (deps.frozen()) return Promise.resolve();
    dirty = true;
    if (writing !== undefined) return writing.then(() => (dirty ? write() : undefined));
    dirty = false;
    writing = writeOnce().finally(() => { writing = undefined; });
    return writing.then(() => (dirty ? write() : undefined));
  }

  return { write, wrote: () => wroteStatus };
}
