// GCS fault tolerance as KubeRay builds it (reference §4.1, §4.2, §4.4): our own clusters modelled on KubeRay's FT
// samples (ray-cluster.external-redis.yaml, -uri, deprecate-gcs-ft, persistent-redis), checked field by field.
import { describe, expect, it } from 'vitest';
import {
  buildHeadPod,
  buildWorkerPod,
  externalStorageNamespace,
  gcsFtDeletionTimeoutSeconds,
  validateRayClusterSpec,
  type Container,
  type EnvVar,
  type RayCluster,
  type RayClusterInput,
} from '../../src/index.ts';
import { sampleCluster, settings } from './fixtures.ts';

const ray = (pod: { spec?: { containers: Container[] } }) => pod.spec?.containers[0] as Container;
const head = (c: RayCluster) => buildHeadPod(c, settings, { specHash: 'h' });
const worker = (c: RayCluster) => buildWorkerPod(c, c.spec.workerGroupSpecs![0]!, settings, 0);
const env = (c: Container): EnvVar[] => c.env ?? [];
const startCmd = (c: Container) => env(c).find((e) => e.name === 'KUBERAY_GEN_RAY_START_CMD')?.value ?? '';
const passwordRef = { valueFrom: { secretKeyRef: { name: 'redis-password-secret', key: 'password' } } };

/** ray-cluster.external-redis.yaml's shape: options with an address and a password from a Secret; num-cpus 0 on the head. */
const externalRedis = (address = 'redis:6379', more: (c: RayClusterInput) => void = () => {}) =>
  sampleCluster((c) => {
    c.metadata.labels = {};
    c.spec.gcsFaultToleranceOptions = { redisAddress: address, redisPassword: passwordRef };
    c.spec.headGroupSpec.rayStartParams = { 'num-cpus': '0' };
    more(c);
  });

/** ray-cluster.deprecate-gcs-ft.yaml's shape: the annotation, RAY_REDIS_ADDRESS and REDIS_PASSWORD set by the user. */
const legacy = (more: (c: RayClusterInput) => void = () => {}) =>
  sampleCluster((c) => {
    c.metadata.labels = {};
    c.metadata.annotations = { 'ray.io/ft-enabled': 'true' };
    c.spec.headGroupSpec.rayStartParams = { 'num-cpus': '0', 'redis-password': '$REDIS_PASSWORD' };
    c.spec.headGroupSpec.template.spec!.containers![0]!.env = [
      { name: 'RAY_REDIS_ADDRESS', value: 'redis:6379' },
      { name: 'REDIS_PASSWORD', ...passwordRef },
    ];
    more(c);
  });

