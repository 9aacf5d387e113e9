// The Job controller loop on kube-runtime: informers on Jobs and pods, a controller keyed by Job, and an
// executor that applies `decideJob` through the API (status subresource, pod create/delete, finalizer patch):
// sync-job.ts. This file wires the informers' events to the work queues.
import { createExpectations, objectKey, resources, type KubeClient, type Logger } from '@rayjob/kube-runtime';
import type { Job, Pod } from '../kube-objects/types.ts';
import { componentLogger, componentManager, runComponent } from '../node-runtime/component.ts';
import type { JobControllerTiming } from './decide.ts';
import { defaultJobTiming } from './decide.ts';
import { controllerJobUid, hasTrackingFinalizer, type JobControllerState } from './job-state.ts';
import { releaseOrphan, syncJob } from './sync-job.ts';

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

interface Queue { enqueue(key: string): void }

export function startJobController(options: JobControllerOptions): JobController {
  const { client } = options;
  const manager = componentManager(client, options.logger ?? componentLogger('job-controller'));
  const state: JobControllerState = {
    client,
    timing: { ...defaultJobTiming, ...options.timing },
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    report: options.onError ?? ((message: string) => console.error(`[job-controller] ${message}`)),
    events: manager.eventRecorder('job-controller', { api: 'core' }),
    jobs: manager.informer<Job>(resources.jobs),
    pods: manager.informer<Pod>(resources.pods),
    jobKeyByUid: new Map(),
    vanished: new Map(),
    lastFailureAt: new Map(),
    // On the wall clock: an expectation is about the cache's lag, not the decisions' (injected) time.
    expectations: createExpectations(),
    tracked: new Set(),
  };
  state.expectations.watch('Pod', state.pods);
  const controller = manager.addController({ name: 'job', reconcile: ({ namespace, name }) => syncJob(state, namespace ?? '', name) });
  // Orphans (pods whose Job is gone) let go of their finalizer through a queue: a 409 is retried, never thrown away.
  const orphans = manager.addController({ name: 'job-orphan-pods', reconcile: ({ namespace, name }) => releaseOrphan(state, namespace ?? '', name) });
  watchJobs(state);
  controller.watch(state.jobs);
  watchPods(state, controller, orphans);
  return runComponent(manager, [state.jobs, state.pods]);
}

function watchJobs(state: JobControllerState): void {
  state.jobs.addHandlers({
    add: (job) => void state.jobKeyByUid.set(job.metadata.uid ?? '', objectKey(job)),
    update: (_old, job) => void state.jobKeyByUid.set(job.metadata.uid ?? '', objectKey(job)),
    delete: (job) => {
      const uid = job.metadata.uid ?? '';
      state.jobKeyByUid.delete(uid);
      state.vanished.delete(uid);
      state.expectations.forget(uid);
      state.lastFailureAt.delete(uid);
    },
  });
}

function watchPods(state: JobControllerState, controller: Queue, orphans: Queue): void {
  const { tracked, jobKeyByUid, vanished } = state;
  const podChanged = (pod: Pod): void => {
    const podUid = pod.metadata.uid ?? '';
    if (hasTrackingFinalizer(pod)) tracked.add(podUid);
    else tracked.delete(podUid);
    const uid = controllerJobUid(pod);
    if (uid === undefined) return;
    const key = jobKeyByUid.get(uid);
    if (key !== undefined) controller.enqueue(key);
    else if (hasTrackingFinalizer(pod)) void state.jobs.waitForSync().then(() => orphans.enqueue(objectKey(pod)));
  };
  state.pods.addHandlers({
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
}
