import { eventNotes, type Action, type Decision, type OperatorMemory, type RayCluster, type RayJob } from '@rayjob/core';
import type { Expectations } from '@rayjob/kube-runtime';
import type { DashboardClients } from './dashboards.ts';
import type { KubeResult, KubernetesObject, KubeWriter, ObjectRef } from './kube-writer.ts';
import { ownedBy } from './object-view.ts';
import { recordSubmitterHead } from './submitter-head-record.ts';

export interface ExecuteDeps {
  writer: KubeWriter;
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
}

/**
 * How applying a decision went: done, a conflict (re-read and decide again), or an error (retry with backoff).
 * `superseded`: the RayJob's resourceVersions our own writes of this pass moved past (the one decided on, and
 * any between two writes), so a copy of them still in the cache is known to be stale.
 */
export type ExecuteOutcome = (
  | { kind: 'done'; memory: OperatorMemory; statusWritten: boolean }
  | { kind: 'conflict'; memory: OperatorMemory; what: string }
  | { kind: 'error'; memory: OperatorMemory; message: string; retryAfterSeconds?: number | undefined }
) & { superseded?: string[] };

/**
 * Applies one decision: the status write (only if it changed, with a resourceVersion precondition) and the
 * actions, in core's order (`writeStatusFirst`: the verdict is persisted before anything destructive happens,
 * so a conflicting write cancels the actions). Every action is idempotent: create means create-if-absent (409 on
 * an object this RayJob owns = adopt it; someone else's = a clear error), delete means delete-if-present.
 */
export async function execute(rayJob: RayJob, decision: Decision, deps: ExecuteDeps): Promise<ExecuteOutcome> {
  const outcome = await executeInOrder(rayJob, decision, deps);
  const versions = new Set<string>();
  const last = outcome.current.metadata.resourceVersion;
  for (const rv of outcome.versions) if (rv !== undefined && rv !== last) versions.add(rv);
  const { current: _current, versions: _versions, ...rest } = outcome;
  return versions.size ? { ...rest, superseded: [...versions] } : rest;
}

type Tracked = ExecuteOutcome & { current: RayJob; versions: Array<string | undefined> };

async function executeInOrder(rayJob: RayJob, decision: Decision, deps: ExecuteDeps): Promise<Tracked> {
  const versions: Array<string | undefined> = [rayJob.metadata.resourceVersion];
  let memory = decision.memory;
  let current: RayJob = rayJob;
  let statusWritten = false;
  // What an action learnt that core asked to record in this reconcile's status write (a submission accepted).
  let learnt: Partial<NonNullable<RayJob['status']>> | undefined;
  const track = (outcome: ExecuteOutcome): Tracked => ({ ...outcome, current, versions });
  const writeStatus = async (): Promise<Tracked | undefined> => {
    if (!decision.statusChanged && !learnt) return undefined;
    const r = await deps.writer.replaceRayJobStatus({ ...current, status: { ...decision.status, ...learnt } });
    if (r.ok) {
      statusWritten = true;
      current = r.value;
      versions.push(current.metadata.resourceVersion);
      return undefined;
    }
    if (r.code === 409) return track({ kind: 'conflict', memory, what: 'status' });
    return track({ kind: 'error', memory, message: `status update failed: ${r.code} ${r.message}` });
  };

  if (decision.writeStatusFirst) {
    const stop = await writeStatus();
    if (stop) return stop;
  }
  for (const action of decision.actions) {
    const r = await apply(action, current, memory, deps);
    memory = r.memory;
    if (r.kind === 'ok' && r.status) learnt = { ...learnt, ...r.status };
    if (r.current) {
      current = r.current;
      versions.push(current.metadata.resourceVersion);
    }
    if (r.kind === 'error') return track({ kind: 'error', memory, message: r.message, retryAfterSeconds: r.retryAfterSeconds });
    if (r.kind === 'conflict') return track({ kind: 'conflict', memory, what: r.what });
  }
  if (!decision.writeStatusFirst) {
    const stop = await writeStatus();
    if (stop) return stop;
  }
  // A condition's change is told once, after the write that carries it (a conflict re-decides and tells it then).
  if (statusWritten) for (const event of decision.conditionEvents) await deps.writer.recordEvent(current as KubernetesObject, event);
  return track({ kind: 'done', memory, statusWritten });
}

