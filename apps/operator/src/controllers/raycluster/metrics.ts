import { RAY_CLUSTER_CONDITION_TYPES, isConditionTrue, type RayCluster } from '@rayjob/core';
import type { KubeObject } from '@rayjob/kube-runtime';
import { Gauge, type Registry } from 'prom-client';

/**
 * The conditions of a RayCluster as the cache holds it (its entries that are objects), for core's isConditionTrue.
 * The scrape-time series read only metadata and these: a schema parse of every cluster for each of the two series
 * blocked the event loop ~0.3-0.5 s per scrape at 10,000 clusters (issue #27).
 */
function cachedConditions(cluster: KubeObject): Parameters<typeof isConditionTrue>[0] {
  const conditions = (cluster as { status?: { conditions?: unknown } }).status?.conditions;
  return Array.isArray(conditions) ? conditions.filter((c) => typeof c === 'object' && c !== null) : undefined;
}

/**
 * KubeRay's RayCluster metrics (`--enable-metrics`, on under Helm): kuberay_cluster_provisioned_duration_seconds,
 * set at the status write that first makes RayClusterProvisioned True and dropped when the cluster is gone;
 * kuberay_cluster_info and kuberay_cluster_condition_provisioned, computed from the cache at scrape time.
 */
export interface RayClusterMetrics {
  /** After a successful status write. */
  observeStatusWrite(cluster: RayCluster, before: RayCluster['status'], after: RayCluster['status'], now: Date): void;
  forget(namespace: string, name: string): void;
}

const base = (c: Pick<KubeObject, 'metadata'>) => ({ name: c.metadata.name ?? '', namespace: c.metadata.namespace ?? '', uid: c.metadata.uid ?? '' });

/** `clusters`: the cached RayClusters as the informers hold them (not parsed). */
export function createRayClusterMetrics(registry: Registry, clusters: () => KubeObject[]): RayClusterMetrics {
  const registers = [registry];
  const provisioned = new Gauge({
    name: 'kuberay_cluster_provisioned_duration_seconds',
    help: "Seconds from a RayCluster's creation to the status write that first made RayClusterProvisioned True",
    labelNames: ['name', 'namespace', 'uid'],
    registers,
  });
  const series = new Map<string, Record<string, string>>();
  new Gauge({
    name: 'kuberay_cluster_info',
    help: 'One series per RayCluster, carrying its owner kind (value 1)',
    labelNames: ['name', 'namespace', 'uid', 'owner_kind'],
    registers,
    collect() {
      this.reset();
      for (const c of clusters()) this.set({ ...base(c), owner_kind: c.metadata.labels?.['ray.io/originated-from-crd'] ?? 'None' }, 1);
    },
  });
  new Gauge({
    name: 'kuberay_cluster_condition_provisioned',
    help: "Whether the RayCluster's RayClusterProvisioned condition is True (label condition; value 1)",
    labelNames: ['name', 'namespace', 'uid', 'condition'],
    registers,
    collect() {
      this.reset();
      for (const c of clusters()) this.set({ ...base(c), condition: String(isConditionTrue(cachedConditions(c), RAY_CLUSTER_CONDITION_TYPES.provisioned)) }, 1);
    },
  });
  return {
    observeStatusWrite(cluster, before, after, now) {
      const type = RAY_CLUSTER_CONDITION_TYPES.provisioned;
      if (isConditionTrue(before?.conditions, type) || !isConditionTrue(after?.conditions, type)) return;
      const created = Date.parse(cluster.metadata.creationTimestamp ?? '');
      if (Number.isNaN(created)) return;
      const labels = base(cluster);
      provisioned.set(labels, (now.getTime() - created) / 1000);
      series.set(`${labels.namespace}/${labels.name}`, labels);
    },
    forget(namespace, name) {
      const key = `${namespace}/${name}`;
      const labels = series.get(key);
      if (labels) provisioned.remove(labels);
      series.delete(key);
    },
  };
}
