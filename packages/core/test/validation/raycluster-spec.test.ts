import { describe, expect, it } from 'vitest';
import { RayClusterSpecSchema, type RayClusterSpecInput } from '../../src/schema/raycluster.ts';
import { validateRayClusterSpec } from '../../src/validation/raycluster-spec.ts';
import type { ValidationSettings } from '../../src/validation/result.ts';
import { basicClusterSpec, gatesOn } from './fixtures.ts';

// KubeRay's ValidateRayClusterSpec rules as they apply to a RayJob's rayClusterSpec: one table, exact messages.

type Input = RayClusterSpecInput;
const head = (container: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}, group: Record<string, unknown> = {}) =>
  ({ headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', ...container }], ...podSpec } }, ...group } }) as Partial<Input>;
const worker = (fields: Record<string, unknown> = {}, podSpec: Record<string, unknown> = {}, container: Record<string, unknown> = {}) =>
  ({
    workerGroupSpecs: [
      {
        groupName: 'worker-group-1',
        minReplicas: 0,
        maxReplicas: 4,
        template: { spec: { containers: [{ name: 'ray-worker', ...container }], ...podSpec } },
        ...fields,
      },
    ],
  }) as Partial<Input>;
const env = (...pairs: [string, string][]) => ({ env: pairs.map(([name, value]) => ({ name, value })) });
const v2 = { enableInTreeAutoscaling: true, autoscalerOptions: { version: 'v2' } } as Partial<Input>;
const allGates: ValidationSettings = {
  featureGates: {
    rayJobDeletionPolicy: true,
    sidecarSubmitterRestart: false,
    rayClusterNetworkPolicy: true,
    gcsFaultToleranceEmbeddedStorage: true,
    rayClusterMTLS: true,
    rayClusterHistoryServer: true,
  },
};
const historyEnv = (...pairs: [string, string][]) => ({
  historyServerOptions: { collectorOptions: { image: 'collector:1', env: pairs.map(([name, value]) => ({ name, value })) } },
});

const cases: { name: string; spec: Partial<Input>; annotations?: Record<string, string>; settings?: ValidationSettings; message: string | undefined }[] = [
  { name: 'the basic spec', spec: {}, message: undefined },
  { name: 'head without containers', spec: { headGroupSpec: { template: { spec: { containers: [] } } } }, message: 'headGroupSpec should have at least one container' },
  { name: 'head template without a pod spec', spec: { headGroupSpec: { template: {} } }, message: 'headGroupSpec should have at least one container' },
  {
    name: 'head resources in both rayStartParams and resources',
    spec: head({}, {}, { rayStartParams: { 'num-cpus': '2' }, resources: { CPU: '2' } }),
    message: 'resource fields should not be set in both rayStartParams and Resources for Head group; please use only one',
  },
  {
    name: 'head rayStartParams labels',
    spec: head({}, {}, { rayStartParams: { labels: 'a=b' } }),
    message: "rayStartParams['labels'] is not supported for Head group; please use the top-level Labels field instead",
  },
  {
    name: 'head label value with a slash',
    spec: head({}, {}, { labels: { 'valid-key': 'invalid/value' } }),
    message:
      "invalid label value for key 'valid-key' in Head group: 'invalid/value', error: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  },
  { name: 'head labels that are valid', spec: head({}, {}, { labels: { 'example.com/team': 'ray', plain: '' } }), message: undefined },
  { name: 'worker without containers', spec: worker({ template: { spec: { containers: [] } } }), message: 'workerGroupSpec should have at least one container' },
  { name: 'worker with negative minReplicas', spec: worker({ minReplicas: -1 }), message: 'worker group worker-group-1 has negative minReplicas -1' },
  { name: 'worker with negative maxReplicas', spec: worker({ minReplicas: 0, maxReplicas: -1 }), message: 'worker group worker-group-1 has negative maxReplicas -1' },
  { name: 'worker with min above max', spec: worker({ minReplicas: 5, maxReplicas: 2 }), message: 'worker group worker-group-1 has minReplicas 5 greater than maxReplicas 2' },
  {
    name: 'worker resources in both places',
    spec: worker({ rayStartParams: { 'num-gpus': '1' }, resources: { GPU: '1' } }),
    message: 'resource fields should not be set in both rayStartParams and Resources for worker-group-1 group; please use only one',
  },
  {
    name: 'worker label key with invalid characters',
    spec: worker({ labels: { 'invalid_key!': 'v' } }),
    message:
      "invalid label key for worker-group-1 group: 'invalid_key!', error: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  },
  { name: 'worker idleTimeoutSeconds negative', spec: worker({ idleTimeoutSeconds: -10 }), message: 'worker group worker-group-1: idleTimeoutSeconds must be non-negative, got -10' },
  {
    name: 'worker idleTimeoutSeconds without autoscaler v2',
    spec: worker({ idleTimeoutSeconds: 10 }),
    message:
      "worker group worker-group-1: idleTimeoutSeconds is set, but autoscaler v2 is not enabled. Please set .spec.autoscalerOptions.version to 'v2' (or set RAY_enable_autoscaler_v2 environment variable to 'true' in the head pod if using KubeRay < 1.4.0)",
  },
  { name: 'worker idleTimeoutSeconds with autoscaler v2', spec: { ...v2, ...worker({ idleTimeoutSeconds: 10 }) }, message: undefined },
  {
    name: 'worker idleTimeoutSeconds with the v2 env var on an autoscaling head',
    spec: { enableInTreeAutoscaling: true, ...head(env(['RAY_enable_autoscaler_v2', '1'])), ...worker({ idleTimeoutSeconds: 10 }) },
    message: undefined,
  },
  {
    name: 'worker priority without rayVersion',
    spec: worker({ priority: 1 }),
    message: 'worker group worker-group-1: priority is set, but RayVersion was not specified. Ray version 2.56.0 or later is required',
  },
  {
    name: 'worker priority with an unparsable rayVersion',
    spec: { rayVersion: 'invalid', ...worker({ priority: 1 }) },
    message: 'worker group worker-group-1: priority is set, but RayVersion format is invalid: invalid, could not parse "invalid" as version',
  },
  {
    name: 'worker priority on Ray 2.55.0',
    spec: { rayVersion: '2.55.0', ...worker({ priority: 1 }) },
    message: 'worker group worker-group-1: priority is set, but minimum Ray version is 2.56.0, got 2.55.0',
  },
  {
    name: 'worker priority without autoscaler v2',
    spec: { rayVersion: '2.56.0', ...worker({ priority: 2 }) },
    message: 'worker group worker-group-1: priority is set to 2, but autoscaler v2 is not enabled. Priority is only supported with autoscaler v2 enabled',
  },
  { name: 'worker priority with autoscaler v2', spec: { rayVersion: '2.56.0', ...v2, ...worker({ priority: 2 }) }, message: undefined },
  {
    name: 'ft-enabled annotation and gcsFaultToleranceOptions together',
    spec: { gcsFaultToleranceOptions: { redisAddress: 'redis:6379' } },
    annotations: { 'ray.io/ft-enabled': 'true' },
    message: 'ray.io/ft-enabled annotation and GcsFaultToleranceOptions are both set. Please use only GcsFaultToleranceOptions to configure GCS fault tolerance',
  },
  {
    name: 'RAY_REDIS_ADDRESS without fault tolerance',
    spec: head(env(['RAY_REDIS_ADDRESS', 'redis:6379'])),
    message:
      'RAY_REDIS_ADDRESS is set which implicitly enables GCS fault tolerance, but GcsFaultToleranceOptions is not set. Please set GcsFaultToleranceOptions to enable GCS fault tolerance',
  },
  { name: 'RAY_REDIS_ADDRESS with the ft-enabled annotation', spec: head(env(['RAY_REDIS_ADDRESS', 'redis:6379'])), annotations: { 'ray.io/ft-enabled': 'TRUE' }, message: undefined },
  {
    name: 'FT with redis-password in rayStartParams',
    spec: { gcsFaultToleranceOptions: {}, ...head({}, {}, { rayStartParams: { 'redis-password': 'x' } }) },
    message: 'cannot set `redis-password` in rayStartParams when GcsFaultToleranceOptions is enabled - use GcsFaultToleranceOptions.RedisPassword instead',
  },
  {
    name: 'FT with REDIS_PASSWORD env',
    spec: { gcsFaultToleranceOptions: {}, ...head(env(['REDIS_PASSWORD', 'x'])) },
    message: 'cannot set `REDIS_PASSWORD` env var in head Pod when GcsFaultToleranceOptions is enabled - use GcsFaultToleranceOptions.RedisPassword instead',
  },
  {
    name: 'FT with RAY_REDIS_ADDRESS env',
    spec: { gcsFaultToleranceOptions: {}, ...head(env(['RAY_REDIS_ADDRESS', 'x'])) },
    message: 'cannot set `RAY_REDIS_ADDRESS` env var in head Pod when GcsFaultToleranceOptions is enabled - use GcsFaultToleranceOptions.RedisAddress instead',
  },
  {
    name: 'FT with the external storage namespace annotation',
    spec: { gcsFaultToleranceOptions: {} },
    annotations: { 'ray.io/external-storage-namespace': 'ns' },
    message: 'cannot set `ray.io/external-storage-namespace` annotation when GcsFaultToleranceOptions is enabled - use GcsFaultToleranceOptions.ExternalStorageNamespace instead',
  },
  {
    name: 'FT redis backend with storage',
    spec: { gcsFaultToleranceOptions: { storage: { size: '1Gi' } } },
    message: "cannot set GcsFaultToleranceOptions.Storage when backend is 'redis' - it only applies to the 'rocksdb' backend",
  },
  { name: 'FT redis backend', spec: { gcsFaultToleranceOptions: { redisAddress: 'redis:6379' } }, message: undefined },
  {
    name: 'FT rocksdb backend without its gate',
    spec: { gcsFaultToleranceOptions: { backend: 'rocksdb' } },
    message:
      "the embedded RocksDB GCS fault tolerance backend (GcsFaultToleranceOptions.Backend: 'rocksdb') requires the GCSFaultToleranceEmbeddedStorage feature gate to be enabled",
  },
  ...(
    [
      [{ redisAddress: 'r' }, "cannot set GcsFaultToleranceOptions.RedisAddress when backend is 'rocksdb'"],
      [{ redisUsername: { value: 'u' } }, "cannot set GcsFaultToleranceOptions.RedisUsername when backend is 'rocksdb'"],
      [{ redisPassword: { value: 'p' } }, "cannot set GcsFaultToleranceOptions.RedisPassword when backend is 'rocksdb'"],
      [{ externalStorageNamespace: 'n' }, "cannot set GcsFaultToleranceOptions.ExternalStorageNamespace when backend is 'rocksdb'"],
      [
        { storage: { claimName: 'pvc', size: '1Gi' } },
        'GcsFaultToleranceOptions.Storage.ClaimName is mutually exclusive with size, storageClassName, and accessModes',
      ],
      [{ storage: { claimName: 'pvc' } }, undefined],
    ] as const
  ).map(([options, message]) => ({
    name: `FT rocksdb backend with ${Object.keys(options).join(',')}`,
    spec: { gcsFaultToleranceOptions: { backend: 'rocksdb', ...options } } as Partial<Input>,
    settings: allGates,
    message,
  })),
  {
    name: 'FT rocksdb backend with RAY_gcs_storage env',
    spec: { gcsFaultToleranceOptions: { backend: 'rocksdb' }, ...head(env(['RAY_gcs_storage', 'x'])) },
    settings: allGates,
    message: 'cannot set `RAY_gcs_storage` or `RAY_gcs_storage_path` env var in head Pod when the embedded GCS FT backend is used - these are managed by KubeRay',
  },
  {
    name: 'FT rocksdb backend with a mount at /data/gcs',
    spec: { gcsFaultToleranceOptions: { backend: 'rocksdb' }, ...head({ volumeMounts: [{ name: 'x', mountPath: '/data/gcs' }] }) },
    settings: allGates,
    message: 'cannot set a volume mount named "gcs-storage" or mounted at /data/gcs in the head container when the embedded GCS FT backend is used - it is managed by KubeRay',
  },
  {
    name: 'FT rocksdb backend with a gcs-storage volume',
    spec: { gcsFaultToleranceOptions: { backend: 'rocksdb' }, ...head({}, { volumes: [{ name: 'gcs-storage', emptyDir: {} }] }) },
    settings: allGates,
    message: 'cannot set a volume named "gcs-storage" in the head Pod when the embedded GCS FT backend is used - it is managed by KubeRay',
  },
  {
    name: 'redis username in env',
    spec: head(env(['REDIS_USERNAME', 'u'])),
    message: 'cannot set redis username in rayStartParams or environment variables - use GcsFaultToleranceOptions.RedisUsername instead',
  },
  {
    name: 'autoscaler v2 env var without autoscaling',
    spec: head(env(['RAY_enable_autoscaler_v2', 'true'])),
    message:
      "environment variable RAY_enable_autoscaler_v2 cannot be set to 'true' when enableInTreeAutoscaling is false. Please set enableInTreeAutoscaling: true to use autoscaler v2",
  },
  { name: 'autoscaling with a suspended worker group', spec: { enableInTreeAutoscaling: true, ...worker({ suspend: true }) }, message: 'worker group worker-group-1 cannot be suspended with Autoscaler enabled' },
  {
    name: 'autoscaler version and the v2 env var together',
    spec: { ...v2, ...head(env(['RAY_enable_autoscaler_v2', '1'])) },
    message: 'both .spec.autoscalerOptions.version and head Pod env var RAY_enable_autoscaler_v2 are set, please only use the former',
  },
  { name: 'autoscaler v2 with head restartPolicy Always', spec: { ...v2, ...head({}, { restartPolicy: 'Always' }) }, message: 'restartPolicy for head Pod should be Never or unset when using autoscaler V2' },
  {
    name: 'autoscaler v2 with worker restartPolicy OnFailure',
    spec: { ...v2, ...worker({}, { restartPolicy: 'OnFailure' }) },
    message: 'restartPolicy for worker group worker-group-1 should be Never or unset when using autoscaler V2',
  },
  {
    name: 'negative autoscaler idle timeout',
    spec: { enableInTreeAutoscaling: true, autoscalerOptions: { idleTimeoutSeconds: -10 } },
    message: 'autoscalerOptions.idleTimeoutSeconds must be non-negative, got -10',
  },
  {
    name: 'autoscaler env with KUBERAY_GEN_AUTOSCALER_START_CMD',
    spec: { enableInTreeAutoscaling: true, autoscalerOptions: { env: [{ name: 'KUBERAY_GEN_AUTOSCALER_START_CMD', value: 'x' }] } },
    message: 'autoscalerOptions.env must not contain KUBERAY_GEN_AUTOSCALER_START_CMD: it is managed by KubeRay and injected automatically into the autoscaler container',
  },
  { name: 'history server without its gate', spec: historyEnv(), message: 'RayClusterHistoryServer feature gate is not enabled' },
  { name: 'history server without collector options', spec: { historyServerOptions: {} }, settings: allGates, message: 'historyServerOptions.collectorOptions must be set' },
  {
    name: 'history server collector without image',
    spec: { historyServerOptions: { collectorOptions: {} } },
    settings: allGates,
    message: 'historyServerOptions.collectorOptions.image must be set',
  },
  {
    name: 'history server collector with a managed env var',
    spec: historyEnv(['POD_IP', 'x']),
    settings: allGates,
    message: 'historyServerOptions.collectorOptions.env must not contain POD_IP: it is managed by KubeRay and injected automatically into the collector container',
  },
  {
    name: 'history server collector without STORAGE_BACKEND',
    spec: historyEnv(),
    settings: allGates,
    message: 'STORAGE_BACKEND environment variable must be set with a literal string value in historyServerOptions.collectorOptions.env',
  },
  { name: 'history server GCS without bucket', spec: historyEnv(['STORAGE_BACKEND', 'gcs']), settings: allGates, message: 'GCS_BUCKET environment variable must be set when STORAGE_BACKEND is GCS' },
  { name: 'history server S3 without region', spec: historyEnv(['STORAGE_BACKEND', 'S3']), settings: allGates, message: 'S3_REGION environment variable must be set when STORAGE_BACKEND is S3' },
  {
    name: 'history server OSS without endpoint',
    spec: historyEnv(['STORAGE_BACKEND', 'aliyunoss'], ['OSS_BUCKET', 'b']),
    settings: allGates,
    message: 'OSS_ENDPOINT environment variable must be set when STORAGE_BACKEND is ALIYUNOSS',
  },
  {
    name: 'history server Azure connection_string without the string',
    spec: historyEnv(['STORAGE_BACKEND', 'AzureBlob'], ['AZURE_STORAGE_AUTH_MODE', ' Connection_String ']),
    settings: allGates,
    message: 'AZURE_STORAGE_CONNECTION_STRING environment variable must be set when STORAGE_BACKEND is AZUREBLOB and AZURE_STORAGE_AUTH_MODE is connection_string',
  },
  {
    name: 'history server Azure workload_identity without account URL',
    spec: historyEnv(['STORAGE_BACKEND', 'AZUREBLOB'], ['AZURE_STORAGE_AUTH_MODE', 'workload_identity']),
    settings: allGates,
    message: 'AZURE_STORAGE_ACCOUNT_URL environment variable must be set when STORAGE_BACKEND is AZUREBLOB and AZURE_STORAGE_AUTH_MODE is workload_identity',
  },
  {
    name: 'history server Azure without either credential',
    spec: historyEnv(['STORAGE_BACKEND', 'AZUREBLOB']),
    settings: allGates,
    message: 'either AZURE_STORAGE_CONNECTION_STRING or AZURE_STORAGE_ACCOUNT_URL environment variable must be set when STORAGE_BACKEND is AZUREBLOB',
  },
  { name: 'history server Azure with an account URL', spec: historyEnv(['STORAGE_BACKEND', 'AZUREBLOB'], ['AZURE_STORAGE_ACCOUNT_URL', 'u']), settings: allGates, message: undefined },
  { name: 'history server with an unknown backend', spec: historyEnv(['STORAGE_BACKEND', 'local']), settings: allGates, message: undefined },
  {
    name: 'history server with a collector container in the head',
    spec: { ...historyEnv(['STORAGE_BACKEND', 'S3'], ['S3_REGION', 'r']), headGroupSpec: { template: { spec: { containers: [{ name: 'ray-head' }, { name: 'ray-history-collector' }] } } } },
    settings: allGates,
    message: "head pod template must not define a container with name 'ray-history-collector' when history server collector options are enabled",
  },
  {
    name: 'history server with a collector container in a worker',
    spec: { ...historyEnv(['STORAGE_BACKEND', 'GCS'], ['GCS_BUCKET', 'b']), ...worker({ template: { spec: { containers: [{ name: 'ray-history-collector' }] } } }) },
    settings: allGates,
    message: "worker group worker-group-1 pod template must not define a container with name 'ray-history-collector' when history server collector options are enabled",
  },
  {
    name: 'token auth without rayVersion',
    spec: { authOptions: { mode: 'token' } },
    message: "authOptions.mode is 'token' but RayVersion was not specified. Ray version 2.52.0 or later is required",
  },
  {
    name: 'token auth with an invalid rayVersion',
    spec: { authOptions: { mode: 'token' }, rayVersion: 'invalid-version' },
    message: 'authOptions.mode is \'token\' but RayVersion format is invalid: invalid-version, could not parse "invalid-version" as version',
  },
  { name: 'token auth on Ray 2.50.0', spec: { authOptions: { mode: 'token' }, rayVersion: '2.50.0' }, message: "authOptions.mode is 'token' but minimum Ray version is 2.52.0, got 2.50.0" },
  { name: 'token auth on Ray 2.52.0', spec: { authOptions: { mode: 'token' }, rayVersion: '2.52.0' }, message: undefined },
  {
    name: 'K8s token auth on Ray 2.54',
    spec: { authOptions: { mode: 'token', enableK8sTokenAuth: true }, rayVersion: '2.54.1' },
    message: 'authOptions.enableK8sTokenAuth is enabled but minimum Ray version is 2.55.0, got 2.54.1',
  },
  {
    name: 'K8s token auth with a secret name',
    spec: { authOptions: { mode: 'token', enableK8sTokenAuth: true, secretName: 's' }, rayVersion: '2.55.0' },
    message: 'authOptions.enableK8sTokenAuth is enabled and authOptions.secretName is also set',
  },
  {
    name: 'K8s token auth without token mode',
    spec: { authOptions: { enableK8sTokenAuth: true } },
    message: "authOptions.enableK8sTokenAuth is enabled but authOptions.mode not set to 'token'",
  },
  { name: 'networkPolicy without its gate', spec: { networkPolicy: {} }, message: 'spec.networkPolicy requires the RayClusterNetworkPolicy feature gate to be enabled' },
  { name: 'networkPolicy DenyAll', spec: { networkPolicy: {} }, settings: allGates, message: undefined },
  {
    name: 'networkPolicy DenyAllEgress with head ingress rules',
    spec: { networkPolicy: { mode: 'DenyAllEgress', head: { ingressRules: [{}] } } },
    settings: allGates,
    message: 'networkPolicy.head.ingressRules cannot be set when mode is "DenyAllEgress" (ingress is not restricted)',
  },
  {
    name: 'networkPolicy DenyAllIngress with worker egress rules',
    spec: { networkPolicy: { mode: 'DenyAllIngress', worker: { egressRules: [{}] } } },
    settings: allGates,
    message: 'networkPolicy.worker.egressRules cannot be set when mode is "DenyAllIngress" (egress is not restricted)',
  },
  {
    name: 'networkPolicy with an upper-case worker group name',
    spec: { networkPolicy: {}, ...worker({ groupName: 'GPU-Group' }) },
    settings: allGates,
    message:
      "worker group name \"GPU-Group\" must be a valid DNS1123 label when networkPolicy is enabled (it is embedded in the NetworkPolicy name): [a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')]",
  },
  {
    name: 'networkPolicy rules for an unknown worker group',
    spec: { networkPolicy: { workerGroups: [{ groupName: 'other' }] } },
    settings: allGates,
    message: 'networkPolicy.workerGroups["other"] does not match any group name in workerGroupSpecs',
  },
  {
    name: 'networkPolicy DenyAllEgress with group ingress rules',
    spec: { networkPolicy: { mode: 'DenyAllEgress', workerGroups: [{ groupName: 'small-group', ingressRules: [{}] }] } },
    settings: allGates,
    message: 'networkPolicy.workerGroups["small-group"].ingressRules cannot be set when mode is "DenyAllEgress" (ingress is not restricted)',
  },
  { name: 'tlsOptions without its gate', spec: { tlsOptions: { enabled: true } }, message: 'spec.tlsOptions requires the RayClusterMTLS feature gate to be enabled' },
  { name: 'tlsOptions disabled', spec: { tlsOptions: { enabled: false }, ...head(env(['RAY_USE_TLS', '1'])) }, settings: allGates, message: undefined },
  {
    name: 'TLS with RAY_USE_TLS in the head',
    spec: { tlsOptions: { enabled: true }, ...head(env(['RAY_USE_TLS', '1'])) },
    settings: allGates,
    message: 'cannot set RAY_USE_TLS environment variable in head Pod when tlsOptions is set - the operator manages TLS configuration automatically',
  },
  {
    name: 'TLS with a ray-tls mount in a worker',
    spec: { tlsOptions: { enabled: true }, ...worker({}, {}, { volumeMounts: [{ name: 'ray-tls', mountPath: '/x' }] }) },
    settings: allGates,
    message: 'cannot use volume mount named "ray-tls" in worker group "worker-group-1" when tlsOptions is set - the operator manages TLS configuration automatically',
  },
  {
    name: 'TLS with autoscaler TLS env',
    spec: { tlsOptions: { enabled: true }, autoscalerOptions: { env: [{ name: 'RAY_TLS_CA_CERT', value: 'x' }] } },
    settings: allGates,
    message: 'cannot set RAY_TLS_CA_CERT environment variable in autoscalerOptions.env when tlsOptions is set - the operator manages TLS configuration for the autoscaler automatically',
  },
  {
    name: 'TLS with an autoscaler mount at the TLS path',
    spec: { tlsOptions: { enabled: true }, autoscalerOptions: { volumeMounts: [{ name: 'x', mountPath: '/etc/ray/tls' }] } },
    settings: allGates,
    message: 'cannot use volume mount at path "/etc/ray/tls" in autoscalerOptions.volumeMounts when tlsOptions is set - the operator manages TLS configuration automatically',
  },
  { name: 'TLS with clean containers', spec: { tlsOptions: { enabled: true }, autoscalerOptions: {} }, settings: allGates, message: undefined },
];

describe('RayCluster spec validation (KubeRay ValidateRayClusterSpec)', () => {
  it.each(cases)('$name', ({ spec, annotations, settings, message }) => {
    const parsed = RayClusterSpecSchema.parse({ ...basicClusterSpec(), ...spec });
    expect(validateRayClusterSpec(parsed, annotations ?? {}, settings ?? gatesOn)).toBe(message);
  });

  it('reports a missing minReplicas when autoscaling is off (only reachable without zod defaults)', () => {
    const parsed = RayClusterSpecSchema.parse(basicClusterSpec());
    const group = { ...parsed.workerGroupSpecs![0]!, minReplicas: undefined as unknown as number };
    expect(validateRayClusterSpec({ ...parsed, workerGroupSpecs: [group] }, {}, gatesOn)).toBe(
      'worker group small-group must set both minReplicas and maxReplicas when autoscaling is disabled',
    );
  });
});
