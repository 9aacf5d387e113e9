// The Job controller loop on kube-runtime: informers on Jobs and pods, a controller keyed by Job, and an
// executor that applies `decideJob` through the API (status subresource, pod create/delete, finalizer patch).
import { createExpectations, describeError, objectKey, resources, type KubeClient, type Logger, type ReconcileResult } from '@rayjob/kube-runtime';
import type { Job, Pod } from '../kube-objects/types.ts';
import { componentLogger, componentManager, runComponent } from '../node-runtime/component.ts';
import type { JobControllerTiming } from './decide.ts';
import { decideJob, defaultJobTiming, trackingFinalizer } from './decide.ts';
import { buildJobPod } from './pod-template.ts';
import { ttlVerdict } from './ttl-after-finished.ts';

export interface JobControllerOptions {
  client: KubeClient;
  timing?: Partial<JobControllerTiming>;
  now?: () => number;
  random?: () => number;
  onError?: (message: string) => void;
  logger?: Logger;
}

export interface JobController {
  readonly synced: Promise<void>;
  stop(): Promise<void>;
}

function controllerJobUid(pod: Pod): string | undefined {
  return pod.metadata.ownerReferences?.find((ref) => ref.controller === true && ref.kind === 'Job')?.uid;
}

const hasTrackingFinalizer = (pod: Pod): boolean => pod.metadata.finalizers?.includes(trackingFinalizer) ?? false;

