import { isManagedBy, validateRayJob, type K8sJob, type Pod, type RayCluster, type RayJob, type Service } from '@rayjob/core';
import { createExpectations, objectKey, ownerKeys, resources, type Informer, type KubeObject } from '@rayjob/kube-runtime';
import { createWarnedOnce, ignoredFeatures, ignoredFeaturesNote, UNSUPPORTED_FEATURE_REASON } from '../ignored-features.ts';
import type { ControllerContext, ControllerRegistration, StartedController } from '../types.ts';
import { createDashboardClients } from './dashboards.ts';
import { createJobFollowers, type JobFollowers } from './job-followers.ts';
import { createKubeWriter } from './kube-writer.ts';
import { createRayJobMetrics } from './metrics.ts';
import { createNodeTables } from './node-tables.ts';
import type { ObjectView } from './object-view.ts';
import { CREATE_EXPECTATION_TTL_MS, createRayJobReconciler, type RayJobReconciler } from './reconcile.ts';

/** KubeRay's event recorder name for RayJobs. */
export const RAYJOB_CONTROLLER_NAME = 'rayjob-controller';
/** The operator's caches only see objects KubeRay labels as its own (Jobs, and pods: heads and submitters). */
export const CREATED_BY_SELECTOR = 'app.kubernetes.io/created-by=kuberay-operator';
/** RayJobs by the RayCluster they use (owned or selected): a cluster's or head pod's change reaches them. */
const CLUSTER_INDEX = 'rayClusterName';

/** Seconds between dashboard polls of a steadily RUNNING job whose log tail is followed. */
export const DEFAULT_RUNNING_POLL_SECONDS = 60;

export interface RayJobControllerOptions {
  /** Seconds between dashboard polls of a Running job whose changes arrive by events (KubeRay polls every 3 s). */
  runningPollSeconds?: number;
  /**
   * Log bytes a job's tails may deliver before its end is found otherwise (default DEFAULT_TAIL_BYTES_PER_JOB);
   * Infinity follows the whole log, replays included (the log-volume bench's anchor: the operator before the bound).
   */
  tailBytesPerJob?: number;
}

export interface RayJobControllerHandle extends StartedController {
  readonly reconciler: RayJobReconciler;
  readonly followers: JobFollowers;
  /** Dashboard node-table requests sent so far (one per cluster per wave, whatever the number of jobs). */
  nodeTableRequests(): number;
}

export interface RayJobControllerRegistration extends ControllerRegistration {
  setup(ctx: ControllerContext): RayJobControllerHandle;
}

export function rayJobController(options: RayJobControllerOptions = {}): RayJobControllerRegistration {
  return { name: 'rayjob', setup: (ctx) => setup(ctx, options) };
}

