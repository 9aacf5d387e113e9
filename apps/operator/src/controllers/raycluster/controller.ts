import { randomBytes } from 'node:crypto';
import { rayClusterStatusChanged, type RayCluster } from '@rayjob/core';
import { annotationsChanged, anyOf, createExpectations, createOwnWrites, deletionStarted, generationChanged, labelsChanged, newControllerManagedBy, resources, type KubeObject } from '@rayjob/kube-runtime';
import { Registry } from 'prom-client';
import { createWarnedOnce, ignoredFeatures, ignoredFeaturesNote, UNSUPPORTED_FEATURE_REASON } from '../ignored-features.ts';
import type { ControllerContext, ControllerRegistration, StartedController } from '../types.ts';
import { rayClusterEventRecorder, recordRayClusterEvent } from './events.ts';
import { createRayClusterMetrics, type RayClusterMetrics } from './metrics.ts';
import { objectView, RAY_POD_SELECTOR } from './observe.ts';
import { reconcileRayCluster, type ReconcileDeps } from './reconcile.ts';

export { RAYCLUSTER_CONTROLLER_NAME } from './events.ts';
export { RAY_POD_SELECTOR } from './observe.ts';

export interface RayClusterControllerHandle extends StartedController {
  metrics: RayClusterMetrics;
  /** The registry holding the kuberay_cluster_* series (the operator's with --enable-metrics, else a private one). */
  registry: Registry;
}

const idle: StartedController = { close: async () => {} };

/**
 * KubeRay's RayCluster controller as the operator runs it; idle (no informers, no workers) with
 * `--enable-raycluster-controller=false`, when KubeRay's RayCluster controller owns the Pods.
 */
export function rayClusterController(): ControllerRegistration {
  return { name: 'raycluster', setup: (ctx) => (ctx.config.enableRayClusterController ? setup(ctx) : idle) };
}

/**
 * Set up like controller-runtime's SetupWithManager: for RayClusters, re-triggered only when their generation,
 * labels or annotations change or a deletion starts (status writes, ours among them, do not); owns Ray Pods and
 * Services. All configuration comes from `ctx.config` (KubeRay's environment variables are read by config/).
 */
function setup(ctx: ControllerContext): RayClusterControllerHandle {
  const { informers, config } = ctx;
  const now = () => new Date();
  const clusters = informers.get<KubeObject>(resources.rayClusters);
  const pods = informers.get<KubeObject>(resources.pods, RAY_POD_SELECTOR);
  const services = informers.get<KubeObject>(resources.services);
  const registry = config.enableMetrics ? ctx.manager.metrics.registry : new Registry();
  const metrics = createRayClusterMetrics(registry, () => clusters.flatMap((i) => i.cache.list()));
  const settings = config.rayCluster.settings;
  // KubeRay's scale expectations: a created Pod holds its group until the Pod informer shows it (or the timeout
  // passed); a deleted one until the informer drops it.
  const expectations = createExpectations({ clock: { now: () => now().getTime() }, createTtlMs: settings.expectationsTimeoutSeconds * 1000, deleteTtlMs: Infinity });
  for (const informer of pods) expectations.watch('Pod', informer);
  // The clusters' own writes (status, finalizer), read until the cluster informers show them.
  const ownWrites = createOwnWrites<KubeObject>();
  for (const informer of clusters) ownWrites.watch(informer);
  const events = rayClusterEventRecorder(ctx.manager);
  const warned = createWarnedOnce();
  for (const informer of clusters) informer.addHandlers({ delete: (o) => o.metadata.uid && warned.forget(o.metadata.uid) });
  const features = { batchScheduler: config.batchScheduler, kubernetesWAS: config.featureGates.KubernetesWAS };
  const deps: ReconcileDeps = {
    view: objectView(informers),
    client: ctx.client,
    status: ctx.manager.statusWriter(resources.rayClusters, { changed: (before, after) => rayClusterStatusChanged(before as RayCluster['status'], after as NonNullable<RayCluster['status']>) }),
    events,
    settings,
    validation: { featureGates: config.settings.featureGates },
    managedBy: config.managedBy,
    metrics,
    expectations,
    now,
    randomBytes: (size: number) => new Uint8Array(randomBytes(size)),
    idleRequeueMs: config.rayCluster.idleRequeueSeconds * 1000,
    ownWrites,
    warnIgnoredFeatures: (cluster: RayCluster) => {
      const found = ignoredFeatures(cluster.spec, cluster.metadata, features);
      const uid = cluster.metadata.uid ?? `${cluster.metadata.namespace}/${cluster.metadata.name}`;
      if (found.length === 0 || !warned.first(uid, found)) return;
      recordRayClusterEvent(events, cluster, { type: 'Warning', reason: UNSUPPORTED_FEATURE_REASON, action: 'Validate', note: ignoredFeaturesNote('RayCluster', found) });
    },
  };
  newControllerManagedBy(ctx.manager, {
    name: 'raycluster',
    forKind: 'RayCluster',
    forGroup: 'ray.io',
    concurrency: config.reconcileConcurrency,
    reconcile: async (request, rctx) => (rctx.signal.aborted ? undefined : reconcileRayCluster(request.namespace ?? '', request.name, deps, rctx.log)),
  })
    // A deletion held by our finalizer: kube-apiserver bumps the generation then; not every server does.
    .for(clusters, anyOf(generationChanged, labelsChanged, annotationsChanged, deletionStarted))
    .owns(pods)
    .owns(services)
    .complete();
  return {
    metrics,
    registry,
    // Events still queued are written before the operator exits (a SIGTERM drain keeps the last ones).
    close: () => events.flush(),
  };
}
