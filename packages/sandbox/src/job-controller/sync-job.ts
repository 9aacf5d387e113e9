// One reconcile of a Job: decide (decide.ts) from the cached Job and its pods, then apply the decision through
// the API in order: status (and the Completed/Failed events), finalizers of finished pods, pod deletions, pod
// creations (each expected until the pod cache shows it), and the TTL after finished.
import { describeError, resources, type ReconcileResult } from '@rayjob/kube-runtime';
import type { Job, Pod } from '../kube-objects/types.ts';
import { decideJob, type JobDecision } from './decide.ts';
import { controllerJobUid, hasTrackingFinalizer, removeFinalizer, type JobControllerState } from './job-state.ts';
import { buildJobPod } from './pod-template.ts';
import { ttlVerdict } from './ttl-after-finished.ts';

type JobRef = Job & { apiVersion: string; kind: string };

export async function syncJob(state: JobControllerState, namespace: string, name: string): Promise<ReconcileResult> {
  const job = state.jobs.cache.getByName(namespace, name);
  if (job === undefined) return;
  const uid = job.metadata.uid ?? '';
  const owned = state.pods.cache.byOwner(uid).filter((pod) => controllerJobUid(pod) === uid);
  const decision = decideJob({
    job,
    pods: owned,
    vanished: [...(state.vanished.get(uid)?.values() ?? [])],
    now: state.now(),
    lastFailureAt: state.lastFailureAt.get(uid),
    timing: state.timing,
    expectedCreations: state.expectations.pending(uid).length,
  });
  if (decision.failureAt !== undefined) state.lastFailureAt.set(uid, Math.max(state.lastFailureAt.get(uid) ?? 0, decision.failureAt));
  const jobRef: JobRef = { ...job, apiVersion: 'batch/v1', kind: 'Job' };
  const written = await writeStatus(state, job, decision);
  if (written !== 'written') return written === 'gone' ? undefined : written;
  recordConditionEvents(state, job, decision, jobRef);
  for (const podUid of decision.forgetVanished) state.vanished.get(uid)?.delete(podUid);
  for (const podName of decision.removeFinalizers) {
    const pod = owned.find((p) => p.metadata.name === podName);
    if (pod !== undefined && !(await removeFinalizer(state, pod))) return { requeue: true };
  }
  await deletePods(state, namespace, decision.deletePods, jobRef);
  if (!(await createPods(state, job, decision.createPods, jobRef))) return { requeue: true };
  return finishedJobTtl(state, job, decision);
}

/** 'gone' (404: nothing more to do), a retry (409: our cached Job is stale), or 'written' (or nothing to write). */
async function writeStatus(state: JobControllerState, job: Job, decision: JobDecision): Promise<'written' | 'gone' | ReconcileResult> {
  if (JSON.stringify(decision.status) === JSON.stringify(job.status ?? {})) return 'written';
  const written = await state.client.replaceStatus<Job>(resources.jobs, { ...job, status: decision.status });
  if (written.ok) return 'written';
  if (written.error.status === 404) return 'gone';
  // 409: our cached Job is stale; the watch brings the new version, then we decide again.
  if (written.error.status === 409) return { requeueAfterMs: 50 };
  throw new Error(`status write: ${describeError(written.error)}`);
}

function recordConditionEvents(state: JobControllerState, job: Job, decision: JobDecision, jobRef: JobRef): void {
  const newlyTrue = (type: string) => decision.status.conditions?.find((c) => c.type === type && c.status === 'True'
    && !(job.status?.conditions ?? []).some((p) => p.type === type && p.status === 'True'));
  const completed = newlyTrue('Complete');
  if (completed !== undefined) state.events.event(jobRef, 'Normal', 'Completed', '', 'Job completed');
  const failedNow = newlyTrue('Failed');
  if (failedNow !== undefined) state.events.event(jobRef, 'Warning', failedNow.reason ?? 'Failed', '', failedNow.message ?? '');
}

async function deletePods(state: JobControllerState, namespace: string, podNames: string[], jobRef: JobRef): Promise<void> {
  for (const podName of podNames) {
    const result = await state.client.delete(resources.pods, { namespace, name: podName });
    if (result.ok) state.events.event(jobRef, 'Normal', 'SuccessfulDelete', '', `Deleted pod: ${podName}`);
    else if (result.error.status !== 404) state.report(`delete pod ${podName}: ${describeError(result.error)}`);
  }
}

/** false: a create was refused (retried with back-off). */
async function createPods(state: JobControllerState, job: Job, count: number, jobRef: JobRef): Promise<boolean> {
  const namespace = job.metadata.namespace ?? '';
  for (let i = 0; i < count; i += 1) {
    const pod = buildJobPod(job, state.random);
    const created = await state.client.create<Pod>(resources.pods, pod, { namespace });
    if (created.ok) {
      state.events.event(jobRef, 'Normal', 'SuccessfulCreate', '', `Created pod: ${pod.metadata.name ?? ''}`);
      state.expectations.expectCreate(job.metadata.uid ?? '', { kind: 'Pod', namespace, name: pod.metadata.name ?? '' });
    } else if (created.error.status !== 409) {
      // kube-controller-manager's pod control: a Warning FailedCreate event with the API server's refusal
      // (quota, PodSecurity, admission policy), and the Job is retried with backoff; no condition changes.
      state.events.event(jobRef, 'Warning', 'FailedCreate', '', `Error creating: ${created.error.message}`);
      state.report(`create pod for ${namespace}/${job.metadata.name ?? ''}: ${describeError(created.error)}`);
      return false;
    }
  }
  return true;
}

async function finishedJobTtl(state: JobControllerState, job: Job, decision: JobDecision): Promise<ReconcileResult> {
  const { namespace = '', name = '', uid = '' } = job.metadata;
  const waits: number[] = [];
  if (decision.requeueAfterMs !== undefined) waits.push(decision.requeueAfterMs + 5);
  const ttl = ttlVerdict({ ...job, status: decision.status }, state.now());
  if (ttl.action === 'wait') waits.push(ttl.ms + 5);
  if (ttl.action === 'delete') {
    const removed = await state.client.delete(resources.jobs, { namespace, name }, { propagationPolicy: 'Foreground', preconditions: { uid } });
    if (!removed.ok && removed.error.status !== 404 && removed.error.status !== 409) state.report(`ttl delete ${namespace}/${name}: ${describeError(removed.error)}`);
  }
  return waits.length === 0 ? undefined : { requeueAfterMs: Math.min(...waits) };
}

/** Orphans (pods whose Job is gone) let go of their tracking finalizer through a queue: a 409 is retried. */
export async function releaseOrphan(state: JobControllerState, namespace: string, name: string): Promise<ReconcileResult> {
  const pod = state.pods.cache.getByName(namespace, name);
  const uid = pod === undefined ? undefined : controllerJobUid(pod);
  if (pod === undefined || uid === undefined || state.jobKeyByUid.has(uid) || !hasTrackingFinalizer(pod)) return;
  return (await removeFinalizer(state, pod)) ? undefined : { requeue: true };
}
