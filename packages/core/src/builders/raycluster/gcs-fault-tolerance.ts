import type { Container, EnvVar, RayCluster } from '../../schema/index.ts';
import { EXTERNAL_STORAGE_NAMESPACE_ANNOTATION, FT_ENABLED_ANNOTATION } from '../../validation/raycluster-spec.ts';
import type { RayNodeType } from './ray-start.ts';

/**
 * GCS fault tolerance with a Redis backend, as KubeRay wires it (reference §4.1, §4.2, §4.4, §8): the head keeps
 * its GCS tables in Redis under a storage namespace, so a replacement head finds the cluster's state again;
 * workers wait longer for a GCS that is coming back. The embedded RocksDB backend (alpha gate, off) is not built.
 */

export const gcsFaultToleranceKeys = {
  redisCleanupFinalizer: 'ray.io/gcs-ft-redis-cleanup-finalizer',
  /** Seconds after deletion at which a stuck Redis cleanup stops holding the cluster (default 300). */
  deletionTimeoutAnnotation: 'ray.io/gcs-ft-deletion-timeout',
  externalStorageNamespaceAnnotation: EXTERNAL_STORAGE_NAMESPACE_ANNOTATION,
  ftEnabledAnnotation: FT_ENABLED_ANNOTATION,
} as const;

export const gcsFaultToleranceEnv = {
  redisAddress: 'RAY_REDIS_ADDRESS',
  redisPassword: 'REDIS_PASSWORD',
  redisUsername: 'REDIS_USERNAME',
  storageNamespace: 'RAY_external_storage_namespace',
  reconnectTimeout: 'RAY_gcs_rpc_server_reconnect_timeout_s',
} as const;

/**
 * What KubeRay gives workers for RAY_gcs_rpc_server_reconnect_timeout_s: a raylet gives up on a GCS it cannot reach
 * after this long (Ray's own default, 60 s, is shorter than a head replacement usually takes).
 */
export const WORKER_GCS_RECONNECT_TIMEOUT_SECONDS = 600;
export const DEFAULT_GCS_FT_DELETION_TIMEOUT_SECONDS = 300;

export const isGcsFaultToleranceEnabled = (cluster: RayCluster): boolean =>
  cluster.metadata.annotations?.[FT_ENABLED_ANNOTATION]?.toLowerCase() === 'true' || cluster.spec.gcsFaultToleranceOptions !== undefined;

/** FT on and its backend Redis (the default; the legacy annotation form is always Redis). */
export const usesRedisGcsFaultTolerance = (cluster: RayCluster): boolean =>
  isGcsFaultToleranceEnabled(cluster) && (cluster.spec.gcsFaultToleranceOptions?.backend ?? 'redis') === 'redis';

/** The Redis key prefix of this cluster's GCS: options, else the cluster's annotation, else its UID. */
export function externalStorageNamespace(cluster: RayCluster): string {
  const fromOptions = cluster.spec.gcsFaultToleranceOptions?.externalStorageNamespace;
  if (fromOptions) return fromOptions;
  const annotations = cluster.metadata.annotations ?? {};
  if (Object.hasOwn(annotations, EXTERNAL_STORAGE_NAMESPACE_ANNOTATION)) return annotations[EXTERNAL_STORAGE_NAMESPACE_ANNOTATION] ?? '';
  return cluster.metadata.uid ?? '';
}

/** `ray.io/gcs-ft-deletion-timeout` when a positive integer, else 300 s. */
export function gcsFtDeletionTimeoutSeconds(cluster: RayCluster): number {
  const text = cluster.metadata.annotations?.[gcsFaultToleranceKeys.deletionTimeoutAnnotation];
  const seconds = text !== undefined && /^[+-]?\d+$/.test(text.trim()) ? Number(text.trim()) : Number.NaN;
  return Number.isSafeInteger(seconds) && seconds > 0 ? seconds : DEFAULT_GCS_FT_DELETION_TIMEOUT_SECONDS;
}

export interface GcsFaultToleranceWiring {
  container: Container;
  /** Annotations to add to the Pod. */
  annotations: Record<string, string>;
  /** rayStartParams that point `ray start` at the credentials' env vars (head only). */
  rayStartParams: Record<string, string>;
}

const hasEnv = (env: readonly EnvVar[], name: string) => env.some((e) => e.name === name);

/**
 * The env, annotations and rayStartParams FT adds to a group's Ray container (KubeRay's configureGCSFaultTolerance).
 * Env is appended after the user's, before the rest of KubeRay's env. Credentials stay references: `ray start`
 * reads `$REDIS_PASSWORD`, never the secret's text.
 */
export function gcsFaultToleranceWiring(container: Container, cluster: RayCluster, nodeType: RayNodeType): GcsFaultToleranceWiring {
  const env = [...(container.env ?? [])];
  const wiring = { annotations: {} as Record<string, string>, rayStartParams: {} as Record<string, string> };
  if (nodeType === 'head') wiring.annotations[FT_ENABLED_ANNOTATION] = String(isGcsFaultToleranceEnabled(cluster));
  if (!isGcsFaultToleranceEnabled(cluster)) return { container, ...wiring };
  if (nodeType === 'worker') {
    if (!hasEnv(env, gcsFaultToleranceEnv.reconnectTimeout)) env.push({ name: gcsFaultToleranceEnv.reconnectTimeout, value: String(WORKER_GCS_RECONNECT_TIMEOUT_SECONDS) });
    return { container: { ...container, env }, ...wiring };
  }
  if (!usesRedisGcsFaultTolerance(cluster)) return { container, ...wiring };
  const namespace = externalStorageNamespace(cluster);
  wiring.annotations[EXTERNAL_STORAGE_NAMESPACE_ANNOTATION] = namespace;
  if (!hasEnv(env, gcsFaultToleranceEnv.storageNamespace)) env.push({ name: gcsFaultToleranceEnv.storageNamespace, value: namespace });
  const options = cluster.spec.gcsFaultToleranceOptions;
  if (options !== undefined) {
    env.push({ name: gcsFaultToleranceEnv.redisAddress, value: options.redisAddress ?? '' });
    if (options.redisUsername !== undefined) {
      wiring.rayStartParams['redis-username'] = `$${gcsFaultToleranceEnv.redisUsername}`;
      env.push(credentialEnv(gcsFaultToleranceEnv.redisUsername, options.redisUsername));
    }
    if (options.redisPassword !== undefined) {
      wiring.rayStartParams['redis-password'] = `$${gcsFaultToleranceEnv.redisPassword}`;
      env.push(credentialEnv(gcsFaultToleranceEnv.redisPassword, options.redisPassword));
    }
  } else {
    // Legacy form: a password written in rayStartParams is copied to REDIS_PASSWORD so the cleanup Job can log in.
    const password = cluster.spec.headGroupSpec.rayStartParams?.['redis-password'];
    if (password !== undefined && !hasEnv(env, gcsFaultToleranceEnv.redisPassword)) env.push({ name: gcsFaultToleranceEnv.redisPassword, value: password });
  }
  return { container: { ...container, env }, ...wiring };
}

function credentialEnv(name: string, credential: { value?: string | undefined; valueFrom?: unknown }): EnvVar {
  const env: EnvVar = { name };
  if (credential.value !== undefined) env.value = credential.value;
  if (credential.valueFrom !== undefined) (env as { valueFrom?: unknown }).valueFrom = credential.valueFrom;
  return env;
}