// structure-exception(function-lines startJobController): being split by #21 sandbox/shape work
export function startJobController(options: JobControllerOptions): JobController {
  const { client } = options;
  const timing: JobControllerTiming = { ...defaultJobTiming, ...options.timing };
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const report = options.onError ?? ((message: string) => console.error(`[job-controller] ${message}`));
  const manager = componentManager(client, options.logger ?? componentLogger('job-controller'));
  const jobKeyByUid = new Map<string, string>();
  const vanished = new Map<string, Map<string, Pod>>();
  const lastFailureAt = new Map<string, number>();
  /**
   * Pods created but not yet seen in the pod cache, per Job uid (kube-controller-manager's expectations): the
   * pod informer's events observe them, so a reconcile before the cache catches up does not create them again.
   * On the wall clock: an expectation is about the cache's lag, not the decisions' (injected) time.
   */
  const expectations = createExpectations();
  /** Pods last seen holding the tracking finalizer: a pod deleted from that state still counts as finished. */
  const tracked = new Set<string>();

  const events = manager.eventRecorder('job-controller', 'core');
  const jobs = manager.informer<Job>(resources.jobs);
  const pods = manager.informer<Pod>(resources.pods);
  expectations.watch('Pod', pods);
  const controller = manager.addController({ name: 'job', reconcile: ({ namespace, name }) => reconcile(namespace ?? '', name) });
  // Orphans (pods whose Job is gone) let go of their finalizer through a queue: a 409 is retried, never thrown away.
  const orphans = manager.addController({ name: 'job-orphan-pods', reconcile: ({ namespace, name }) => releaseOrphan(namespace ?? '', name) });

  jobs.addHandlers({
    add: (job) => void jobKeyByUid.set(job.metadata.uid ?? '', objectKey(job)),
    update: (_old, job) => void jobKeyByUid.set(job.metadata.uid ?? '', objectKey(job)),
    delete: (job) => {
      const uid = job.metadata.uid ?? '';
      jobKeyByUid.delete(uid);
      vanished.delete(uid);
      expectations.forget(uid);
      lastFailureAt.delete(uid);
    },
  });
  controller.watch(jobs);

  const podChanged = (pod: Pod): void => {
    const podUid = pod.metadata.uid ?? '';
    if (hasTrackingFinalizer(pod)) tracked.add(podUid);
    else tracked.delete(podUid);
    const uid = controllerJobUid(pod);
    if (uid === undefined) return;
    const key = jobKeyByUid.get(uid);
    if (key !== undefined) controller.enqueue(key);
    else if (hasTrackingFinalizer(pod)) void jobs.waitForSync().then(() => orphans.enqueue(objectKey(pod)));
  };
  pods.addHandlers({
    add: podChanged,
    update: (_old, pod) => podChanged(pod),
    delete: (pod) => {
      const podUid = pod.metadata.uid ?? '';
      const held = tracked.delete(podUid) || hasTrackingFinalizer(pod);
      const uid = controllerJobUid(pod);
      if (uid === undefined) return;
      if (held) {
        const byPod = vanished.get(uid) ?? new Map<string, Pod>();
        byPod.set(podUid, pod);
        vanished.set(uid, byPod);
      }
      const key = jobKeyByUid.get(uid);
      if (key !== undefined) controller.enqueue(key);
    },
  });

  /** false: try again (409, or an error already reported). */
  async function removeFinalizer(pod: Pod): Promise<boolean> {
    const remaining = (pod.metadata.finalizers ?? []).filter((f) => f !== trackingFinalizer);
    const result = await client.patch(resources.pods, { namespace: pod.metadata.namespace, name: pod.metadata.name },
      { metadata: { finalizers: remaining, resourceVersion: pod.metadata.resourceVersion } });
    if (result.ok || result.error.status === 404) return true;
    if (result.error.status !== 409) report(`remove finalizer of ${pod.metadata.name}: ${describeError(result.error)}`);
    return false;
  }

  async function releaseOrphan(namespace: string, name: string): Promise<ReconcileResult> {
    const pod = pods.cache.getByName(namespace, name);
    const uid = pod === undefined ? undefined : controllerJobUid(pod);
    if (pod === undefined || uid === undefined || jobKeyByUid.has(uid) || !hasTrackingFinalizer(pod)) return;
    return (await removeFinalizer(pod)) ? undefined : { requeue: true };
  }

  async function reconcile(namespace: string, name: string): Promise<ReconcileResult> {
    const key = `${namespace}/${name}`;
    const job = jobs.cache.getByName(namespace, name);
    if (job === undefined) return;
    const uid = job.metadata.uid ?? '';
    const owned = pods.cache.byOwner(uid).filter((pod) => controllerJobUid(pod) === uid);
    const decision = decideJob({
      job,
      pods: owned,
      vanished: [...(vanished.get(uid)?.values() ?? [])],
      now: now(),
      lastFailureAt: lastFailureAt.get(uid),
      timing,
      expectedCreations: expectations.pending(uid).length,
    });
    if (decision.failureAt !== undefined) lastFailureAt.set(uid, Math.max(lastFailureAt.get(uid) ?? 0, decision.failureAt));

    const jobRef = { ...job, apiVersion: 'batch/v1', kind: 'Job' };
    const newlyTrue = (type: string) => decision.status.conditions?.find((c) => c.type === type && c.status === 'True'
      && !(job.status?.conditions ?? []).some((p) => p.type === type && p.status === 'True'));
    if (JSON.stringify(decision.status) !== JSON.stringify(job.status ?? {})) {
      const written = await client.replaceStatus<Job>(resources.jobs, { ...job, status: decision.status });
      if (!written.ok) {
        if (written.error.status === 404) return;
        // 409: our cached Job is stale; the watch brings the new version, then we decide again.
        if (written.error.status === 409) return { requeueAfterMs: 50 };
        throw new Error(`status write: ${describeError(written.error)}`);
      }
    }
    const completed = newlyTrue('Complete');
    if (completed !== undefined) events.event(jobRef, 'Normal', 'Completed', '', 'Job completed');
    const failedNow = newlyTrue('Failed');
    if (failedNow !== undefined) events.event(jobRef, 'Warning', failedNow.reason ?? 'Failed', '', failedNow.message ?? '');
    for (const podUid of decision.forgetVanished) vanished.get(uid)?.delete(podUid);
    for (const podName of decision.removeFinalizers) {
      const pod = owned.find((p) => p.metadata.name === podName);
      if (pod !== undefined && !(await removeFinalizer(pod))) return { requeue: true };
    }
    for (const podName of decision.deletePods) {
      const result = await client.delete(resources.pods, { namespace, name: podName });
      if (result.ok) events.event(jobRef, 'Normal', 'SuccessfulDelete', '', `Deleted pod: ${podName}`);
      else if (result.error.status !== 404) report(`delete pod ${podName}: ${describeError(result.error)}`);
    }
    let createFailed = false;
    for (let i = 0; i < decision.createPods; i += 1) {
      const pod = buildJobPod(job, random);
      const created = await client.create<Pod>(resources.pods, pod, { namespace });
      if (created.ok) {
        events.event(jobRef, 'Normal', 'SuccessfulCreate', '', `Created pod: ${pod.metadata.name ?? ''}`);
        expectations.expectCreate(uid, { kind: 'Pod', namespace, name: pod.metadata.name ?? '' });
      } else if (created.error.status !== 409) {
        // kube-controller-manager's pod control: a Warning FailedCreate event with the API server's refusal
        // (quota, PodSecurity, admission policy), and the Job is retried with backoff; no condition changes.
        events.event(jobRef, 'Warning', 'FailedCreate', '', `Error creating: ${created.error.message}`);
        report(`create pod for ${key}: ${describeError(created.error)}`);
        createFailed = true;
        break;
      }
    }
    if (createFailed) return { requeue: true };
    const waits: number[] = [];
    if (decision.requeueAfterMs !== undefined) waits.push(decision.requeueAfterMs + 5);
    const ttl = ttlVerdict({ ...job, status: decision.status }, now());
    if (ttl.action === 'wait') waits.push(ttl.ms + 5);
    if (ttl.action === 'delete') {
      const removed = await client.delete(resources.jobs, { namespace, name }, { propagationPolicy: 'Foreground', preconditions: { uid } });
      if (!removed.ok && removed.error.status !== 404 && removed.error.status !== 409) report(`ttl delete ${key}: ${describeError(removed.error)}`);
    }
    return waits.length === 0 ? undefined : { requeueAfterMs: Math.min(...waits) };
  }

  return runComponent(manager, [jobs, pods]);
}
