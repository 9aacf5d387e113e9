import { isManagedBy, validateRayJob, type K8sJob, type Pod, type RayCluster, type RayJob, type Service } from '@rayjob/core';
import { createExpectations, mapsTo, newControllerManagedBy, objectKey, ownerKeys, resources, type KubeClient, type KubeObject } from '@rayjob/kube-runtime';
import { CREATED_BY_SELECTOR, RAY_POD_SELECTOR, SUBMITTER_POD_SELECTOR } from '../../runtime/cached-fields.ts';
import { createWarnedOnce, ignoredFeatures, ignoredFeaturesNote, UNSUPPORTED_FEATURE_REASON } from '../ignored-features.ts';
import type { ControllerContext, ControllerRegistration, StartedController } from '../types.ts';
import { createDashboardClients } from './dashboards.ts';
import { rayJobEventRecorder, RAYJOB_CONTROLLER_NAME, recordRayJobEvent } from './events.ts';
import { createJobFollowers, type JobFollowers } from './job-followers.ts';
import { createRayJobMetrics } from './metrics.ts';
import { createNodeTables } from './node-tables.ts';
import type { ObjectView } from './observe.ts';
import { CREATE_EXPECTATION_TTL_MS, createRayJobState, reconcileRayJob, type RayJobState } from './reconcile.ts';

export { RAYJOB_CONTROLLER_NAME } from './events.ts';
/** The operator's caches only see objects KubeRay labels as its own (runtime/cached-fields.ts). */
export { CREATED_BY_SELECTOR };
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
  /** What the controller remembers per RayJob (operator memory by UID, pending creates). */
  readonly state: RayJobState;
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

/**
 * KubeRay's RayJob controller, set up like controller-runtime's SetupWithManager: for RayJobs; owns RayClusters,
 * submitter Jobs and Services; a RayCluster, its head Service and head pod also reach the RayJobs that use the
 * cluster (selected, not owned), and a submitter pod its Job's RayJob.
 */
