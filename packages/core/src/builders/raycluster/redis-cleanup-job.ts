import type { Container, K8sJob, RayCluster } from '../../schema/index.ts';
import { labelKeys } from '../labels.ts';
import { gcsFaultToleranceEnv } from './gcs-fault-tolerance.ts';
import { buildHeadPod, identifierLabel, rayClusterOwnerReference } from './ray-pod.ts';
import { rayContainerCommand } from './ray-start.ts';
import type { RayClusterSettings } from './settings.ts';

/**
 * `<cluster>-redis-cleanup` (reference §8): the head Pod's Ray container, run once as a Job after the head is
 * gone, deletes the cluster's storage namespace from Redis with Ray's own cleanup function. Best effort: no
 * retry, 300 s at most; Ray retries the connection for 60 s (120 x 500 ms).
 */

export const REDIS_CLEANUP_NODE_TYPE = 'redis-cleanup';
const CLEANUP_DEADLINE_SECONDS = 300;

/** KubeRay's TrimJobName: the last 63 characters, a leading punctuation mark replaced (as the identifier label). */
export const redisCleanupJobName = (cluster: RayCluster): string => identifierLabel(cluster.metadata.name ?? '', 'redis-cleanup');

/** The Python that Ray's image runs: the first address of RAY_REDIS_ADDRESS, credentials from env or the URL. */
export function redisCleanupScript(withUsername: boolean): string {
  const username = withUsername ? ", username=os.getenv('REDIS_USERNAME', u.username)" : '';
  return [
    'echo "Deleting this RayCluster\'s GCS storage namespace from Redis. If this fails, delete the keys prefixed with $RAY_external_storage_namespace by hand and remove the finalizer ray.io/gcs-ft-redis-cleanup-finalizer." && ',
    'python -c "',
    'import os, sys; ',
    'from urllib.parse import urlparse; ',
    'from ray._private.gcs_utils import cleanup_redis_storage; ',
    "a = os.getenv('RAY_REDIS_ADDRESS', '').split(',')[0]; ",
    "u = urlparse(a if '://' in a else 'redis://' + a); ",
    'ok = cleanup_redis_storage(host=u.hostname, port=u.port, ',
    "password=os.getenv('REDIS_PASSWORD', u.password or ''), use_ssl=u.scheme == 'rediss', ",
    `storage_namespace=os.getenv('RAY_external_storage_namespace')${username}); `,
    'sys.exit(0 if ok else 1)"',
  ].join('');
}

export function buildRedisCleanupJob(cluster: RayCluster, settings: RayClusterSettings, specHash: string): K8sJob {
  const pod = buildHeadPod(cluster, settings, { specHash });
  const labels = { ...(pod.metadata.labels ?? {}), [labelKeys.nodeType]: REDIS_CLEANUP_NODE_TYPE };
  const annotations = pod.metadata.annotations ?? {};
  const source = pod.spec?.containers?.[0] as Container;
  const env = [
    ...(source.env ?? []),
    { name: 'RAY_redis_db_connect_retries', value: '120' },
    { name: 'RAY_redis_db_connect_wait_milliseconds', value: '500' },
  ];
  const ray: Container = {
    ...source,
    command: rayContainerCommand(settings.enableLoginShell),
    args: [redisCleanupScript(env.some((e) => e.name === gcsFaultToleranceEnv.redisUsername))],
    env,
    resources: { limits: { cpu: '200m', memory: '256Mi' }, requests: { cpu: '200m', memory: '256Mi' } },
  };
  delete (ray as Record<string, unknown>).livenessProbe;
  delete (ray as Record<string, unknown>).readinessProbe;
  const spec = { ...(pod.spec ?? {}), containers: [ray], restartPolicy: 'Never' };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: redisCleanupJobName(cluster),
      namespace: cluster.metadata.namespace,
      labels,
      annotations,
      ownerReferences: [rayClusterOwnerReference(cluster)],
    },
    spec: {
      backoffLimit: 0,
      activeDeadlineSeconds: CLEANUP_DEADLINE_SECONDS,
      template: { metadata: { labels, annotations }, spec },
    },
  } as K8sJob;
}
