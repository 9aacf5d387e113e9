import { eventNotes, type Action, type Decision, type OperatorMemory, type RayCluster, type RayJob } from '@rayjob/core';
import { resourceOf, resources, type EventRecorder, type Expectations, type KubeClient, type KubeError, type KubeObject, type OwnWrites, type ReconcileResult, type StatusWriter } from '@rayjob/kube-runtime';
import type { DashboardClients } from './dashboards.ts';
import { RAYJOB_CONTROLLER_NAME, recordRayJobEvent } from './events.ts';
import { ownedBy } from './observe.ts';
import { recordSubmitterHead } from './submitter-head-record.ts';

export interface ExecuteDeps {
  /** kube-runtime's client (the manager's lease-fenced work client): creates, patches, deletes. */
  client: KubeClient;
  /** kube-runtime's status writer for RayJobs (core decides whether the status changed). */
  status: StatusWriter;
  /** kube-runtime's event recorder (`rayjob-controller`). */
  events: EventRecorder;
  dashboards: DashboardClients;
  /** The RayJob's cluster from the cache (for the dashboard client of submit and stop). */
  cluster: RayCluster | undefined;
  log: (message: string, fields?: Record<string, unknown>) => void;
  now: () => Date;
  /**
   * Creates this operator sent that the informers may not show yet, under the RayJob's key (kube-runtime's
   * expectations): a reconcile from a cache that lags its own create would POST the object again and get 409
   * (plus a GET to adopt it). Once the cache has shown an object, or after the TTL, a missing one is created again.
   */
  expectations?: Expectations | undefined;
  /**
   * The object as the cache shows it now. A pass reads the cache before it asks the dashboard: an object created by
   * the previous pass may have reached the cache in between (its watch event also dropped the create's
   * expectation), and creating it again would only get 409 and a GET. Its event brings a pass that sees it.
   */
  cached?: ((ref: { kind: string; namespace: string; name: string }) => Parameters<typeof ownedBy>[0] | undefined) | undefined;
  /** Told about each write of the RayJob itself (status, finalizers): the next pass reads it until the cache shows it. */
  ownWrites?: Pick<OwnWrites<RayJob & KubeObject>, 'wrote'> | undefined;
}

type Status = NonNullable<RayJob['status']>;

/**
 * What applying one decision changed besides the API server: the operator memory to keep, the RayJob as the last
 * write returned it, whether the status was written, and whether Ray accepted this pass's submission (its status
 * write is then the decision's `onAccept`).
 */
export interface Pass {
  memory: OperatorMemory;
  current: RayJob;
  statusWritten: boolean;
  accepted?: boolean | undefined;
}

export const startPass = (rayJob: RayJob, decision: Decision): Pass =>
  ({ memory: decision.memory, current: rayJob, statusWritten: false });

/** A write of the RayJob landed: the pass goes on from the answer, and the next pass reads it until the cache shows it. */
function advance(pass: Pass, next: RayJob, deps: ExecuteDeps): void {
  deps.ownWrites?.wrote(pass.current as RayJob & KubeObject, next as RayJob & KubeObject);
  pass.current = next;
}

const write = { fieldManager: RAYJOB_CONTROLLER_NAME };
const done: ReconcileResult = undefined;

/** An API failure as the work queue's answer (an error: logged, rate-limited retry). */
const failure = (what: string, e: KubeError): ReconcileResult => ({ error: `${what}: ${e.status || e.reason} ${e.message}` });

function typeOf(obj: { apiVersion?: string | undefined; kind?: string | undefined }) {
  const type = resourceOf(obj.apiVersion, obj.kind);
  if (!type) throw new Error(`the RayJob controller does not write ${obj.apiVersion} ${obj.kind}`);
  return type;
}

const refOf = (obj: { metadata?: { namespace?: string | undefined; name?: string | undefined } }) => ({ namespace: obj.metadata?.namespace ?? 'default', name: obj.metadata?.name ?? '' });

/**
 * Applies one decision: the status write (only if it changed, with a resourceVersion precondition) and the
 * actions, in core's order (`writeStatusFirst`: the verdict is persisted before anything destructive happens,
 * so a conflicting write cancels the actions). Every action is idempotent: create means create-if-absent (409 on
 * an object this RayJob owns = adopt it; someone else's = a clear error), delete means delete-if-present.
 * The answer is the work queue's: done (undefined), a conflict ({requeue}: decide again on the fresh copy), or an
 * error; `pass` keeps what the reconciler remembers.
 */
