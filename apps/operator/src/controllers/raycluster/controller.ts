import { randomBytes } from 'node:crypto';
import {
  defaultRayClusterSettings,
  labelKeys,
  RayClusterSchema,
  type Pod,
  type RayCluster,
  type RayClusterSettings,
  type Service,
  type ValidationSettings,
} from '@rayjob/core';
import { createExpectations, ownerKeys, resources, silentLogger, type KubeClient, type KubeObject, type Logger, type Manager } from '@rayjob/kube-runtime';
import { Registry } from 'prom-client';
import type { SharedInformers } from '../../runtime/shared-informers.ts';
import { createWarnedOnce, ignoredFeatures, ignoredFeaturesNote, UNSUPPORTED_FEATURE_REASON, type FeatureContext } from '../ignored-features.ts';
import { createEventRecorder } from './events.ts';
import { createRayClusterMetrics, type RayClusterMetrics } from './metrics.ts';
import { reconcileRayCluster, type ClusterCaches } from './reconcile.ts';

/**
 * KubeRay's RayCluster controller on @rayjob/kube-runtime's manager: the manager's shared informers on
 * RayClusters, Ray Pods and Services, one work queue keyed by cluster. A RayCluster event re-triggers only when its generation, labels or
 * annotations change (status writes do not); owned Pods and Services map to their cluster.
 */

export interface RayClusterControllerOptions {
  client: KubeClient;
  /** Runs the controller's workers (while leading) and owns the informers `informers` hands out. */
  manager: Pick<Manager, 'addController' | 'metrics'>;
  informers: SharedInformers;
  settings?: RayClusterSettings;
  validation?: ValidationSettings;
  managedBy?: string;
  concurrency?: number;
  logger?: Logger;
  /** RAYCLUSTER_DEFAULT_REQUEUE_SECONDS_ENV; unset or invalid -> 300. */
  idleRequeueSeconds?: string | undefined;
  now?: () => Date;
  /** kuberay_cluster_* go to the manager's registry (served on --metrics-addr). */
  enableMetrics?: boolean;
  /** Operator settings that make KubeRay act on every cluster (a batch scheduler): warned about per cluster. */
  features?: FeatureContext;
}

export interface RayClusterControllerHandle {
  metrics: RayClusterMetrics;
  /** The registry holding the kuberay_cluster_* series (the operator's with --enable-metrics, else a private one). */
  registry: Registry;
  /** Writes the events still queued. */
  close(): Promise<void>;
}

/** Every Ray Pod (KubeRay caches head, worker and redis-cleanup Pods); node-type is a label users cannot override. */
export const RAY_POD_SELECTOR = 'ray.io/node-type';

export function parseIdleRequeueSeconds(value: string | undefined): number {
  const n = value !== undefined && /^\d+$/.test(value.trim()) ? Number(value.trim()) : NaN;
  return Number.isFinite(n) && n > 0 ? n : 300;
}

