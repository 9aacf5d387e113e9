import { isConditionTrue, RAY_CLUSTER_CONDITION_TYPES, type RayCluster } from '@rayjob/core';

/**
 * KubeRay's RayCluster metrics (`--enable-metrics`, on under Helm): the provisioning duration, recorded at the
 * status write that first makes RayClusterProvisioned True and dropped when the cluster is gone, and two
 * gauges computed from the cache at scrape time. Rendered in the Prometheus text format.
 */

export interface RayClusterMetrics {
  /** Called with the status before and after a successful write. */
  observeStatusWrite(cluster: RayCluster, before: RayCluster['status'], after: RayCluster['status'], now: Date): void;
  forget(namespace: string, name: string): void;
  render(clusters: readonly RayCluster[]): string;
}

const escape = (value: string) => value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
const labels = (pairs: Record<string, string>) => `{${Object.entries(pairs).map(([k, v]) => `${k}="${escape(v)}"`).join(',')}}`;

export function createRayClusterMetrics(): RayClusterMetrics {
  const provisioned = new Map<string, { labels: Record<string, string>; seconds: number }>();
  return {
    observeStatusWrite(cluster, before, after, now) {
      const type = RAY_CLUSTER_CONDITION_TYPES.provisioned;
      if (isConditionTrue(before?.conditions, type) || !isConditionTrue(after?.conditions, type)) return;
      const created = Date.parse(cluster.metadata.creationTimestamp ?? '');
      if (Number.isNaN(created)) return;
      const m = cluster.metadata;
      provisioned.set(`${m.namespace}/${m.name}`, {
        labels: { name: m.name ?? '', namespace: m.namespace ?? '', uid: m.uid ?? '' },
        seconds: (now.getTime() - created) / 1000,
      });
    },
    forget(namespace, name) {
      provisioned.delete(`${namespace}/${name}`);
    },
    render(clusters) {
      const lines = [
        '# HELP kuberay_cluster_provisioned_duration_seconds Seconds from a RayCluster\'s creation to the status write that first made RayClusterProvisioned True',
        '# TYPE kuberay_cluster_provisioned_duration_seconds gauge',
        ...[...provisioned.values()].map((p) => `kuberay_cluster_provisioned_duration_seconds${labels(p.labels)} ${p.seconds}`),
        '# HELP kuberay_cluster_info One series per RayCluster, carrying its owner kind (value 1)',
        '# TYPE kuberay_cluster_info gauge',
      ];
      const conditionLines: string[] = [];
      for (const c of clusters) {
        const base = { name: c.metadata.name ?? '', namespace: c.metadata.namespace ?? '', uid: c.metadata.uid ?? '' };
        lines.push(`kuberay_cluster_info${labels({ ...base, owner_kind: c.metadata.labels?.['ray.io/originated-from-crd'] ?? 'None' })} 1`);
        const isProvisioned = isConditionTrue(c.status?.conditions, RAY_CLUSTER_CONDITION_TYPES.provisioned);
        conditionLines.push(`kuberay_cluster_condition_provisioned${labels({ ...base, condition: String(isProvisioned) })} 1`);
      }
      lines.push(
        '# HELP kuberay_cluster_condition_provisioned Whether the RayCluster\'s RayClusterProvisioned condition is True (label condition; value 1)',
        '# TYPE kuberay_cluster_condition_provisioned gauge',
        ...conditionLines,
      );
      return `${lines.join('\n')}\n`;
    },
  };
}