export async function execute(decision: Decision, deps: ExecuteDeps, pass: Pass): Promise<ReconcileResult> {
  if (decision.writeStatusFirst) {
    const stop = await writeStatus(decision, deps, pass);
    if (stop) return stop;
  }
  for (const action of decision.actions) {
    const stop = await apply(action, pass, deps);
    if (stop) return stop;
  }
  if (!decision.writeStatusFirst) {
    const stop = await writeStatus(decision, deps, pass);
    if (stop) return stop;
  }
  // A condition's change is told once, after the write that carries it (a conflict re-decides and tells it then).
  if (pass.statusWritten) for (const event of written(decision, pass).conditionEvents) recordRayJobEvent(deps.events, pass.current, event);
  return done;
}

/** The status this pass writes and the events of its condition changes: the accepted submission's, once Ray accepted it. */
export function written(decision: Decision, pass: Pass): { status: Status; conditionEvents: Decision['conditionEvents'] } {
  return pass.accepted && decision.onAccept ? decision.onAccept : decision;
}

async function writeStatus(decision: Decision, deps: ExecuteDeps, pass: Pass): Promise<ReconcileResult> {
  const accepted = pass.accepted && decision.onAccept;
  if (!decision.statusChanged && !accepted) return done;
  const current = { apiVersion: 'ray.io/v1', kind: 'RayJob', ...pass.current } as RayJob & KubeObject;
  const r = await deps.status.writeStatus(current, written(decision, pass).status);
  if (!r) return done;
  if (!r.ok) return r.error.status === 409 ? { requeue: true } : failure('status update failed', r.error);
  pass.statusWritten = true;
  advance(pass, r.value, deps);
  return done;
}

async function apply(action: Action, pass: Pass, deps: ExecuteDeps): Promise<ReconcileResult> {
  const rayJob = pass.current;
  const ns = rayJob.metadata.namespace ?? 'default';
  const name = rayJob.metadata.name ?? '';
  const event = (type: 'Normal' | 'Warning', reason: string, act: string, note: string) => recordRayJobEvent(deps.events, rayJob, { type, reason, action: act, note });
  switch (action.type) {
    case 'emitEvent':
      recordRayJobEvent(deps.events, rayJob, action.event);
      return done;
    case 'addFinalizer':
    case 'removeFinalizer':
      return patchFinalizers(action, pass, deps);
    case 'createCluster':
      return createOwned(rayJob, action.cluster, deps, {
        created: () => event('Normal', 'CreatedRayCluster', 'Create', eventNotes.createdRayCluster(ns, action.cluster.metadata.name ?? '')),
        failed: (err) => event('Warning', 'FailedToCreateRayCluster', 'Create', eventNotes.failedToCreateRayCluster(ns, action.cluster.metadata.name ?? '', err)),
      });
    case 'createSubmitterJob':
      return createOwned(rayJob, action.job, deps, {
        // A re-created submitter's event comes from core (it says why).
        created: () => (action.recreated ? undefined : event('Normal', 'CreatedRayJobSubmitter', 'Create', eventNotes.createdSubmitter(ns, name))),
        failed: (err) => event('Warning', 'FailedToCreateRayJobSubmitter', 'Create', eventNotes.failedToCreateSubmitter(ns, name, err)),
      });
    case 'applyHeadService':
      if (action.existing !== 'absent') return updateService(rayJob, action.service, deps);
      return createOwned(rayJob, action.service, deps, {
        created: () => event('Normal', 'CreatedService', 'Create', eventNotes.createdService(ns, action.service.metadata.name ?? '')),
        failed: (err) => event('Warning', 'FailedToCreateService', 'Create', eventNotes.failedToCreateService(ns, action.service.metadata.name ?? '', err)),
      });
    case 'deleteCluster':
      return deleteOwned(rayJob, { apiVersion: 'ray.io/v1', kind: 'RayCluster', name: action.name }, deps, 'RayCluster', ['DeletedRayCluster', eventNotes.deletedCluster(ns, action.name)], ['FailedToDeleteRayCluster', (m) => eventNotes.failedToDeleteCluster(ns, action.name, m)]);
    case 'deleteSubmitterJob':
      return deleteOwned(rayJob, { apiVersion: 'batch/v1', kind: 'Job', name: action.name }, deps, 'submitter Job', ['DeletedRayJobSubmitter', eventNotes.deletedSubmitter(ns, action.name)], ['FailedToDeleteRayJobSubmitter', (m) => eventNotes.failedToDeleteSubmitter(ns, action.name, m)]);
    case 'suspendWorkerGroups':
      return suspendWorkers(rayJob, action.name, deps);
    case 'deleteRayJob': {
      const r = await deps.client.delete(resources.rayJobs, refOf(rayJob));
      return r.ok || r.error.status === 404 ? done : failure('delete RayJob', r.error);
    }
    case 'submitRayJob':
      return submit(action, pass, deps);
    case 'stopRayJob':
      return stop(action, pass, deps);
    case 'markSubmittersAttachOnly':
      return markAttachOnly(action, pass, deps);
    case 'recordSubmitterHead':
      return recordSubmitterHead(action, pass, deps);
  }
}

