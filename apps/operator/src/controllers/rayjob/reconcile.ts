import { decide, isManagedBy, parseRayJob, type DecisionSettings, type OperatorMemory, type RayJob, type RayJobResourceStatus } from '@rayjob/core';
import { createExpectations, createOwnWrites, type EventRecorder, type Expectations, type KubeClient, type KubeObject, type Logger, type OwnWrites, type ReconcileResult, type StatusWriter } from '@rayjob/kube-runtime';
import type { DashboardClients } from './dashboards.ts';
import { recordRayJobEvent } from './events.ts';
import { execute, startPass, written } from './execute.ts';
import type { JobFollowers } from './job-followers.ts';
import { submitterRunning } from './node-check-plan.ts';
import type { NodeTables } from './node-tables.ts';
import type { ObjectView } from './observe.ts';
import { cachedObject, observe } from './observe.ts';
import { secondsToNextTimer } from './wakeups.ts';

/**
 * One RayJob pass: read it from the cache, skip RayJobs another controller manages, observe (cache, and the
 * dashboard only when core needs it), let core decide, execute the decision (status write and actions), and answer
 * the work queue with kube-runtime's ReconcileResult.
 */

/** What the RayJob controller remembers between passes, per RayJob (kept by the controller, read by tests). */
export interface RayJobState {
  /** Operator memory per RayJob UID (addition F's clock, HTTPMode submit failures, acknowledged stops). */
  memories: Map<string, OperatorMemory>;
  uidByKey: Map<string, string>;
  /**
   * The RayJobs' own writes (status, finalizers) the cache does not show yet (kube-runtime's read-your-own-writes):
   * an owned object's event brings a reconcile before the watch brings our write, and deciding from the cached
   * copy would repeat the write from a stale resourceVersion (409). The controller has it watch the RayJob informers.
   */
  ownWrites: OwnWrites<RayJob & KubeObject>;
  /**
   * The RayJobs' pending creates (RayCluster, submitter Job, Services), keyed by RayJob namespace/name, observed
   * from the informers by the controller.
   */
  expectations: Expectations;
}

/** How long a create the cache has not shown yet holds back creating the object again. */
export const CREATE_EXPECTATION_TTL_MS = 10_000;

/** Default expectations: a private set observed only from the reconciler's own reads, on `now`'s clock. */
export function createRayJobState(now: () => Date = () => new Date(), expectations?: Expectations): RayJobState {
  return {
    memories: new Map(),
    uidByKey: new Map(),
    ownWrites: createOwnWrites(),
    expectations: expectations ?? createExpectations({ clock: { now: () => now().getTime() }, createTtlMs: CREATE_EXPECTATION_TTL_MS }),
  };
}

export interface ReconcileDeps {
  view: ObjectView;
  client: KubeClient;
  status: StatusWriter;
  events: EventRecorder;
  dashboards: DashboardClients;
  nodeTables: NodeTables;
  followers: JobFollowers;
  settings: DecisionSettings;
  /**
   * How often a Running RayJob is polled when watch events and a log tail already bring its changes (KubeRay:
   * every 3 s). Timers still wake it exactly when they fall due.
   */
  runningPollSeconds: number;
  state: RayJobState;
  /** Told about status writes and deletions (KubeRay's kuberay_job_* metrics). */
  onStatusWritten?: ((rayJob: RayJob, original: RayJobResourceStatus, next: RayJobResourceStatus, now: Date) => void) | undefined;
  onGone?: ((namespace: string, name: string) => void) | undefined;
  now?: () => Date;
  random?: () => number;
}

const requeueAfter = (seconds: number | undefined): ReconcileResult =>
  seconds === undefined ? undefined : seconds <= 0 ? { requeue: true } : { requeueAfterMs: seconds * 1000 };

/** The RayJob is gone: forget what this controller held for it. */
function forgetRayJob(namespace: string, name: string, deps: ReconcileDeps): ReconcileResult {
  const key = `${namespace}/${name}`;
  const { state } = deps;
  state.ownWrites.forget(key);
  state.expectations.forget(key);
  deps.followers.stop(key);
  const gone = state.uidByKey.get(key);
  if (gone !== undefined) state.memories.delete(gone);
  state.uidByKey.delete(key);
  deps.onGone?.(namespace, name);
  return undefined;
}

/** Notes a new RayJob of the same name: the old one's memory and pending creates are not its own. */
function noteRenewed(key: string, raw: RayJob, state: RayJobState): void {
  const uid = raw.metadata.uid ?? '';
  const previous = state.uidByKey.get(key);
  if (previous !== undefined && previous !== uid) {
    // A new RayJob of the same name: the old one's pending creates are not its own.
    state.memories.delete(previous);
    state.expectations.forget(key);
  }
  state.uidByKey.set(key, uid);
}