export function setupRayClusterController(options: RayClusterControllerOptions): RayClusterControllerHandle {
  const { client, informers } = options;
  const log = options.logger ?? silentLogger;
  const now = options.now ?? (() => new Date());
  const clusters = informers.get<KubeObject>(resources.rayClusters);
  const pods = informers.get<KubeObject>(resources.pods, RAY_POD_SELECTOR);
  const services = informers.get<KubeObject>(resources.services);
  const inNamespace = <T>(items: KubeObject[], ns: string) => items.filter((o) => o.metadata.namespace === ns) as unknown as T[];
  const caches: ClusterCaches = {
    cluster: (ns, name) => informers.forNamespace<KubeObject>(resources.rayClusters, ns)?.cache.getByName(ns, name),
    pods: (ns, clusterName) =>
      inNamespace<Pod>(informers.forNamespace<KubeObject>(resources.pods, ns, RAY_POD_SELECTOR)?.cache.byLabels({ [labelKeys.cluster]: clusterName }) ?? [], ns),
    servicesByLabels: (ns, labels) => inNamespace<Service>(informers.forNamespace<KubeObject>(resources.services, ns)?.cache.byLabels(labels) ?? [], ns),
    service: (ns, name) => informers.forNamespace<KubeObject>(resources.services, ns)?.cache.getByName(ns, name) as Service | undefined,
  };
  const registry = options.enableMetrics ? options.manager.metrics.registry : new Registry();
  const parsedClusters = () =>
    clusters.flatMap((i) => i.cache.list()).flatMap((o) => {
      const parsed = RayClusterSchema.safeParse(o);
      return parsed.success ? [parsed.data as RayCluster] : [];
    });
  const metrics = createRayClusterMetrics(registry, parsedClusters);
  const settings = options.settings ?? defaultRayClusterSettings;
  // KubeRay's scale expectations: a created Pod holds its group until the Pod informer shows it (or the timeout
  // passed); a deleted one until the informer drops it.
  const expectations = createExpectations({ clock: { now: () => now().getTime() }, createTtlMs: settings.expectationsTimeoutSeconds * 1000, deleteTtlMs: Infinity });
  for (const informer of pods) expectations.watch('Pod', informer);
  const events = createEventRecorder(client, log, now);
  const warned = createWarnedOnce();
  const deps = {
    client,
    caches,
    settings,
    validation: options.validation ?? { featureGates: { rayJobDeletionPolicy: true, sidecarSubmitterRestart: false } },
    managedBy: options.managedBy ?? 'ray.io/kuberay-operator',
    record: events.record,
    metrics,
    expectations,
    now,
    randomBytes: (size: number) => new Uint8Array(randomBytes(size)),
    idleRequeueMs: parseIdleRequeueSeconds(options.idleRequeueSeconds) * 1000,
    warnIgnoredFeatures: (cluster: RayCluster) => {
      const features = ignoredFeatures(cluster.spec, cluster.metadata, options.features ?? { batchScheduler: '', kubernetesWAS: false });
      const uid = cluster.metadata.uid ?? `${cluster.metadata.namespace}/${cluster.metadata.name}`;
      if (features.length === 0 || !warned.first(uid, features)) return;
      const regarding = { namespace: cluster.metadata.namespace ?? '', name: cluster.metadata.name ?? '', uid: cluster.metadata.uid, resourceVersion: cluster.metadata.resourceVersion };
      events.record(regarding, { type: 'Warning', reason: UNSUPPORTED_FEATURE_REASON, action: 'Validate', note: ignoredFeaturesNote('RayCluster', features) });
    },
  };
  const controller = options.manager.addController({
    name: 'raycluster',
    concurrency: options.concurrency ?? 1,
    reconcile: async (request, ctx) => (ctx.signal.aborted ? undefined : reconcileRayCluster(request.namespace ?? '', request.name, deps, ctx.log)),
  });
  const keyOf = (o: KubeObject) => `${o.metadata.namespace}/${o.metadata.name}`;
  const changed = (a: KubeObject, b: KubeObject, field: 'labels' | 'annotations') => JSON.stringify(a.metadata[field] ?? {}) !== JSON.stringify(b.metadata[field] ?? {});
  // Watched like KubeRay: a status write (ours) does not re-trigger; spec, label and annotation changes do.
  for (const informer of clusters) {
    controller.watch(informer, () => []);
    informer.addHandlers({
      add: (o) => controller.enqueue(keyOf(o)),
      update: (old, o) => {
        // A deletion held by our finalizer: kube-apiserver bumps the generation then; not every server does.
        const deletionStarted = !old.metadata.deletionTimestamp && o.metadata.deletionTimestamp !== undefined;
        if (old.metadata.generation !== o.metadata.generation || deletionStarted || changed(old, o, 'labels') || changed(old, o, 'annotations')) controller.enqueue(keyOf(o));
      },
      delete: (o) => {
        if (o.metadata.uid) warned.forget(o.metadata.uid);
        controller.enqueue(keyOf(o));
      },
    });
  }
  const toCluster = ownerKeys('RayCluster', 'ray.io');
  for (const informer of [...pods, ...services]) controller.watch(informer, toCluster);
  return {
    metrics,
    registry,
    // Events still queued are written before the operator exits (a SIGTERM drain keeps the last ones).
    close: () => events.flush(),
  };
}
