// Test glue for the RayJob executor: kube-runtime's status writer and a silent event recorder over a scripted
// client, and one pass's answer read back as done / conflict / error with the memory the pass kept.
import type { Decision, RayJob } from '@rayjob/core';
import { createStatusWriter, resources, type EventRecorder, type KubeClient, type KubeResult, type ReconcileResult } from '@rayjob/kube-runtime';
import type { DashboardClients } from '../../src/controllers/rayjob/dashboards.ts';
import { execute, startPass, type ExecuteDeps } from '../../src/controllers/rayjob/execute.ts';

export const silentEvents: EventRecorder = { event: () => undefined, flush: async () => undefined, stats: () => ({ remembered: 0, similarGroups: 0, queued: 0, dropped: 0 }) };

/** An API failure as kube-runtime's client answers it. */
export const apiFailure = (status: number, reason: string, message = reason): KubeResult<never> => ({ ok: false, error: { status, reason, message, method: 'TEST', path: '/' } });
export const apiOk = <T>(value: T): KubeResult<T> => ({ ok: true, value });

export function executeDeps(client: KubeClient, more: Partial<ExecuteDeps> = {}): ExecuteDeps {
  return {
    client,
    status: createStatusWriter({ client, type: resources.rayJobs, changed: () => true }),
    events: silentEvents,
    dashboards: {} as DashboardClients,
    cluster: undefined,
    log: () => undefined,
    now: () => new Date(0),
    ...more,
  };
}

export const kindOf = (result: ReconcileResult): 'done' | 'conflict' | 'error' => (!result ? 'done' : result.error !== undefined ? 'error' : result.requeue ? 'conflict' : 'done');

/** One decision applied: how the pass ended and the memory it kept. */
export async function executeOnce(rayJob: RayJob, decision: Decision, deps: ExecuteDeps) {
  const pass = startPass(rayJob, decision);
  const result = await execute(decision, deps, pass);
  return { kind: kindOf(result), memory: pass.memory, result };
}
