import type { RayClusterSpec } from '../schema/raycluster.ts';
import { goQuote, goStringList, isDNS1123Label } from './k8s-names.ts';
import { containersOf, hasEnvVar, rayContainerOf, volumeMountsOf } from './pod-env.ts';
import { checkMinimumRayVersion, parseGenericVersion, versionLessThan } from './ray-version.ts';
import type { RuleError, ValidationSettings } from './result.ts';

/** The optional RayCluster features KubeRay validates last: history server, token auth, NetworkPolicy, TLS. */

const COLLECTOR_CONTAINER_NAME = 'ray-history-collector';
const COLLECTOR_MANAGED_ENV = ['POD_IP', 'FQ_RAY_IP', 'RAY_CLUSTER_NAME', 'RAY_CLUSTER_NAMESPACE', 'RAY_ROLE', 'OWNER_KIND', 'OWNER_NAME', 'EVENTS_PORT'];
const TLS_MANAGED_ENV = ['RAY_USE_TLS', 'RAY_TLS_SERVER_CERT', 'RAY_TLS_SERVER_KEY', 'RAY_TLS_CA_CERT'];
const TLS_VOLUME_NAME = 'ray-tls';
const TLS_MOUNT_PATH = '/etc/ray/tls';

type LooseEnv = { name?: string; value?: string; valueFrom?: unknown };

export function validateHistoryServer(spec: RayClusterSpec, settings: ValidationSettings): RuleError {
  const options = spec.historyServerOptions;
  if (!options) return undefined;
  if (!settings.featureGates.rayClusterHistoryServer) return 'RayClusterHistoryServer feature gate is not enabled';
  const collector = options.collectorOptions;
  if (!collector) return 'historyServerOptions.collectorOptions must be set';
  const collectorError = validateCollectorOptions(collector.image, (collector.env ?? []) as LooseEnv[]);
  if (collectorError) return collectorError;
  if (containersOf(spec.headGroupSpec.template).some((c) => c.name === COLLECTOR_CONTAINER_NAME)) {
    return `head pod template must not define a container with name '${COLLECTOR_CONTAINER_NAME}' when history server collector options are enabled`;
  }
  for (const group of spec.workerGroupSpecs ?? []) {
    if (containersOf(group.template).some((c) => c.name === COLLECTOR_CONTAINER_NAME)) {
      return `worker group ${group.groupName} pod template must not define a container with name '${COLLECTOR_CONTAINER_NAME}' when history server collector options are enabled`;
    }
  }
  return undefined;
}

function validateCollectorOptions(image: string | undefined, envList: LooseEnv[]): RuleError {
  if (!image) return 'historyServerOptions.collectorOptions.image must be set';
  const env = new Map(envList.map((e) => [e.name ?? '', e]));
  const hasValue = (name: string) => {
    const e = env.get(name);
    return e !== undefined && (Boolean(e.value) || e.valueFrom !== undefined);
  };
  const managed = COLLECTOR_MANAGED_ENV.find((name) => env.has(name));
  if (managed) {
    return `historyServerOptions.collectorOptions.env must not contain ${managed}: it is managed by KubeRay and injected automatically into the collector container`;
  }
  const backend = env.get('STORAGE_BACKEND')?.value;
  if (!backend) {
    return 'STORAGE_BACKEND environment variable must be set with a literal string value in historyServerOptions.collectorOptions.env';
  }
  const requireAll = (names: string[], label: string): RuleError => {
    const missing = names.find((n) => !hasValue(n));
    return missing ? `${missing} environment variable must be set when STORAGE_BACKEND is ${label}` : undefined;
  };
  switch (backend.toUpperCase()) {
    case 'GCS':
      return requireAll(['GCS_BUCKET'], 'GCS');
    case 'S3':
      return requireAll(['S3_REGION'], 'S3');
    case 'ALIYUNOSS':
      return requireAll(['OSS_BUCKET', 'OSS_ENDPOINT', 'OSS_REGION'], 'ALIYUNOSS');
    case 'AZUREBLOB':
      return validateAzureCollector(env, hasValue);
    default:
      return undefined;
  }
}

function validateAzureCollector(env: Map<string, LooseEnv>, hasValue: (name: string) => boolean): RuleError {
  const authMode = (env.get('AZURE_STORAGE_AUTH_MODE')?.value ?? '').trim().toLowerCase();
  if (authMode === 'connection_string') {
    return hasValue('AZURE_STORAGE_CONNECTION_STRING')
      ? undefined
      : 'AZURE_STORAGE_CONNECTION_STRING environment variable must be set when STORAGE_BACKEND is AZUREBLOB and AZURE_STORAGE_AUTH_MODE is connection_string';
  }
  if (authMode === 'workload_identity' || authMode === 'default') {
    return hasValue('AZURE_STORAGE_ACCOUNT_URL')
      ? undefined
      : `AZURE_STORAGE_ACCOUNT_URL environment variable must be set when STORAGE_BACKEND is AZUREBLOB and AZURE_STORAGE_AUTH_MODE is ${authMode}`;
  }
  if (!hasValue('AZURE_STORAGE_CONNECTION_STRING') && !hasValue('AZURE_STORAGE_ACCOUNT_URL')) {
    return 'either AZURE_STORAGE_CONNECTION_STRING or AZURE_STORAGE_ACCOUNT_URL environment variable must be set when STORAGE_BACKEND is AZUREBLOB';
  }
  return undefined;
}