type Applied =
  | { kind: 'ok'; memory: OperatorMemory; current?: RayJob | undefined; status?: Partial<NonNullable<RayJob['status']>> | undefined }
  | { kind: 'conflict'; memory: OperatorMemory; what: string; current?: undefined }
  | { kind: 'error'; memory: OperatorMemory; message: string; retryAfterSeconds?: number | undefined; current?: undefined };

const refOf = (obj: KubernetesObject): ObjectRef => ({
  apiVersion: obj.apiVersion ?? '',
  kind: obj.kind ?? '',
  namespace: obj.metadata?.namespace ?? 'default',
  name: obj.metadata?.name ?? '',
});

const rayJobRef = (rayJob: RayJob): ObjectRef => ({ apiVersion: 'ray.io/v1', kind: 'RayJob', namespace: rayJob.metadata.namespace ?? 'default', name: rayJob.metadata.name ?? '' });

/** 429 carries Retry-After in the body's details; 5xx and transport errors retry with backoff. */
function apiError(memory: OperatorMemory, what: string, r: Extract<KubeResult<unknown>, { ok: false }>): Applied {
  return { kind: 'error', memory, message: `${what}: ${r.code || r.reason} ${r.message}` };
}

async function apply(action: Action, rayJob: RayJob, memory: OperatorMemory, deps: ExecuteDeps): Promise<Applied> {
  const { writer } = deps;
  const ns = rayJob.metadata.namespace ?? 'default';
  const name = rayJob.metadata.name ?? '';
  const event = (type: 'Normal' | 'Warning', reason: string, act: string, note: string) =>
    writer.recordEvent(rayJob as KubernetesObject, { type, reason, action: act, note });
  switch (action.type) {
    case 'emitEvent':
      await writer.recordEvent(rayJob as KubernetesObject, action.event);
      return { kind: 'ok', memory };
    case 'addFinalizer':
    case 'removeFinalizer': {
      const have = rayJob.metadata.finalizers ?? [];
      const finalizers = action.type === 'addFinalizer' ? [...new Set([...have, action.finalizer])] : have.filter((f) => f !== action.finalizer);
      const r = await writer.mergePatch<RayJob>(rayJobRef(rayJob), { metadata: { finalizers, resourceVersion: rayJob.metadata.resourceVersion } });
      if (r.ok) return { kind: 'ok', memory, current: { ...rayJob, metadata: { ...rayJob.metadata, ...r.value.metadata } } };
      if (r.code === 404 && action.type === 'removeFinalizer') return { kind: 'ok', memory };
      if (r.code === 409) return { kind: 'conflict', memory, what: 'finalizers' };
      return apiError(memory, action.type, r);
    }
    case 'createCluster':
      return createOwned(rayJob, action.cluster as KubernetesObject, memory, deps, {
        created: () => event('Normal', 'CreatedRayCluster', 'Create', eventNotes.createdRayCluster(ns, action.cluster.metadata.name ?? '')),
        failed: (err) => event('Warning', 'FailedToCreateRayCluster', 'Create', eventNotes.failedToCreateRayCluster(ns, action.cluster.metadata.name ?? '', err)),
      });
    case 'createSubmitterJob':
      return createOwned(rayJob, action.job as KubernetesObject, memory, deps, {
        // A re-created submitter's event comes from core (it says why).
        created: () => (action.recreated ? Promise.resolve() : event('Normal', 'CreatedRayJobSubmitter', 'Create', eventNotes.createdSubmitter(ns, name))),
        failed: (err) => event('Warning', 'FailedToCreateRayJobSubmitter', 'Create', eventNotes.failedToCreateSubmitter(ns, name, err)),
      });
    case 'applyHeadService': {
      if (action.existing === 'absent') {
        return createOwned(rayJob, action.service as KubernetesObject, memory, deps, {
          created: () => event('Normal', 'CreatedService', 'Create', eventNotes.createdService(ns, action.service.metadata.name ?? '')),
          failed: (err) => event('Warning', 'FailedToCreateService', 'Create', eventNotes.failedToCreateService(ns, action.service.metadata.name ?? '', err)),
        });
      }
      return updateService(rayJob, action.service as KubernetesObject, memory, deps);
    }
    case 'deleteCluster': {
      const ref: ObjectRef = { apiVersion: 'ray.io/v1', kind: 'RayCluster', namespace: ns, name: action.name };
      deps.expectations?.forgetObject(ref);
      const r = await writer.delete(ref);
      if (r.ok) await event('Normal', 'DeletedRayCluster', 'Delete', eventNotes.deletedCluster(ns, action.name));
      else if (r.code !== 404) {
        await event('Warning', 'FailedToDeleteRayCluster', 'Delete', eventNotes.failedToDeleteCluster(ns, action.name, r.message));
        return apiError(memory, 'delete RayCluster', r);
      }
      return { kind: 'ok', memory };
    }
    case 'deleteSubmitterJob': {
      const ref: ObjectRef = { apiVersion: 'batch/v1', kind: 'Job', namespace: ns, name: action.name };
      deps.expectations?.forgetObject(ref);
      const r = await writer.delete(ref, 'Background');
      if (r.ok) await event('Normal', 'DeletedRayJobSubmitter', 'Delete', eventNotes.deletedSubmitter(ns, action.name));
      else if (r.code !== 404) {
        await event('Warning', 'FailedToDeleteRayJobSubmitter', 'Delete', eventNotes.failedToDeleteSubmitter(ns, action.name, r.message));
        return apiError(memory, 'delete submitter Job', r);
      }
      return { kind: 'ok', memory };
    }
    case 'suspendWorkerGroups':
      return suspendWorkers(rayJob, action.name, memory, deps);
    case 'deleteRayJob': {
      const r = await writer.delete(rayJobRef(rayJob));
      return r.ok || r.code === 404 ? { kind: 'ok', memory } : apiError(memory, 'delete RayJob', r);
    }
    case 'submitRayJob':
      return submit(action, rayJob, memory, deps);
    case 'stopRayJob':
      return stop(action, rayJob, memory, deps);
    case 'markSubmittersAttachOnly':
      return markAttachOnly(action, rayJob, memory, deps);
    case 'recordSubmitterHead':
      return recordSubmitterHead(action, rayJob, memory, deps);
  }
}