async function patchFinalizers(action: Extract<Action, { type: 'addFinalizer' | 'removeFinalizer' }>, pass: Pass, deps: ExecuteDeps): Promise<ReconcileResult> {
  const rayJob = pass.current;
  const have = rayJob.metadata.finalizers ?? [];
  const finalizers = action.type === 'addFinalizer' ? [...new Set([...have, action.finalizer])] : have.filter((f) => f !== action.finalizer);
  const r = await deps.client.patch<RayJob & KubeObject>(resources.rayJobs, refOf(rayJob), { metadata: { finalizers, resourceVersion: rayJob.metadata.resourceVersion } }, 'merge', write);
  if (r.ok) {
    advance(pass, { ...rayJob, metadata: { ...rayJob.metadata, ...r.value.metadata } }, deps);
    return done;
  }
  if (r.error.status === 404 && action.type === 'removeFinalizer') return done;
  if (r.error.status === 409) return { requeue: true };
  return failure(action.type, r.error);
}

interface OutcomeEvents {
  created: () => void;
  failed: (err: string) => void;
}

type Owned = { apiVersion?: string | undefined; kind?: string | undefined; metadata: { namespace?: string | undefined; name?: string | undefined } };

/** Create-if-absent. 409: ours (controller ownerRef to this RayJob) is adopted; anyone else's is a clear error. */
async function createOwned(rayJob: RayJob, obj: Owned, deps: ExecuteDeps, events: OutcomeEvents): Promise<ReconcileResult> {
  const type = typeOf(obj);
  const ref = { kind: obj.kind ?? '', ...refOf(obj) };
  const owner = `${rayJob.metadata.namespace ?? 'default'}/${rayJob.metadata.name ?? ''}`;
  if (deps.expectations?.isPending(ref, 'create')) return done;
  const now = deps.cached?.(ref);
  if (now && ownedBy(now, rayJob)) return done;
  const r = await deps.client.create(type, obj, undefined, write);
  if (r.ok) {
    deps.expectations?.expectCreate(owner, ref);
    events.created();
    return done;
  }
  if (r.error.status === 409) {
    const existing = await deps.client.get(type, refOf(obj));
    if (existing.ok && ownedBy(existing.value, rayJob)) {
      deps.expectations?.expectCreate(owner, ref);
      return done;
    }
    const who = existing.ok ? 'it is not owned by this RayJob; delete or rename it' : `cannot read it: ${existing.error.message}`;
    const message = `${obj.kind} ${obj.metadata.namespace}/${obj.metadata.name} already exists and ${who}`;
    events.failed(message);
    return { error: message };
  }
  events.failed(r.error.message);
  return failure(`create ${obj.kind}`, r.error);
}