export async function reconcileRayJob(namespace: string, name: string, deps: ReconcileDeps, log: Logger): Promise<ReconcileResult> {
  const { state } = deps;
  const now = deps.now ?? (() => new Date());
  const cached = deps.view.rayJob(namespace, name);
  const key = `${namespace}/${name}`;
  if (!cached) return forgetRayJob(namespace, name, deps);
  const raw = state.ownWrites.freshest(cached);
  noteRenewed(key, raw, state);
  const managedBy = (raw.spec as { managedBy?: string } | undefined)?.managedBy;
  if (!isManagedBy(managedBy, deps.settings.managedBy)) return undefined;

  const parsed = parseRayJob(raw);
  if (!parsed.ok) return unreadable(raw, parsed.message, deps);
  const rayJob = parsed.rayJob;
  const uid = raw.metadata.uid ?? '';
  const memory = state.memories.get(uid) ?? {};
  const input = await observe(rayJob, memory, { view: deps.view, dashboards: deps.dashboards, nodeTables: deps.nodeTables, settings: deps.settings, tailOpen: deps.followers.isFollowing(key) }, now(), deps.random ?? Math.random);
  for (const [kind, seen] of [['RayCluster', input.cluster], ['Job', input.submitterJob], ['Service', input.clusterHeadService], ['Service', input.rayJobHeadService]] as const) {
    // What this pass reads from the cache has been created (C19: should it disappear later, someone deleted it,
    // and the next pass creates it again at once rather than after the TTL).
    if (seen?.metadata.name) state.expectations.observeCreated({ kind, namespace, name: seen.metadata.name });
  }
  const decision = decide(input);
  const status = decision.status;
  const fields = { RayJob: key, JobStatus: status.jobStatus ?? '', JobDeploymentStatus: status.jobDeploymentStatus ?? '', SubmissionMode: rayJob.spec.submissionMode ?? 'K8sJobMode' };
  for (const note of decision.notes) log.info(fields, note);

  const pass = startPass(raw, decision);
  const result = await execute(decision, {
    client: deps.client,
    status: deps.status,
    events: deps.events,
    dashboards: deps.dashboards,
    cluster: input.cluster,
    log: (message, extra) => log.info({ ...fields, ...extra }, message),
    now,
    expectations: state.expectations,
    cached: (ref) => cachedObject(deps.view, ref),
    ownWrites: state.ownWrites,
  }, pass);
  state.memories.set(uid, pass.memory);
  if (result?.error !== undefined) log.error({ ...fields, error: result.error }, 'Reconcile failed');
  if (result) return result;
  if (pass.statusWritten) {
    log.info(fields, 'updateRayJobStatus');
    deps.onStatusWritten?.(rayJob, rayJob.status ?? {}, written(decision, pass).status, input.now);
  }

  // The end of a Ray job is seen through its log tail, which Ray closes when the job ends: no 3 s polling of
  // the dashboard, in every mode (HTTPMode and InteractiveMode have no submitter; in the others the submitter
  // may already be gone while the job runs on, rule 2).
  const running = status.jobDeploymentStatus === 'Running' && !!status.jobId && !!input.cluster && !!status.dashboardURL;
  const steady = running && status.jobStatus === 'RUNNING';
  if (steady && input.cluster) deps.followers.follow(key, input.cluster, status.dashboardURL ?? '', status.jobId ?? '');
  else if (!running) deps.followers.stop(key);

  let requeue = decision.requeueAfterSeconds;
  // A steadily RUNNING job whose end arrives as an event is polled rarely: its tail is followed, or (after the
  // job printed more than the tail's budget) a running submitter will exit at the end. Timers still wake it
  // exactly when they fall due. Before RUNNING (not yet submitted, PENDING), and for a job over its budget with
  // no submitter (HTTPMode, InteractiveMode), core's interval applies.
  const endIsEvent = deps.followers.isFollowing(key) || (deps.followers.budgetSpent(key) && submitterRunning({ rayJob, settings: deps.settings, submitterJob: input.submitterJob, submitterPods: input.submitterPods ?? [], headPods: input.headPods ?? [] }));
  if (steady && endIsEvent && requeue !== undefined && requeue > 0) {
    const timer = secondsToNextTimer(input, pass.memory);
    requeue = Math.max(requeue, deps.runningPollSeconds);
    if (timer !== undefined) requeue = Math.min(requeue, timer);
  }
  return requeueAfter(requeue);
}

/**
 * A RayJob whose spec zod cannot read (e.g. an unknown submissionMode, which the CRD does not constrain):
 * ValidationFailed with a message naming the field, and a Warning event, as for any invalid spec.
 */
async function unreadable(raw: RayJob, message: string, deps: ReconcileDeps): Promise<ReconcileResult> {
  const status = raw.status ?? {};
  if (status.jobDeploymentStatus === 'ValidationFailed' && status.message === message) return undefined;
  recordRayJobEvent(deps.events, raw, { type: 'Warning', reason: 'InvalidRayJobSpec', action: 'Validate', note: `${raw.metadata.namespace}/${raw.metadata.name}: ${message}` });
  const current = { apiVersion: 'ray.io/v1', kind: 'RayJob', ...raw } as RayJob & KubeObject;
  const r = await deps.status.writeStatus(current, { ...status, jobDeploymentStatus: 'ValidationFailed', reason: 'ValidationFailed', message });
  if (r?.ok) deps.state.ownWrites.wrote(current, r.value);
  if (!r || r.ok) return undefined;
  return r.error.status === 409 ? { requeue: true } : { error: r.error.message };
}