interface OutcomeEvents {
  created: () => Promise<void>;
  failed: (err: string) => Promise<void>;
}

/** Create-if-absent. 409: ours (controller ownerRef to this RayJob) is adopted; anyone else's is a clear error. */
async function createOwned(rayJob: RayJob, obj: KubernetesObject, memory: OperatorMemory, deps: ExecuteDeps, events: OutcomeEvents): Promise<Applied> {
  const ref = refOf(obj);
  const owner = `${rayJob.metadata.namespace ?? 'default'}/${rayJob.metadata.name ?? ''}`;
  if (deps.expectations?.isPending(ref, 'create')) return { kind: 'ok', memory };
  const r = await deps.writer.create(obj);
  if (r.ok) {
    deps.expectations?.expectCreate(owner, ref);
    await events.created();
    return { kind: 'ok', memory };
  }
  if (r.code === 409) {
    const existing = await deps.writer.read(ref);
    if (existing.ok && ownedBy(existing.value as RayJob, rayJob)) {
      deps.expectations?.expectCreate(owner, ref);
      return { kind: 'ok', memory };
    }
    const who = existing.ok ? 'it is not owned by this RayJob; delete or rename it' : `cannot read it: ${existing.message}`;
    const message = `${obj.kind} ${obj.metadata?.namespace}/${obj.metadata?.name} already exists and ${who}`;
    await events.failed(message);
    return { kind: 'error', memory, message };
  }
  await events.failed(r.message);
  return apiError(memory, `create ${obj.kind}`, r);
}