/** Delete-if-present, with KubeRay's events; the pending create of the object is forgotten first. */
async function deleteOwned(rayJob: RayJob, obj: { apiVersion: string; kind: string; name: string }, deps: ExecuteDeps, what: string, ok: [string, string], failed: [string, (m: string) => string]): Promise<ReconcileResult> {
  const ns = rayJob.metadata.namespace ?? 'default';
  const ref = { kind: obj.kind, namespace: ns, name: obj.name };
  // Deleted already, and the cache does not show it yet: a second DELETE would only meet a 404 (or a no-op on an
  // object its finalizers hold), so the pass waits for the watch as KubeRay's deletes do.
  if (deps.expectations?.isPending(ref, 'delete')) return done;
  deps.expectations?.forgetObject(ref);
  const r = await deps.client.delete(typeOf(obj), { namespace: ns, name: obj.name }, obj.kind === 'Job' ? { propagationPolicy: 'Background' } : undefined);
  if (r.ok) deps.expectations?.expectDelete(`${ns}/${rayJob.metadata.name ?? ''}`, ref);
  if (r.ok) recordRayJobEvent(deps.events, rayJob, { type: 'Normal', reason: ok[0], action: 'Delete', note: ok[1] });
  else if (r.error.status !== 404) {
    recordRayJobEvent(deps.events, rayJob, { type: 'Warning', reason: failed[0], action: 'Delete', note: failed[1](r.error.message) });
    return failure(`delete ${what}`, r.error);
  }
  return done;
}

/**
 * Addition H: write the attach-only mark into the submitter-state ConfigMap (create it, or merge the key into
 * ours on 409). Best effort like a stop: a failure is logged and asked for again by the next reconcile, never
 * holds back the status write. Memory remembers the key once written, so a steady RayJob costs no call.
 */
async function markAttachOnly(action: Extract<Action, { type: 'markSubmittersAttachOnly' }>, pass: Pass, deps: ExecuteDeps): Promise<ReconcileResult> {
  const ref = refOf(action.configMap);
  const marked = (): ReconcileResult => {
    pass.memory = { ...pass.memory, attachOnlyMarked: { key: action.key } };
    return done;
  };
  const failed = (message: string): ReconcileResult => {
    deps.log('Cannot mark the submitters attach-only (asked again next reconcile)', { configMap: ref.name, error: message });
    return done;
  };
  const merge = () => deps.client.patch(resources.configmaps, ref, { data: action.configMap.data ?? {} }, 'merge', write);
  // K8sJobMode: this operator created (or adopted) the ConfigMap with the submitter's head, so one merge does it.
  if (pass.memory.submitterHeadRecorded) {
    const patched = await merge();
    if (patched.ok) return marked();
    if (patched.error.status !== 404) return failed(`patch: ${patched.error.status} ${patched.error.message}`);
  }
  const created = await deps.client.create(resources.configmaps, action.configMap, undefined, write);
  if (created.ok) return marked();
  if (created.error.status !== 409) return failed(`${created.error.status} ${created.error.message}`);
  const existing = await deps.client.get(resources.configmaps, ref);
  if (!existing.ok) return failed(`read after 409: ${existing.error.status} ${existing.error.message}`);
  if (!ownedBy(existing.value, pass.current)) return failed('the ConfigMap exists and is not owned by this RayJob; delete or rename it');
  const patched = await merge();
  return patched.ok ? marked() : failed(`patch: ${patched.error.status} ${patched.error.message}`);
}

/** Re-point the RayJob head Service at the current attempt's cluster, keeping its clusterIP (KubeRay). */
async function updateService(rayJob: RayJob, desired: Owned & { spec?: Record<string, unknown> | undefined }, deps: ExecuteDeps): Promise<ReconcileResult> {
  const ns = rayJob.metadata.namespace ?? 'default';
  const name = desired.metadata.name ?? '';
  const existing = await deps.client.get<KubeObject & { spec?: Record<string, unknown> }>(resources.services, refOf(desired));
  if (!existing.ok) return existing.error.status === 404 ? done : failure('read Service', existing.error);
  const spec = { ...(desired.spec ?? {}) };
  if (existing.value.spec?.clusterIP !== undefined) spec.clusterIP = existing.value.spec.clusterIP;
  if (existing.value.spec?.clusterIPs !== undefined) spec.clusterIPs = existing.value.spec.clusterIPs;
  const r = await deps.client.replace(resources.services, { ...existing.value, spec }, write);
  if (r.ok) {
    recordRayJobEvent(deps.events, rayJob, { type: 'Normal', reason: 'UpdatedService', action: 'Update', note: eventNotes.updatedService(ns, name) });
    return done;
  }
  recordRayJobEvent(deps.events, rayJob, { type: 'Warning', reason: 'FailedToUpdateService', action: 'Update', note: eventNotes.failedToUpdateService(ns, name, r.error.message) });
  return r.error.status === 409 ? { requeue: true } : failure('update Service', r.error);
}