describe('KubeRay FT samples build what KubeRay builds', () => {
  it('external-redis: head env, in order, before KubeRay\'s own; credentials stay references', () => {
    const pod = head(externalRedis());
    expect(env(ray(pod)).slice(0, 3)).toEqual([
      { name: 'RAY_external_storage_namespace', value: 'uid-1' },
      { name: 'RAY_REDIS_ADDRESS', value: 'redis:6379' },
      { name: 'REDIS_PASSWORD', ...passwordRef },
    ]);
    expect(env(ray(pod))[3]?.name).toBe('RAY_CLUSTER_NAME');
    expect(JSON.stringify(pod)).not.toContain('5241590000000000');
  });
  it('external-redis: `ray start` reads the password from $REDIS_PASSWORD, in key order', () => {
    const pod = head(externalRedis());
    expect(startCmd(ray(pod))).toBe(
      'ray start --head  --block  --dashboard-agent-listen-port=52365  --dashboard-host=0.0.0.0  --memory=5368709120  --metrics-export-port=8080  --num-cpus=0  --redis-password=$REDIS_PASSWORD ',
    );
    expect(ray(pod).args?.[0]).toContain(' --redis-password=$REDIS_PASSWORD ');
  });
  it('external-redis: head annotations ft-enabled and the storage namespace (the cluster UID by default)', () => {
    expect(head(externalRedis()).metadata.annotations).toMatchObject({ 'ray.io/ft-enabled': 'true', 'ray.io/external-storage-namespace': 'uid-1' });
  });
  it('external-redis: workers get the 600 s GCS reconnect timeout first; wait-gcs-ready and the address do not change', () => {
    const pod = worker(externalRedis());
    expect(env(ray(pod))[0]).toEqual({ name: 'RAY_gcs_rpc_server_reconnect_timeout_s', value: '600' });
    expect(env(ray(pod)).filter((e) => /REDIS|external_storage/.test(e.name))).toEqual([]);
    const init = pod.spec?.initContainers?.find((c) => c.name === 'wait-gcs-ready');
    expect(env(init!).map((e) => e.name)).not.toContain('RAY_gcs_rpc_server_reconnect_timeout_s');
    expect(pod.metadata.annotations?.['ray.io/ft-enabled']).toBeUndefined();
    expect(startCmd(ray(pod))).not.toContain('redis');
  });
  it('a worker that sets its own reconnect timeout keeps it', () => {
    const c = externalRedis('redis:6379', (x) => {
      x.spec.workerGroupSpecs![0]!.template.spec!.containers![0]!.env = [{ name: 'RAY_gcs_rpc_server_reconnect_timeout_s', value: '30' }];
    });
    expect(env(ray(worker(c))).filter((e) => e.name === 'RAY_gcs_rpc_server_reconnect_timeout_s')).toEqual([{ name: 'RAY_gcs_rpc_server_reconnect_timeout_s', value: '30' }]);
  });
  it('external-redis-uri: the address is passed through as written', () => {
    expect(env(ray(head(externalRedis('redis://redis:6379'))))[1]).toEqual({ name: 'RAY_REDIS_ADDRESS', value: 'redis://redis:6379' });
  });
  it('a username: REDIS_USERNAME from its source and --redis-username=$REDIS_USERNAME', () => {
    const c = externalRedis('redis:6379', (x) => {
      x.spec.gcsFaultToleranceOptions!.redisUsername = { value: 'ray' };
    });
    const container = ray(head(c));
    expect(env(container).slice(0, 4).map((e) => [e.name, e.value])).toEqual([
      ['RAY_external_storage_namespace', 'uid-1'],
      ['RAY_REDIS_ADDRESS', 'redis:6379'],
      ['REDIS_USERNAME', 'ray'],
      ['REDIS_PASSWORD', undefined],
    ]);
    expect(startCmd(container)).toContain(' --redis-password=$REDIS_PASSWORD  --redis-username=$REDIS_USERNAME ');
  });
  it('externalStorageNamespace in the options names the keys', () => {
    const c = externalRedis('redis:6379', (x) => {
      x.spec.gcsFaultToleranceOptions!.externalStorageNamespace = 'my-ns';
    });
    expect(head(c).metadata.annotations?.['ray.io/external-storage-namespace']).toBe('my-ns');
    expect(env(ray(head(c)))[0]).toEqual({ name: 'RAY_external_storage_namespace', value: 'my-ns' });
  });
  it('deprecate-gcs-ft (the legacy annotation): the user\'s Redis env kept, the namespace added, --redis-password as written', () => {
    const container = ray(head(legacy()));
    expect(env(container).slice(0, 3).map((e) => e.name)).toEqual(['RAY_REDIS_ADDRESS', 'REDIS_PASSWORD', 'RAY_external_storage_namespace']);
    expect(env(container).filter((e) => e.name === 'REDIS_PASSWORD')).toHaveLength(1);
    expect(startCmd(container)).toContain(' --redis-password=$REDIS_PASSWORD ');
    expect(env(ray(worker(legacy())))[0]).toEqual({ name: 'RAY_gcs_rpc_server_reconnect_timeout_s', value: '600' });
  });
  it('legacy annotation: a literal rayStartParams password is copied to REDIS_PASSWORD for the cleanup Job', () => {
    const c = legacy((x) => {
      x.spec.headGroupSpec.rayStartParams!['redis-password'] = 'literal';
      x.spec.headGroupSpec.template.spec!.containers![0]!.env = [{ name: 'RAY_REDIS_ADDRESS', value: 'redis:6379' }];
      x.metadata.annotations!['ray.io/external-storage-namespace'] = 'kept-ns';
    });
    expect(env(ray(head(c))).slice(0, 3)).toEqual([
      { name: 'RAY_REDIS_ADDRESS', value: 'redis:6379' },
      { name: 'RAY_external_storage_namespace', value: 'kept-ns' },
      { name: 'REDIS_PASSWORD', value: 'literal' },
    ]);
  });
  it('ft-enabled "false" or absent: nothing but the head annotation ft-enabled=false', () => {
    for (const annotations of [{ 'ray.io/ft-enabled': 'false' }, {}] as Record<string, string>[]) {
      const c = sampleCluster((x) => {
        x.metadata.annotations = annotations;
      });
      expect(head(c).metadata.annotations?.['ray.io/ft-enabled']).toBe('false');
      expect(head(c).metadata.annotations?.['ray.io/external-storage-namespace']).toBeUndefined();
      expect(env(ray(worker(c))).map((e) => e.name)).not.toContain('RAY_gcs_rpc_server_reconnect_timeout_s');
    }
  });
  it('the storage namespace and deletion timeout readers', () => {
    expect(externalStorageNamespace(externalRedis())).toBe('uid-1');
    const t = (v?: string) => gcsFtDeletionTimeoutSeconds(sampleCluster((x) => {
      x.metadata.annotations = v === undefined ? {} : { 'ray.io/gcs-ft-deletion-timeout': v };
    }));
    expect([t(), t('5'), t('0'), t('-3'), t('abc'), t('12s')]).toEqual([300, 5, 300, 300, 300, 300]);
  });
});

describe('KubeRay\'s FT validation messages', () => {
  const validate = (c: RayCluster) => validateRayClusterSpec(c.spec, c.metadata.annotations ?? {}, { featureGates: {} } as never);
  it.each([
    ['the samples pass', externalRedis(), undefined],
    ['the legacy sample passes', legacy(), undefined],
    ['annotation and options together', externalRedis('redis:6379', (x) => { x.metadata.annotations = { 'ray.io/ft-enabled': 'true' }; }),
      'ray.io/ft-enabled annotation and GcsFaultToleranceOptions are both set. Please use only GcsFaultToleranceOptions to configure GCS fault tolerance'],
    ['RAY_REDIS_ADDRESS without FT', legacy((x) => { x.metadata.annotations = {}; }),
      'RAY_REDIS_ADDRESS is set which implicitly enables GCS fault tolerance, but GcsFaultToleranceOptions is not set. Please set GcsFaultToleranceOptions to enable GCS fault tolerance'],
    ['redis-password in rayStartParams with options', externalRedis('redis:6379', (x) => { x.spec.headGroupSpec.rayStartParams!['redis-password'] = 'x'; }),
      'cannot set `redis-password` in rayStartParams when GcsFaultToleranceOptions is enabled - use GcsFaultToleranceOptions.RedisPassword instead'],
    ['a username in rayStartParams', legacy((x) => { x.spec.headGroupSpec.rayStartParams!['redis-username'] = 'u'; }),
      'cannot set redis username in rayStartParams or environment variables - use GcsFaultToleranceOptions.RedisUsername instead'],
  ] as const)('%s', (_name, cluster, message) => {
    expect(validate(cluster)).toBe(message);
  });
});