/**
 * Addition H: write the attach-only mark into the submitter-state ConfigMap (create it, or merge the key into
 * ours on 409). Best effort like a stop: a failure is logged and asked for again by the next reconcile, never
 * holds back the status write. Memory remembers the key once written, so a steady RayJob costs no call.
 */
async function markAttachOnly(action: Extract<Action, { type: 'markSubmittersAttachOnly' }>, rayJob: RayJob, memory: OperatorMemory, deps: ExecuteDeps): Promise<Applied> {
  const marked: Applied = { kind: 'ok', memory: { ...memory, attachOnlyMarked: { key: action.key } } };
  const obj = action.configMap as KubernetesObject;
  const ref = refOf(obj);
  const failed = (message: string): Applied => {
    deps.log('Cannot mark the submitters attach-only (asked again next reconcile)', { configMap: ref.name, error: message });
    return { kind: 'ok', memory };
  };
  // K8sJobMode: this operator created (or adopted) the ConfigMap with the submitter's head, so one merge does it.
  if (memory.submitterHeadRecorded) {
    const patched = await deps.writer.mergePatch(ref, { data: action.configMap.data ?? {} });
    if (patched.ok) return marked;
    if (patched.code !== 404) return failed(`patch: ${patched.code} ${patched.message}`);
  }
  const created = await deps.writer.create(obj);
  if (created.ok) return marked;
  if (created.code !== 409) return failed(`${created.code} ${created.message}`);
  const existing = await deps.writer.read(ref);
  if (!existing.ok) return failed(`read after 409: ${existing.code} ${existing.message}`);
  if (!ownedBy(existing.value, rayJob)) return failed('the ConfigMap exists and is not owned by this RayJob; delete or rename it');
  const patched = await deps.writer.mergePatch(ref, { data: action.configMap.data ?? {} });
  return patched.ok ? marked : failed(`patch: ${patched.code} ${patched.message}`);
}

/** Re-point the RayJob head Service at the current attempt's cluster, keeping its clusterIP (KubeRay). */
async function updateService(rayJob: RayJob, desired: KubernetesObject, memory: OperatorMemory, deps: ExecuteDeps): Promise<Applied> {
  const ns = rayJob.metadata.namespace ?? 'default';
  const name = desired.metadata?.name ?? '';
  const existing = await deps.writer.read<KubernetesObject & { spec?: Record<string, unknown> }>(refOf(desired));
  if (!existing.ok) return existing.code === 404 ? { kind: 'ok', memory } : apiError(memory, 'read Service', existing);
  const spec = { ...((desired as { spec?: Record<string, unknown> }).spec ?? {}) };
  const keepIP = existing.value.spec?.clusterIP;
  if (keepIP !== undefined) spec.clusterIP = keepIP;
  if (existing.value.spec?.clusterIPs !== undefined) spec.clusterIPs = existing.value.spec.clusterIPs;
  const r = await deps.writer.replace({ ...existing.value, spec });
  const event = (type: 'Normal' | 'Warning', reason: string, note: string) => deps.writer.recordEvent(rayJob as KubernetesObject, { type, reason, action: 'Update', note });
  if (r.ok) {
    await event('Normal', 'UpdatedService', eventNotes.updatedService(ns, name));
    return { kind: 'ok', memory };
  }
  await event('Warning', 'FailedToUpdateService', eventNotes.failedToUpdateService(ns, name, r.message));
  return r.code === 409 ? { kind: 'conflict', memory, what: 'Service' } : apiError(memory, 'update Service', r);
}