async function suspendWorkers(rayJob: RayJob, clusterName: string, deps: ExecuteDeps): Promise<ReconcileResult> {
  const ns = rayJob.metadata.namespace ?? 'default';
  const got = await deps.client.get<RayCluster & KubeObject>(resources.rayClusters, { namespace: ns, name: clusterName });
  if (!got.ok) return got.error.status === 404 ? done : failure('read RayCluster', got.error);
  const cluster = got.value;
  const groups = (cluster.spec?.workerGroupSpecs ?? []).map((g) => ({ ...g, suspend: true }));
  const r = await deps.client.replace(resources.rayClusters, { ...cluster, spec: { ...cluster.spec, workerGroupSpecs: groups } }, write);
  if (r.ok) {
    recordRayJobEvent(deps.events, rayJob, { type: 'Normal', reason: 'UpdatedRayCluster', action: 'Update', note: eventNotes.suspendedWorkers(ns, clusterName) });
    return done;
  }
  recordRayJobEvent(deps.events, rayJob, { type: 'Warning', reason: 'FailedToUpdateRayCluster', action: 'Update', note: eventNotes.failedToSuspendWorkers(ns, clusterName, r.error.message) });
  return r.error.status === 409 ? { requeue: true } : failure('suspend worker groups', r.error);
}

/** HTTPMode: POST the job. "Already exists" is success (a previous pass submitted it). A failure is remembered for core. */
async function submit(action: Extract<Action, { type: 'submitRayJob' }>, pass: Pass, deps: ExecuteDeps): Promise<ReconcileResult> {
  const jobId = action.request.submission_id;
  const memory = pass.memory;
  const failed = (message: string): ReconcileResult => {
    deps.log('Failed to submit the Ray job', { jobId, error: message });
    pass.memory = { ...memory, submitFailure: { jobId, at: deps.now().toISOString(), message } };
    return done;
  };
  if (!deps.cluster) return failed('the RayCluster is not in the cache');
  const access = await deps.dashboards.clientFor(deps.cluster, action.dashboardURL);
  if (!access.ok) return failed(access.message);
  const r = await access.client.submit(action.request);
  if (r.kind !== 'ok' && r.kind !== 'already-exists') return failed(`${r.kind}: ${r.message}`);
  const { submitFailure: _cleared, ...rest } = memory;
  // Ray accepted the job (its info is in the head's GCS before the answer), so from now on it counts as seen:
  // were the head lost before the next look, "not found" is the head-lost verdict, never a second submission
  // to the replacement head (addition H). This pass's status write records it too (the decision's onAccept).
  const seen = memory.rayJobSeen?.jobId === jobId ? memory.rayJobSeen : { jobId, status: 'PENDING' as const };
  pass.memory = { ...rest, rayJobSeen: seen };
  pass.accepted = true;
  return done;
}

/** Addition C: best effort; an acknowledged stop is remembered so core stops asking. */
async function stop(action: Extract<Action, { type: 'stopRayJob' }>, pass: Pass, deps: ExecuteDeps): Promise<ReconcileResult> {
  if (!deps.cluster) return done;
  const access = await deps.dashboards.clientFor(deps.cluster, action.dashboardURL);
  if (!access.ok) {
    deps.log('Cannot stop the Ray job', { jobId: action.jobId, error: access.message });
    return done;
  }
  const r = await access.client.stopJob(action.jobId);
  if (r.kind === 'ok' && r.value.stopped) {
    const rayJob = pass.current;
    const note = eventNotes.stoppedRayJob(rayJob.metadata.namespace ?? 'default', rayJob.metadata.name ?? '', action.jobId, action.why);
    recordRayJobEvent(deps.events, rayJob, { type: 'Normal', reason: 'StoppedRayJob', action: 'Stop', note });
    pass.memory = { ...pass.memory, stopAcknowledged: { jobId: action.jobId } };
    return done;
  }
  deps.log('StopJob did not stop the Ray job (retried later)', { jobId: action.jobId, answer: r.kind });
  return done;
}