function setup(ctx: ControllerContext, options: RayJobControllerOptions): RayJobControllerHandle {
  const { informers, config } = ctx;
  const rayJobs = informers.get<RayJob & KubeObject>(resources.rayJobs, undefined, {
    [CLUSTER_INDEX]: (j) => (j.status?.rayClusterName ? [`${j.metadata.namespace}/${j.status.rayClusterName}`] : []),
  });
  const clusters = informers.get<RayCluster & KubeObject>(resources.rayClusters);
  const jobs = informers.get<K8sJob & KubeObject>(resources.jobs, CREATED_BY_SELECTOR);
  // Head pods from the Ray pods' cache (shared with the RayCluster controller), submitter pods from their own.
  const pods = [...informers.get<Pod & KubeObject>(resources.pods, RAY_POD_SELECTOR), ...informers.get<Pod & KubeObject>(resources.pods, SUBMITTER_POD_SELECTOR)];
  const services = informers.get<Service & KubeObject>(resources.services);

  const events = rayJobEventRecorder(ctx.manager, ctx.identity);
  const log = ctx.logger.child({ controller: 'rayjob' });
  const nodeTables = createNodeTables();
  const jobMetrics = config.enableMetrics ? createRayJobMetrics(ctx.manager.metrics.registry, () => rayJobs.flatMap((i) => i.cache.list())) : undefined;
  const dashboards = createDashboardClients(ctx.dashboardRoute, (ns, name, key) => readSecretKey(ctx.client, ns, name, key), undefined, jobMetrics?.observeDashboardRequest);
  // The creates a RayJob's pass sent, observed from the informers, so a lagging cache does not create twice.
  const expectations = createExpectations({ createTtlMs: CREATE_EXPECTATION_TTL_MS });
  for (const i of clusters) expectations.watch('RayCluster', i);
  for (const i of jobs) expectations.watch('Job', i);
  for (const i of services) expectations.watch('Service', i);
  const state = createRayJobState(undefined, expectations);
  // The RayJobs' own writes are read until the RayJob informers show them.
  for (const i of rayJobs) state.ownWrites.watch(i);
  const warnIgnoredFeatures = ignoredFeaturesWarning(ctx, (rayJob, note) => recordRayJobEvent(events, rayJob, { type: 'Warning', reason: UNSUPPORTED_FEATURE_REASON, action: 'Validate', note }));
  const view = objectView(ctx);
  // A followed job's end (its log tail closed) enqueues it; the controller exists once the watches are wired below.
  const followers = createJobFollowers(dashboards, (key) => controller.enqueue(key), (msg, fields) => log.info(fields, msg), {
    ...(options.tailBytesPerJob !== undefined && { maxBytesPerJob: options.tailBytesPerJob }),
  });
  const deps = {
    view, client: ctx.client, events, dashboards, nodeTables, state, settings: config.settings,
    // Core decides whether the status changed (its own equality): every status it hands over is written.
    status: ctx.manager.statusWriter(resources.rayJobs, { fieldManager: RAYJOB_CONTROLLER_NAME, changed: () => true }),
    followers,
    runningPollSeconds: options.runningPollSeconds ?? DEFAULT_RUNNING_POLL_SECONDS,
    onStatusWritten: jobMetrics?.observeTransition,
    onGone: jobMetrics?.forget,
  };

  // RayJobs using a cluster, owned or selected: a cluster's, its head Service's or head pod's change reaches them.
  const usersOf = (namespace: string | undefined, clusterName: string | undefined): string[] =>
    clusterName ? rayJobs.flatMap((i) => i.cache.byIndex(CLUSTER_INDEX, `${namespace}/${clusterName}`)).map((j) => objectKey(j)) : [];
  // A submitter pod belongs to the Job named after its RayJob.
  const submitterOwner = (p: Pod & KubeObject): string[] =>
    (p.metadata.ownerReferences ?? []).filter((r) => r.kind === 'Job' && r.controller).slice(0, 1).map((r) => objectKey({ metadata: { namespace: p.metadata.namespace, name: r.name } }));
  const controller = newControllerManagedBy(ctx.manager, {
    name: 'rayjob',
    forKind: 'RayJob',
    forGroup: 'ray.io',
    concurrency: config.reconcileConcurrency,
    reconcile: async (request, rctx) => {
      warnIgnoredFeatures(view.rayJob(request.namespace ?? 'default', request.name));
      const result = await reconcileRayJob(request.namespace ?? 'default', request.name, deps, rctx.log);
      return rctx.signal.aborted ? undefined : result;
    },
  })
    .for(rayJobs)
    .owns(jobs)
    .watches(clusters, mapsTo(ownerKeys('RayJob', 'ray.io'), (c) => usersOf(c.metadata.namespace, c.metadata.name)))
    .watches(services, mapsTo(ownerKeys('RayJob', 'ray.io'), (s) => usersOf(s.metadata.namespace, s.metadata.labels?.['ray.io/cluster'])))
    .watches(pods, mapsTo(submitterOwner, (p) => usersOf(p.metadata.namespace, p.metadata.labels?.['ray.io/cluster'])))
    .complete();

  return {
    state,
    followers,
    nodeTableRequests: () => nodeTables.requests,
    async close() {
      await followers.stopAll();
      await dashboards.close();
      await events.flush();
    },
  };
}

/** One Warning per valid RayJob of ours that uses features this operator ignores (leader only: inside reconcile). */
function ignoredFeaturesWarning(ctx: ControllerContext, warn: (rayJob: RayJob & KubeObject, note: string) => void) {
  const { config } = ctx;
  const warned = createWarnedOnce();
  const features = { batchScheduler: config.batchScheduler, kubernetesWAS: config.featureGates.KubernetesWAS };
  for (const i of ctx.informers.get<RayJob & KubeObject>(resources.rayJobs)) i.addHandlers({ delete: (j) => j.metadata.uid && warned.forget(j.metadata.uid) });
  return (rayJob: (RayJob & KubeObject) | undefined) => {
    if (!rayJob || !isManagedBy(rayJob.spec?.managedBy, config.managedBy)) return;
    const found = ignoredFeatures(rayJob.spec?.rayClusterSpec, rayJob.metadata, features);
    if (found.length === 0 || !validateRayJob(rayJob, { featureGates: config.settings.featureGates }).ok) return;
    if (!warned.first(rayJob.metadata.uid ?? objectKey(rayJob), found)) return;
    warn(rayJob, ignoredFeaturesNote('RayJob', found));
  };
}

/** One key of a Secret (a dashboard's auth token), or undefined when the Secret or key is missing. */
async function readSecretKey(client: KubeClient, namespace: string, name: string, key: string): Promise<string | undefined> {
  const r = await client.get<KubeObject & { data?: Record<string, string> }>(resources.secrets, { namespace, name });
  if (!r.ok) return undefined;
  const encoded = r.value.data?.[key];
  return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
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
      (informers.forNamespace<Pod & KubeObject>(resources.pods, ns, labels['ray.io/node-type'] !== undefined ? RAY_POD_SELECTOR : SUBMITTER_POD_SELECTOR)?.cache.byLabels({ ...labels }) ?? []).filter((p) => p.metadata.namespace === ns),
  };
}