async function suspendWorkers(rayJob: RayJob, clusterName: string, memory: OperatorMemory, deps: ExecuteDeps): Promise<Applied> {
  const ns = rayJob.metadata.namespace ?? 'default';
  const got = await deps.writer.read<RayCluster & KubernetesObject>({ apiVersion: 'ray.io/v1', kind: 'RayCluster', namespace: ns, name: clusterName });
  if (!got.ok) return got.code === 404 ? { kind: 'ok', memory } : apiError(memory, 'read RayCluster', got);
  const cluster = got.value;
  const groups = (cluster.spec?.workerGroupSpecs ?? []).map((g) => ({ ...g, suspend: true }));
  const r = await deps.writer.replace({ ...cluster, spec: { ...cluster.spec, workerGroupSpecs: groups } } as KubernetesObject);
  const event = (type: 'Normal' | 'Warning', reason: string, note: string) => deps.writer.recordEvent(rayJob as KubernetesObject, { type, reason, action: 'Update', note });
  if (r.ok) {
    await event('Normal', 'UpdatedRayCluster', eventNotes.suspendedWorkers(ns, clusterName));
    return { kind: 'ok', memory };
  }
  await event('Warning', 'FailedToUpdateRayCluster', eventNotes.failedToSuspendWorkers(ns, clusterName, r.message));
  return r.code === 409 ? { kind: 'conflict', memory, what: 'RayCluster' } : apiError(memory, 'suspend worker groups', r);
}

/** HTTPMode: POST the job. "Already exists" is success (a previous pass submitted it). A failure is remembered for core. */
async function submit(action: Extract<Action, { type: 'submitRayJob' }>, rayJob: RayJob, memory: OperatorMemory, deps: ExecuteDeps): Promise<Applied> {
  const jobId = action.request.submission_id;
  const failed = (message: string): Applied => {
    deps.log('Failed to submit the Ray job', { jobId, error: message });
    return { kind: 'ok', memory: { ...memory, submitFailure: { jobId, at: deps.now().toISOString(), message } } };
  };
  if (!deps.cluster) return failed('the RayCluster is not in the cache');
  const access = await deps.dashboards.clientFor(deps.cluster, action.dashboardURL);
  if (!access.ok) return failed(access.message);
  const r = await access.client.submit(action.request);
  if (r.kind === 'ok' || r.kind === 'already-exists') {
    const { submitFailure: _cleared, ...rest } = memory;
    // Ray accepted the job (its info is in the head's GCS before the answer), so from now on it counts as seen:
    // were the head lost before the next look, "not found" is the head-lost verdict, never a second submission
    // to the replacement head (addition H). The CR's jobStatus comes only with that next look.
    const seen = memory.rayJobSeen?.jobId === jobId ? memory.rayJobSeen : { jobId, status: 'PENDING' as const };
    return { kind: 'ok', memory: { ...rest, rayJobSeen: seen }, ...(action.jobStatusOnAccept && { status: { jobStatus: action.jobStatusOnAccept } }) };
  }
  return failed(`${r.kind}: ${r.message}`);
}

/** Addition C: best effort; an acknowledged stop is remembered so core stops asking. */
async function stop(action: Extract<Action, { type: 'stopRayJob' }>, rayJob: RayJob, memory: OperatorMemory, deps: ExecuteDeps): Promise<Applied> {
  if (!deps.cluster) return { kind: 'ok', memory };
  const access = await deps.dashboards.clientFor(deps.cluster, action.dashboardURL);
  if (!access.ok) {
    deps.log('Cannot stop the Ray job', { jobId: action.jobId, error: access.message });
    return { kind: 'ok', memory };
  }
  const r = await access.client.stopJob(action.jobId);
  if (r.kind === 'ok' && r.value.stopped) {
    const ns = rayJob.metadata.namespace ?? 'default';
    await deps.writer.recordEvent(rayJob as KubernetesObject, {
      type: 'Normal', reason: 'StoppedRayJob', action: 'Stop', note: eventNotes.stoppedRayJob(ns, rayJob.metadata.name ?? '', action.jobId, action.why),
    });
    return { kind: 'ok', memory: { ...memory, stopAcknowledged: { jobId: action.jobId } } };
  }
  deps.log('StopJob did not stop the Ray job (retried later)', { jobId: action.jobId, answer: r.kind });
  return { kind: 'ok', memory };
}
