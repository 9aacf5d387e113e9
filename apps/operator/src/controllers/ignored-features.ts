import type { RayClusterSpec } from '@rayjob/core';

/**
 * Features KubeRay builds that this operator accepts but does not build (docs/compatibility.md R11-R14, O7). A
 * valid object that uses one gets a single Warning event naming them (reason `UnsupportedFeature`), so nobody
 * believes they run with RocksDB fault tolerance, mTLS, a NetworkPolicy or a gang scheduler they do not have.
 */
export const UNSUPPORTED_FEATURE_REASON = 'UnsupportedFeature';

export interface FeatureContext {
  /** `--batch-scheduler` ('' = none). KubeRay then schedules every RayCluster through it. */
  batchScheduler: string;
  /** The KubernetesWAS gate: KubeRay then schedules every RayCluster through Kubernetes' workload-aware scheduling. */
  kubernetesWAS: boolean;
}

interface ObjectMetaLike {
  labels?: Record<string, string> | undefined;
  annotations?: Record<string, string> | undefined;
}

/** The features of a RayCluster spec (also a RayJob's rayClusterSpec) this operator ignores, each as a short phrase. */
export function ignoredFeatures(spec: RayClusterSpec | undefined, meta: ObjectMetaLike, ctx: FeatureContext): string[] {
  const found: string[] = [];
  if (ctx.batchScheduler !== '') found.push(`batch scheduler ${ctx.batchScheduler} (--batch-scheduler): no PodGroup or scheduler name is set`);
  else if (ctx.kubernetesWAS) found.push('KubernetesWAS feature gate: no Workload is created');
  else if (meta.labels?.['ray.io/scheduler-name']) found.push(`label ray.io/scheduler-name=${meta.labels['ray.io/scheduler-name']}: no batch scheduler is used`);
  if (!spec) return found;
  // Redis-backed GCS fault tolerance is built (R11); the embedded RocksDB backend is not.
  if (spec.gcsFaultToleranceOptions?.backend === 'rocksdb') found.push('gcsFaultToleranceOptions.backend rocksdb: no RocksDB storage or PVC is configured');
  if (spec.headGroupSpec?.enableIngress === true) found.push('headGroupSpec.enableIngress: no Ingress is created');
  if (spec.tlsOptions) found.push('tlsOptions (RayClusterMTLS): no certificates are issued or mounted');
  if (spec.networkPolicy) found.push('networkPolicy (RayClusterNetworkPolicy): no NetworkPolicy is created');
  if (spec.historyServerOptions) found.push('historyServerOptions (RayClusterHistoryServer): no collector sidecar is added');
  return found;
}

export const ignoredFeaturesNote = (kind: string, features: string[]): string =>
  `This operator ignores features this ${kind} uses: ${features.join('; ')}. See docs/compatibility.md.`;

/**
 * Remembers which objects were warned, by uid, so each gets the Warning once (again only if its set of ignored
 * features changes). Bounded: the oldest entries go first past `max`, and a deleted object is forgotten.
 */
export function createWarnedOnce(max = 10_000) {
  const warned = new Map<string, string>();
  return {
    /** True when the object (uid) has not been warned about exactly these features yet; records it. */
    first(uid: string, features: string[]): boolean {
      const fingerprint = features.join('\n');
      if (warned.get(uid) === fingerprint) return false;
      warned.delete(uid);
      warned.set(uid, fingerprint);
      if (warned.size > max) warned.delete(warned.keys().next().value!);
      return true;
    },
    forget(uid: string): void {
      warned.delete(uid);
    },
    get size() {
      return warned.size;
    },
  };
}