export function validateAuth(spec: RayClusterSpec): RuleError {
  const auth = spec.authOptions;
  const k8sAuth = auth?.enableK8sTokenAuth === true;
  if (auth?.mode !== 'token') {
    return k8sAuth ? "authOptions.enableK8sTokenAuth is enabled but authOptions.mode not set to 'token'" : undefined;
  }
  const tokenError = checkMinimumRayVersion(spec.rayVersion, [2, 52, 0], {
    missing: "authOptions.mode is 'token' but RayVersion was not specified. Ray version 2.52.0 or later is required",
    invalid: (v, err) => `authOptions.mode is 'token' but RayVersion format is invalid: ${v}, ${err}`,
    tooOld: (v) => `authOptions.mode is 'token' but minimum Ray version is 2.52.0, got ${v}`,
  });
  if (tokenError || !k8sAuth) return tokenError;
  // The token check above has already parsed rayVersion successfully.
  const parsed = parseGenericVersion(spec.rayVersion as string);
  if (parsed.ok && versionLessThan(parsed.components, [2, 55, 0])) {
    return `authOptions.enableK8sTokenAuth is enabled but minimum Ray version is 2.55.0, got ${spec.rayVersion}`;
  }
  return auth.secretName ? 'authOptions.enableK8sTokenAuth is enabled and authOptions.secretName is also set' : undefined;
}

export function validateNetworkPolicy(spec: RayClusterSpec, settings: ValidationSettings): RuleError {
  const policy = spec.networkPolicy;
  if (!policy) return undefined;
  if (!settings.featureGates.rayClusterNetworkPolicy) {
    return 'spec.networkPolicy requires the RayClusterNetworkPolicy feature gate to be enabled';
  }
  const mode = policy.mode ?? 'DenyAll';
  const rulesError = (where: string, rules: { ingressRules?: unknown[]; egressRules?: unknown[] } | undefined): RuleError => {
    if (mode === 'DenyAllEgress' && (rules?.ingressRules?.length ?? 0) > 0) {
      return `networkPolicy.${where}.ingressRules cannot be set when mode is ${goQuote(mode)} (ingress is not restricted)`;
    }
    if (mode === 'DenyAllIngress' && (rules?.egressRules?.length ?? 0) > 0) {
      return `networkPolicy.${where}.egressRules cannot be set when mode is ${goQuote(mode)} (egress is not restricted)`;
    }
    return undefined;
  };
  const sectionError = rulesError('head', policy.head) ?? rulesError('worker', policy.worker);
  if (sectionError) return sectionError;
  const groupNames = new Set<string>();
  for (const group of spec.workerGroupSpecs ?? []) {
    const errs = isDNS1123Label(group.groupName);
    if (errs.length > 0) {
      return `worker group name ${goQuote(group.groupName)} must be a valid DNS1123 label when networkPolicy is enabled (it is embedded in the NetworkPolicy name): ${goStringList(errs)}`;
    }
    groupNames.add(group.groupName);
  }
  for (const group of policy.workerGroups ?? []) {
    const error = rulesError(`workerGroups[${goQuote(group.groupName)}]`, group);
    if (error) return error;
    if (!groupNames.has(group.groupName)) {
      return `networkPolicy.workerGroups[${goQuote(group.groupName)}] does not match any group name in workerGroupSpecs`;
    }
  }
  return undefined;
}

export function validateTLS(spec: RayClusterSpec, settings: ValidationSettings): RuleError {
  if (!spec.tlsOptions) return undefined;
  if (!settings.featureGates.rayClusterMTLS) return 'spec.tlsOptions requires the RayClusterMTLS feature gate to be enabled';
  if (spec.tlsOptions.enabled !== true) return undefined;
  const manual = 'the operator manages TLS configuration automatically';
  const containerError = (container: ReturnType<typeof rayContainerOf>, where: string): RuleError => {
    if (!container) return undefined;
    const env = TLS_MANAGED_ENV.find((name) => hasEnvVar(name, container.env));
    if (env) return `cannot set ${env} environment variable in ${where} when tlsOptions is set - ${manual}`;
    return mountError(volumeMountsOf(container), where);
  };
  const mountError = (mounts: { name?: string; mountPath?: string }[], where: string): RuleError => {
    for (const m of mounts) {
      if (m.name === TLS_VOLUME_NAME) return `cannot use volume mount named ${goQuote(TLS_VOLUME_NAME)} in ${where} when tlsOptions is set - ${manual}`;
      if (m.mountPath === TLS_MOUNT_PATH) return `cannot use volume mount at path ${goQuote(TLS_MOUNT_PATH)} in ${where} when tlsOptions is set - ${manual}`;
    }
    return undefined;
  };
  const headError = containerError(rayContainerOf(spec.headGroupSpec.template), 'head Pod');
  if (headError) return headError;
  for (const group of spec.workerGroupSpecs ?? []) {
    const error = containerError(rayContainerOf(group.template), `worker group ${goQuote(group.groupName)}`);
    if (error) return error;
  }
  const autoscaler = spec.autoscalerOptions;
  if (!autoscaler) return undefined;
  const autoscalerEnv = ((autoscaler.env ?? []) as LooseEnv[]).map((e) => e.name);
  const env = TLS_MANAGED_ENV.find((name) => autoscalerEnv.includes(name));
  if (env) {
    return `cannot set ${env} environment variable in autoscalerOptions.env when tlsOptions is set - the operator manages TLS configuration for the autoscaler automatically`;
  }
  return mountError((autoscaler.volumeMounts ?? []) as { name?: string; mountPath?: string }[], 'autoscalerOptions.volumeMounts');
}