function setup(ctx: ControllerContext, options: RayJobControllerOptions): RayJobControllerHandle {
  const { informers, config } = ctx;
  const rayJobs = informers.get<RayJob & KubeObject>(resources.rayJobs, undefined, {
    [CLUSTER_INDEX]: (j) => (j.status?.rayClusterName ? [`${j.metadata.namespace}/${j.status.rayClusterName}`] : []),
  });
  const clusters = informers.get<RayCluster & KubeObject>(resources.rayClusters);
  const jobs = informers.get<K8sJob & KubeObject>(resources.jobs, CREATED_BY_SELECTOR);
  const pods = informers.get<Pod & KubeObject>(resources.pods, CREATED_BY_SELECTOR);
  const services = informers.get<Service & KubeObject>(resources.services);

  const view = objectView(ctx);
  const writer = createKubeWriter(ctx.client, RAYJOB_CONTROLLER_NAME, ctx.identity);

  const nodeTables = createNodeTables();
  const log = ctx.logger.child({ controller: 'rayjob' });

  // One Warning per valid RayJob of ours that uses features this operator ignores (leader only: inside reconcile).
  const warned = createWarnedOnce();
  const features = { batchScheduler: config.batchScheduler, kubernetesWAS: config.featureGates.KubernetesWAS };
  const warnIgnoredFeatures = (rayJob: (RayJob & KubeObject) | undefined) => {
    if (!rayJob || !isManagedBy(rayJob.spec?.managedBy, config.managedBy)) return;
    const found = ignoredFeatures(rayJob.spec?.rayClusterSpec, rayJob.metadata, features);
    if (found.length === 0 || !validateRayJob(rayJob, { featureGates: config.settings.featureGates }).ok) return;
    if (!warned.first(rayJob.metadata.uid ?? objectKey(rayJob), found)) return;
    void writer.recordEvent(rayJob, { type: 'Warning', reason: UNSUPPORTED_FEATURE_REASON, action: 'Validate', note: ignoredFeaturesNote('RayJob', found) });
  };

  const controller = ctx.manager.addController({
    name: 'rayjob',
    concurrency: config.reconcileConcurrency,
    reconcile: async (request, rctx) => {
      warnIgnoredFeatures(view.rayJob(request.namespace ?? 'default', request.name));
      const result = await reconciler.reconcile(request.namespace ?? 'default', request.name);
      if (rctx.signal.aborted) return;
      switch (result.kind) {
        case 'done':
          return result.requeueAfterSeconds === undefined ? undefined : result.requeueAfterSeconds <= 0 ? { requeue: true } : { requeueAfterMs: result.requeueAfterSeconds * 1000 };
        case 'conflict':
          return { requeue: true };
        case 'error':
          throw new Error(result.message);
      }
    },
  });
  const jobMetrics = config.enableMetrics ? createRayJobMetrics(ctx.manager.metrics.registry, () => rayJobs.flatMap((i) => i.cache.list())) : undefined;
  const dashboards = createDashboardClients(ctx.dashboardRoute, (ns, name, key) => writer.readSecretKey(ns, name, key), undefined, jobMetrics?.observeDashboardRequest);
  const followers = createJobFollowers(dashboards, (key) => controller.enqueue(key), (msg, fields) => log.info(fields, msg), {
    ...(options.tailBytesPerJob !== undefined && { maxBytesPerJob: options.tailBytesPerJob }),
  });
  // The creates a RayJob's pass sent, observed from the informers, so a lagging cache does not create twice.
  const expectations = createExpectations({ createTtlMs: CREATE_EXPECTATION_TTL_MS });
  for (const i of clusters) expectations.watch('RayCluster', i);
  for (const i of jobs) expectations.watch('Job', i);
  for (const i of services) expectations.watch('Service', i);
  const reconciler = createRayJobReconciler({
    view,
    expectations,
    writer,
    dashboards,
    nodeTables,
    followers,
    settings: config.settings,
    runningPollSeconds: options.runningPollSeconds ?? DEFAULT_RUNNING_POLL_SECONDS,
    log: { info: (f, m) => log.info(f, m), error: (f, m) => log.error(f, m) },
    ...(jobMetrics && { onStatusWritten: jobMetrics.observeTransition, onGone: jobMetrics.forget }),
  });

  // RayJobs using a cluster, owned or selected: a cluster's, its head Service's or head pod's change reaches them.
  const usersOf = (namespace: string | undefined, clusterName: string | undefined): string[] =>
    clusterName ? rayJobs.flatMap((i) => i.cache.byIndex(CLUSTER_INDEX, `${namespace}/${clusterName}`)).map((j) => objectKey(j)) : [];
  for (const i of rayJobs) {
    controller.watch(i);
    i.addHandlers({ delete: (j) => j.metadata.uid && warned.forget(j.metadata.uid) });
  }
  for (const i of clusters) controller.watch(i, (c) => [...ownerKeys('RayJob', 'ray.io')(c), ...usersOf(c.metadata.namespace, c.metadata.name)]);
  for (const i of jobs) controller.watch(i, ownerKeys('RayJob', 'ray.io'));
  for (const i of services) controller.watch(i, (s) => [...ownerKeys('RayJob', 'ray.io')(s), ...usersOf(s.metadata.namespace, s.metadata.labels?.['ray.io/cluster'])]);
  for (const i of pods as Array<Informer<Pod & KubeObject>>) {
    controller.watch(i, (p) => {
      // A submitter pod belongs to the Job named after its RayJob; a head pod to its cluster's RayJobs.
      const jobOwner = (p.metadata.ownerReferences ?? []).find((r) => r.kind === 'Job' && r.controller);
      const keys = jobOwner ? [objectKey({ metadata: { namespace: p.metadata.namespace, name: jobOwner.name } })] : [];
      return [...keys, ...usersOf(p.metadata.namespace, p.metadata.labels?.['ray.io/cluster'])];
    });
  }

  return {
    reconciler,
    followers,
    nodeTableRequests: () => nodeTables.requests,
    async close() {
      await followers.stopAll();
      await dashboards.close();
      await writer.flush();
    },
  };
}

/** Cache reads for the reconciler, across the informers of the watched namespaces. */
function objectView(ctx: ControllerContext): ObjectView {
  const { informers } = ctx;
  const get = <T extends KubeObject>(type: Parameters<typeof informers.forNamespace>[0], ns: string, name: string, selector?: string): T | undefined =>
    informers.forNamespace<T>(type, ns, selector)?.cache.getByName(ns, name);
  return {
    rayJob: (ns, name) => get<RayJob & KubeObject>(resources.rayJobs, ns, name),
    rayCluster: (ns, name) => get<RayCluster & KubeObject>(resources.rayClusters, ns, name),
    service: (ns, name) => get<Service & KubeObject>(resources.services, ns, name),
    job: (ns, name) => get<K8sJob & KubeObject>(resources.jobs, ns, name, CREATED_BY_SELECTOR),
    pods: (ns, labels) =>
      (informers.forNamespace<Pod & KubeObject>(resources.pods, ns, CREATED_BY_SELECTOR)?.cache.byLabels({ ...labels }) ?? []).filter((p) => p.metadata.namespace === ns),
  };
}
