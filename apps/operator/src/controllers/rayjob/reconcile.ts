import { decide, isManagedBy, parseRayJob, type DecisionSettings, type OperatorMemory, type RayJob, type RayJobResourceStatus } from '@rayjob/core';
import { createExpectations, type Expectations } from '@rayjob/kube-runtime';
import type { DashboardClients } from './dashboards.ts';
import { execute } from './executor.ts';
import type { JobFollowers } from './job-followers.ts';
import type { KubernetesObject, KubeWriter } from './kube-writer.ts';
import type { NodeTables } from './node-tables.ts';
import type { ObjectView } from './object-view.ts';
import { submitterRunning } from './node-check-plan.ts';
import { observe } from './observe.ts';
import { secondsToNextTimer } from './wakeups.ts';

export interface ReconcileLogger {
  info(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

export interface RayJobReconcilerDeps {
  view: ObjectView;
  writer: KubeWriter;
  dashboards: DashboardClients;
  nodeTables: NodeTables;
  followers: JobFollowers;
  settings: DecisionSettings;
  /**
   * How often a Running RayJob is polled when watch events and a log tail already bring its changes (KubeRay:
   * every 3 s). Timers still wake it exactly when they fall due.
   */
  runningPollSeconds: number;
  log: ReconcileLogger;
  /**
   * The RayJobs' pending creates (RayCluster, submitter Job, Services), keyed by RayJob namespace/name, observed
   * from the informers by the controller. Default: a private set observed only from this reconciler's reads.
   */
  expectations?: Expectations;
  /** Told about status writes and deletions (KubeRay's kuberay_job_* metrics). */
  onStatusWritten?: (rayJob: RayJob, original: RayJobResourceStatus, next: RayJobResourceStatus, now: Date) => void;
  onGone?: (namespace: string, name: string) => void;
  now?: () => Date;
  random?: () => number;
}

/** What the work queue does next with this key. */
export type ReconcileResult =
  | { kind: 'done'; requeueAfterSeconds?: number | undefined }
  /** Someone wrote the object first: decide again on the fresh copy (rate-limited requeue). */
  | { kind: 'conflict'; what: string }
  | { kind: 'error'; message: string };

export interface RayJobReconciler {
  reconcile(namespace: string, name: string): Promise<ReconcileResult>;
  /** Operator memory per RayJob UID (addition F's clock, HTTPMode submit failures, acknowledged stops). */
  readonly memories: ReadonlyMap<string, OperatorMemory>;
}

/** How long a create the cache has not shown yet holds back creating the object again. */
export const CREATE_EXPECTATION_TTL_MS = 10_000;

/** How long to wait for the watch to bring our own latest write before deciding again anyway. */
const STALE_RETRY_SECONDS = 2;

export function createRayJobReconciler(deps: RayJobReconcilerDeps): RayJobReconciler {
  const memories = new Map<string, OperatorMemory>();
  const uidByKey = new Map<string, string>();
  /**
   * Per key, resourceVersions our own writes moved past. The watch brings the newer copy (and a reconcile with
   * it) shortly; deciding on an older copy would only repeat the writes and fail them with 409.
   */
  const staleVersions = new Map<string, Set<string>>();
  const now = deps.now ?? (() => new Date());
  const expectations = deps.expectations ?? createExpectations({ clock: { now: () => now().getTime() }, createTtlMs: CREATE_EXPECTATION_TTL_MS });
  const random = deps.random ?? Math.random;

  async function reconcile(namespace: string, name: string): Promise<ReconcileResult> {
    const raw = deps.view.rayJob(namespace, name);
    const key = `${namespace}/${name}`;
    if (!raw) {
      staleVersions.delete(key);
      expectations.forget(key);
      deps.followers.stop(key);
      const gone = uidByKey.get(key);
      if (gone !== undefined) memories.delete(gone);
      uidByKey.delete(key);
      deps.onGone?.(namespace, name);
      return { kind: 'done' };
    }
    const stale = staleVersions.get(key);
    if (stale) {
      // Not yet our latest write: wait for its watch event (a bounded retry covers a lost event).
      if (stale.has(raw.metadata.resourceVersion ?? '')) return { kind: 'done', requeueAfterSeconds: STALE_RETRY_SECONDS };
      staleVersions.delete(key);
    }
    const uid = raw.metadata.uid ?? '';
    const previous = uidByKey.get(key);
    if (previous !== undefined && previous !== uid) {
      // A new RayJob of the same name: the old one's pending creates are not its own.
      memories.delete(previous);
      expectations.forget(key);
    }
    uidByKey.set(key, uid);
    const managedBy = (raw.spec as { managedBy?: string } | undefined)?.managedBy;
    if (!isManagedBy(managedBy, deps.settings.managedBy)) return { kind: 'done' };

    const parsed = parseRayJob(raw);
    if (!parsed.ok) return unreadable(raw, parsed.message);
    const rayJob = parsed.rayJob;
    const memory = memories.get(uid) ?? {};
    const input = await observe(rayJob, memory, { view: deps.view, dashboards: deps.dashboards, nodeTables: deps.nodeTables, settings: deps.settings, tailOpen: deps.followers.isFollowing(key) }, now(), random);
    for (const [kind, seen] of [['RayCluster', input.cluster], ['Job', input.submitterJob], ['Service', input.clusterHeadService], ['Service', input.rayJobHeadService]] as const) {
      // What this pass reads from the cache has been created (C19: should it disappear later, someone deleted it,
      // and the next pass creates it again at once rather than after the TTL).
      if (seen?.metadata.name) expectations.observeCreated({ kind, namespace, name: seen.metadata.name });
    }
    const decision = decide(input);
    const status = decision.status;
    const fields = { RayJob: key, JobStatus: status.jobStatus ?? '', JobDeploymentStatus: status.jobDeploymentStatus ?? '', SubmissionMode: rayJob.spec.submissionMode ?? 'K8sJobMode' };
    for (const note of decision.notes) deps.log.info(fields, note);

    const outcome = await execute(raw, decision, {
      writer: deps.writer,
      dashboards: deps.dashboards,
      cluster: input.cluster,
      log: (message, extra) => deps.log.info({ ...fields, ...extra }, message),
      now,
      expectations,
    });
    memories.set(uid, outcome.memory);
    if (outcome.superseded) staleVersions.set(key, new Set(outcome.superseded));
    if (outcome.kind === 'conflict') return { kind: 'conflict', what: outcome.what };
    if (outcome.kind === 'error') {
      deps.log.error({ ...fields, error: outcome.message }, 'Reconcile failed');
      return { kind: 'error', message: outcome.message };
    }
    if (outcome.statusWritten) {
      deps.log.info(fields, 'updateRayJobStatus');
      deps.onStatusWritten?.(rayJob, rayJob.status ?? {}, status, input.now);
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
      const timer = secondsToNextTimer(input, outcome.memory);
      requeue = Math.max(requeue, deps.runningPollSeconds);
      if (timer !== undefined) requeue = Math.min(requeue, timer);
    }
    return { kind: 'done', requeueAfterSeconds: requeue };
  }

  /**
   * A RayJob whose spec zod cannot read (e.g. an unknown submissionMode, which the CRD does not constrain):
   * ValidationFailed with a message naming the field, and a Warning event, as for any invalid spec.
   */
  async function unreadable(raw: RayJob, message: string): Promise<ReconcileResult> {
    const status = raw.status ?? {};
    if (status.jobDeploymentStatus === 'ValidationFailed' && status.message === message) return { kind: 'done' };
    await deps.writer.recordEvent(raw as KubernetesObject, {
      type: 'Warning', reason: 'InvalidRayJobSpec', action: 'Validate', note: `${raw.metadata.namespace}/${raw.metadata.name}: ${message}`,
    });
    const r = await deps.writer.replaceRayJobStatus({ ...raw, status: { ...status, jobDeploymentStatus: 'ValidationFailed', reason: 'ValidationFailed', message } } as RayJob);
    if (r.ok) return { kind: 'done' };
    return r.code === 409 ? { kind: 'conflict', what: 'status' } : { kind: 'error', message: r.message };
  }

  return { reconcile, memories };
}
