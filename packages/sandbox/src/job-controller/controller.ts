// The Job controller loop: informers on Jobs and pods, a work queue keyed by Job, and an executor
// that applies `decideJob` through the API (status subresource, pod create/delete, finalizer patch).
import { createEventRecorder } from '../kube-client/events.ts';
import { startInformer } from '../kube-client/informer.ts';
import type { KubeClient } from '../kube-client/rest-client.ts';
import { resources } from '../kube-client/rest-client.ts';
import type { Job, Pod } from '../kube-client/types.ts';
import { startWorkQueue } from '../kube-client/work-queue.ts';
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
}

export interface JobController {
  readonly synced: Promise<void>;
  stop(): Promise<void>;
}

function controllerJobUid(pod: Pod): string | undefined {
  return pod.metadata.ownerReferences?.find((ref) => ref.controller === true && ref.kind === 'Job')?.uid;
}

export function startJobController(options: JobControllerOptions): JobController {
  const { client } = options;
  const timing: JobControllerTiming = { ...defaultJobTiming, ...options.timing };
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const report = options.onError ?? ((message: string) => console.error(`[job-controller] ${message}`));
  const jobKeyByUid = new Map<string, string>();
  const vanished = new Map<string, Map<string, Pod>>();
  const lastFailureAt = new Map<string, number>();
  /** Names of pods created but not yet seen in the pod cache, per Job uid. */
  const expectedPods = new Map<string, Set<string>>();

  const events = createEventRecorder(client, 'job-controller');
  const queue = startWorkQueue(reconcile, (key, error) => report(`sync ${key}: ${(error as Error).message}`));

  const jobs = startInformer<Job>(client, resources.jobs, ({ type, object }) => {
    const key = `${object.metadata.namespace}/${object.metadata.name}`;
    if (type === 'delete') {
      jobKeyByUid.delete(object.metadata.uid ?? '');
      vanished.delete(object.metadata.uid ?? '');
      expectedPods.delete(object.metadata.uid ?? '');
      lastFailureAt.delete(object.metadata.uid ?? '');
    } else {
      jobKeyByUid.set(object.metadata.uid ?? '', key);
    }
    queue.add(key);
  });
  const pods = startInformer<Pod>(client, resources.pods, ({ type, object, previous }) => {
    const uid = controllerJobUid(object);
    if (uid === undefined) return;
    const last = previous ?? object;
    if (type === 'delete' && (last.metadata.finalizers?.includes(trackingFinalizer) ?? false)) {
      const byPod = vanished.get(uid) ?? new Map<string, Pod>();
      byPod.set(object.metadata.uid ?? '', object);
      vanished.set(uid, byPod);
    }
    const key = jobKeyByUid.get(uid);
    if (key !== undefined) queue.add(key);
    else if (type === 'upsert' && (object.metadata.finalizers?.includes(trackingFinalizer) ?? false)) {
      // Orphan: its Job is gone. Let the pod go, as Kubernetes does (through a queue: a 409 is retried, never thrown away).
      void jobs.synced.then(() => orphans.add(`${object.metadata.namespace}/${object.metadata.name}`));
    }
  });

  const orphans = startWorkQueue(async (key) => {
    const [namespace, name] = key.split('/') as [string, string];
    const pod = pods.get(namespace, name);
    const uid = pod === undefined ? undefined : controllerJobUid(pod);
    if (pod === undefined || uid === undefined || jobKeyByUid.has(uid) || !(pod.metadata.finalizers?.includes(trackingFinalizer) ?? false)) return;
    await removeFinalizer(pod);
  }, () => {});

  async function removeFinalizer(pod: Pod): Promise<void> {
    const remaining = (pod.metadata.finalizers ?? []).filter((f) => f !== trackingFinalizer);
    const result = await client.patch(resources.pods, { namespace: pod.metadata.namespace, name: pod.metadata.name },
      { metadata: { finalizers: remaining, resourceVersion: pod.metadata.resourceVersion } });
    if (!result.ok && result.status !== 404) {
      if (result.status !== 409) report(`remove finalizer of ${pod.metadata.name}: ${result.message}`);
      throw new Error(`finalizer removal of ${pod.metadata.name} failed (${result.status}); retrying`);
    }
  }

  async function reconcile(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const job = jobs.get(namespace, name);
    if (job === undefined) return;
    const uid = job.metadata.uid ?? '';
    const owned = pods.list().filter((pod) => controllerJobUid(pod) === uid);
    const expected = expectedPods.get(uid) ?? new Set<string>();
    for (const pod of owned) expected.delete(pod.metadata.name ?? '');
    for (const gone of vanished.get(uid)?.values() ?? []) expected.delete(gone.metadata.name ?? '');
    const decision = decideJob({
      job,
      pods: owned,
      vanished: [...(vanished.get(uid)?.values() ?? [])],
      now: now(),
      lastFailureAt: lastFailureAt.get(uid),
      timing,
      expectedCreations: expected.size,
    });
    if (decision.failureAt !== undefined) lastFailureAt.set(uid, Math.max(lastFailureAt.get(uid) ?? 0, decision.failureAt));

    const jobRef = { ...job, apiVersion: 'batch/v1', kind: 'Job' };
    const newlyTrue = (type: string) => decision.status.conditions?.find((c) => c.type === type && c.status === 'True'
      && !(job.status?.conditions ?? []).some((p) => p.type === type && p.status === 'True'));
    if (JSON.stringify(decision.status) !== JSON.stringify(job.status ?? {})) {
      const written = await client.replace<Job>(resources.jobs, { namespace, name, subresource: 'status' }, { ...job, status: decision.status });
      if (!written.ok) {
        if (written.status === 404) return;
        // 409: our cached Job is stale; the watch brings the new version, then we decide again.
        if (written.status === 409) { queue.addAfter(key, 50); return; }
        throw new Error(`status write: ${written.status} ${written.message}`);
      }
    }
    const completed = newlyTrue('Complete');
    if (completed !== undefined) events.record(jobRef, 'Normal', 'Completed', 'Job completed');
    const failedNow = newlyTrue('Failed');
    if (failedNow !== undefined) events.record(jobRef, 'Warning', failedNow.reason ?? 'Failed', failedNow.message ?? '');
    for (const podUid of decision.forgetVanished) vanished.get(uid)?.delete(podUid);
    for (const podName of decision.removeFinalizers) {
      const pod = owned.find((p) => p.metadata.name === podName);
      if (pod !== undefined) await removeFinalizer(pod);
    }
    for (const podName of decision.deletePods) {
      const result = await client.remove(resources.pods, { namespace, name: podName });
      if (result.ok) events.record(jobRef, 'Normal', 'SuccessfulDelete', `Deleted pod: ${podName}`);
      else if (result.status !== 404) report(`delete pod ${podName}: ${result.message}`);
    }
    for (let i = 0; i < decision.createPods; i += 1) {
      const pod = buildJobPod(job, random);
      const created = await client.create<Pod>(resources.pods, { namespace }, pod);
      if (created.ok) {
        events.record(jobRef, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name ?? ''}`);
        expected.add(pod.metadata.name ?? '');
        expectedPods.set(uid, expected);
      } else if (created.status !== 409) {
        report(`create pod for ${key}: ${created.message}`);
      }
    }
    if (decision.requeueAfterMs !== undefined) queue.addAfter(key, decision.requeueAfterMs + 5);
    const ttl = ttlVerdict({ ...job, status: decision.status }, now());
    if (ttl.action === 'wait') queue.addAfter(key, ttl.ms + 5);
    if (ttl.action === 'delete') {
      const removed = await client.remove(resources.jobs, { namespace, name }, { propagationPolicy: 'Foreground', preconditions: { uid } });
      if (!removed.ok && removed.status !== 404 && removed.status !== 409) report(`ttl delete ${key}: ${removed.message}`);
    }
  }

  return {
    synced: Promise.all([jobs.synced, pods.synced]).then(() => undefined),
    async stop() {
      jobs.stop();
      pods.stop();
      await queue.stop();
      await orphans.stop();
    },
  };
}
