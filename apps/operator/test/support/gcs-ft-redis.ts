// KubeRay's external-Redis sample's Redis as our own manifests (a Deployment of the `redis` image, its config from a
// ConfigMap, a password from a Secret; the sandbox runs Debian's redis-server for it), and the FT cluster spec the
// real-Ray GCS FT tests share: head only, sized for a 2-core machine, its GCS kept in that Redis.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { api, eventually, type Json } from './api.ts';
import { RAY_IMAGE } from './raycluster-env.ts';

const run = promisify(execFile);
const ns = '/api/v1/namespaces/default';

export const REDIS_PASSWORD = 'ft-test-password';

const redisObjects: Array<[string, Json]> = [
  [`${ns}/secrets`, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'redis-password-secret' }, stringData: { password: REDIS_PASSWORD } }],
  [`${ns}/configmaps`, {
    apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'redis-config', labels: { app: 'redis' } },
    data: { 'redis.conf': `dir /data\nport 6379\nbind 0.0.0.0\nappendonly yes\nprotected-mode no\nrequirepass ${REDIS_PASSWORD}\npidfile /data/redis-6379.pid` },
  }],
  [`${ns}/services`, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'redis', labels: { app: 'redis' } }, spec: { type: 'ClusterIP', ports: [{ name: 'redis', port: 6379 }], selector: { app: 'redis' } } }],
  ['/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'redis', labels: { app: 'redis' } },
    spec: {
      replicas: 1, selector: { matchLabels: { app: 'redis' } },
      template: {
        metadata: { labels: { app: 'redis' } },
        spec: {
          containers: [{
            name: 'redis', image: 'redis:7.4.0', command: ['sh', '-c', 'redis-server /usr/local/etc/redis/redis.conf'], ports: [{ containerPort: 6379 }],
            volumeMounts: [{ name: 'config', mountPath: '/usr/local/etc/redis/redis.conf', subPath: 'redis.conf' }],
          }],
          volumes: [{ name: 'config', configMap: { name: 'redis-config' } }],
        },
      },
    },
  }],
];

/** Creates the sample's Redis in `default` and waits for its Pod. */
export async function createRedis(url: string): Promise<void> {
  for (const [path, body] of redisObjects) {
    const res = await api(url, 'POST', path, body);
    if (res.status !== 201) throw new Error(`create ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  await redisPodIP(url);
}

export async function redisPodIP(url: string): Promise<string> {
  return eventually('the Redis Pod running', async () => {
    const pods: Json[] = (await api(url, 'GET', `${ns}/pods?labelSelector=app%3Dredis`)).body?.items ?? [];
    const pod = pods.find((p) => p.status?.phase === 'Running' && p.status?.podIP);
    return pod?.status.podIP as string | undefined;
  }, 60_000, 250);
}

/** `redis-cli` (from `redisBin`) against the sandbox's Redis: the keys holding `namespace`. */
export async function redisKeysOf(url: string, redisBin: string, namespace: string): Promise<string[]> {
  const { stdout } = await run(`${redisBin}/redis-cli`, ['-h', await redisPodIP(url), '-a', REDIS_PASSWORD, '--no-auth-warning', '--scan', '--pattern', `*${namespace}*`]);
  return stdout.split('\n').filter((k) => k !== '');
}

/** Trims a real node for 2 cores (as raycluster-real-ray.test.ts): no log monitor, pinned agent ports, one CPU. */
const lean = { 'include-log-monitor': 'false', 'runtime-env-agent-port': '52366', 'dashboard-agent-grpc-port': '52367', 'num-cpus': '1' };

/** A head-only FT RayCluster spec (the external-Redis sample's options) sized for a 2-core machine. */
export function ftClusterSpec(redisAddress: string): Json {
  return {
    rayVersion: '2.58.0',
    gcsFaultToleranceOptions: { redisAddress, redisPassword: { valueFrom: { secretKeyRef: { name: 'redis-password-secret', key: 'password' } } } },
    headGroupSpec: {
      rayStartParams: { ...lean, 'no-monitor': 'true' },
      template: {
        spec: {
          terminationGracePeriodSeconds: 5,
          containers: [{
            name: 'ray-head', image: RAY_IMAGE, env: [{ name: 'RAY_USAGE_STATS_ENABLED', value: '0' }],
            ports: [{ name: 'gcs-server', containerPort: 6379 }, { name: 'dashboard', containerPort: 8265 }, { name: 'client', containerPort: 10001 }],
            resources: { limits: { cpu: '1', memory: '2Gi' } },
          }],
        },
      },
    },
    workerGroupSpecs: [],
  };
}

/** The custom resource only `ftDriverWorkers` offer: a job asking for it (entrypointResources) runs off the head. */
export const DRIVER_RESOURCE = 'driver';

/**
 * One worker, as lean as the head, offering `DRIVER_RESOURCE` so a job's supervisor and driver can run on it, and
 * carrying the cluster's GCS reconnect timeout (how long its raylet waits for a replaced head).
 */
export function ftDriverWorkers(reconnectTimeoutSeconds: number): Json {
  return {
    groupName: 'drivers', replicas: 1, minReplicas: 1, maxReplicas: 1,
    rayStartParams: { ...lean, resources: `"{\\"${DRIVER_RESOURCE}\\": 1}"` },
    template: {
      spec: {
        terminationGracePeriodSeconds: 5,
        containers: [{
          name: 'ray-worker', image: RAY_IMAGE, resources: { limits: { cpu: '1', memory: '1Gi' } },
          env: [{ name: 'RAY_USAGE_STATS_ENABLED', value: '0' }, { name: 'RAY_gcs_rpc_server_reconnect_timeout_s', value: String(reconnectTimeoutSeconds) }],
        }],
      },
    },
  };
}

/** A head-only FT RayCluster. */
export function ftCluster(name: string, redisAddress: string, annotations: Record<string, string> = {}): Json {
  return { apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata: { name, namespace: 'default', annotations }, spec: ftClusterSpec(redisAddress) };
}
