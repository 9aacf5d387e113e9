import type { RayClusterSpec, WorkerGroupSpec } from '../schema/raycluster.ts';
import { isQualifiedName, isValidLabelValue } from './k8s-names.ts';
import { containersOf, envVarByName, hasEnvVar, rayContainerOf, volumeMountsOf } from './pod-env.ts';
import { validateAuth, validateHistoryServer, validateNetworkPolicy, validateTLS } from './raycluster-options.ts';
import { checkMinimumRayVersion } from './ray-version.ts';
import type { RuleError, ValidationSettings } from './result.ts';

/**
 * KubeRay's RayCluster spec validation (ValidateRayClusterSpec), applied to a RayJob's rayClusterSpec. Same
 * order, first failure wins, same messages (the RayJob wraps them in "The RayJob spec is invalid: ").
 */

export const RAY_ENABLE_AUTOSCALER_V2 = 'RAY_enable_autoscaler_v2';
export const FT_ENABLED_ANNOTATION = 'ray.io/ft-enabled';
export const EXTERNAL_STORAGE_NAMESPACE_ANNOTATION = 'ray.io/external-storage-namespace';
const GCS_STORAGE_VOLUME_NAME = 'gcs-storage';
const GCS_STORAGE_MOUNT_PATH = '/data/gcs';

export const isAutoscalingEnabled = (spec: RayClusterSpec | undefined): boolean => spec?.enableInTreeAutoscaling === true;
export const isAutoscalingV2Enabled = (spec: RayClusterSpec | undefined): boolean => spec?.autoscalerOptions?.version === 'v2';
const isGcsFaultToleranceEnabled = (spec: RayClusterSpec, annotations: Record<string, string>) =>
  annotations[FT_ENABLED_ANNOTATION]?.toLowerCase() === 'true' || spec.gcsFaultToleranceOptions !== undefined;
const isTruthyEnv = (value: string | undefined) => value === '1' || value === 'true';

export function validateRayClusterSpec(
  spec: RayClusterSpec,
  annotations: Record<string, string>,
  settings: ValidationSettings,
): RuleError {
  const gates = settings.featureGates;
  const head = spec.headGroupSpec;
  const headContainer = rayContainerOf(head.template);
  if (!headContainer) return 'headGroupSpec should have at least one container';
  const groupError =
    validateGroupResources('Head', head.rayStartParams, head.resources) ??
    validateGroupLabels('Head', head.rayStartParams, head.labels) ??
    validateWorkerGroups(spec);
  if (groupError) return groupError;

  if (annotations[FT_ENABLED_ANNOTATION] && spec.gcsFaultToleranceOptions) {
    return `${FT_ENABLED_ANNOTATION} annotation and GcsFaultToleranceOptions are both set. Please use only GcsFaultToleranceOptions to configure GCS fault tolerance`;
  }
  if (!isGcsFaultToleranceEnabled(spec, annotations) && hasEnvVar('RAY_REDIS_ADDRESS', headContainer.env)) {
    return 'RAY_REDIS_ADDRESS is set which implicitly enables GCS fault tolerance, but GcsFaultToleranceOptions is not set. Please set GcsFaultToleranceOptions to enable GCS fault tolerance';
  }
  const ftError = validateGcsFaultTolerance(spec, annotations, settings);
  if (ftError) return ftError;
  if (head.rayStartParams?.['redis-username'] || hasEnvVar('REDIS_USERNAME', headContainer.env)) {
    return 'cannot set redis username in rayStartParams or environment variables - use GcsFaultToleranceOptions.RedisUsername instead';
  }

  if (!gates.rayJobDeletionPolicy) {
    const suspended = spec.workerGroupSpecs?.find((g) => g.suspend === true);
    if (suspended) {
      return `worker group ${suspended.groupName} can be suspended only when the RayJobDeletionPolicy feature gate is enabled`;
    }
  }
  const autoscalerError = validateAutoscaler(spec);
  if (autoscalerError) return autoscalerError;
  return validateHistoryServer(spec, settings) ?? validateAuth(spec) ?? validateNetworkPolicy(spec, settings) ?? validateTLS(spec, settings);
}

function validateGroupResources(group: string, rayStartParams?: Record<string, string>, resources?: Record<string, string>): RuleError {
  const params = rayStartParams ?? {};
  const inParams = ['num-cpus', 'num-gpus', 'memory', 'resources'].some((k) => params[k]);
  if (inParams && Object.keys(resources ?? {}).length > 0) {
    return `resource fields should not be set in both rayStartParams and Resources for ${group} group; please use only one`;
  }
  return undefined;
}

function validateGroupLabels(group: string, rayStartParams?: Record<string, string>, labels?: Record<string, string>): RuleError {
  if (rayStartParams && 'labels' in rayStartParams) {
    return `rayStartParams['labels'] is not supported for ${group} group; please use the top-level Labels field instead`;
  }
  const errors: string[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    for (const err of isQualifiedName(key)) errors.push(`invalid label key for ${group} group: '${key}', error: ${err}`);
    for (const err of isValidLabelValue(value)) {
      errors.push(`invalid label value for key '${key}' in ${group} group: '${value}', error: ${err}`);
    }
  }
  return errors.length > 0 ? errors.join('; ') : undefined;
}

function validateWorkerGroups(spec: RayClusterSpec): RuleError {
  const autoscaling = isAutoscalingEnabled(spec);
  for (const group of spec.workerGroupSpecs ?? []) {
    const name = group.groupName;
    if (containersOf(group.template).length === 0) return 'workerGroupSpec should have at least one container';
    // zod applies the CRD defaults (min 0, max 2147483647), as the API server does, so both are always set here.
    if (!autoscaling && (group.minReplicas === undefined || group.maxReplicas === undefined)) {
      return `worker group ${name} must set both minReplicas and maxReplicas when autoscaling is disabled`;
    }
    if (group.minReplicas < 0) return `worker group ${name} has negative minReplicas ${group.minReplicas}`;
    if (group.maxReplicas < 0) return `worker group ${name} has negative maxReplicas ${group.maxReplicas}`;
    if (group.minReplicas > group.maxReplicas) {
      return `worker group ${name} has minReplicas ${group.minReplicas} greater than maxReplicas ${group.maxReplicas}`;
    }
    const error =
      validateGroupResources(name, group.rayStartParams, group.resources) ??
      validateGroupLabels(name, group.rayStartParams, group.labels) ??
      validateIdleTimeout(group, spec) ??
      validatePriority(group, spec);
    if (error) return error;
  }
  return undefined;
}

/** Autoscaler v2 counts as on when the version says v2 or the head sets RAY_enable_autoscaler_v2 (KubeRay < 1.4). */
function autoscalerV2ByVersionOrEnv(spec: RayClusterSpec): boolean {
  if (isAutoscalingV2Enabled(spec)) return true;
  return isTruthyEnv(envVarByName(RAY_ENABLE_AUTOSCALER_V2, rayContainerOf(spec.headGroupSpec.template)?.env)?.value);
}

function validateIdleTimeout(group: WorkerGroupSpec, spec: RayClusterSpec): RuleError {
  const idle = group.idleTimeoutSeconds;
  if (idle === undefined) return undefined;
  if (idle < 0) return `worker group ${group.groupName}: idleTimeoutSeconds must be non-negative, got ${idle}`;
  if (autoscalerV2ByVersionOrEnv(spec)) return undefined;
  return `worker group ${group.groupName}: idleTimeoutSeconds is set, but autoscaler v2 is not enabled. Please set .spec.autoscalerOptions.version to 'v2' (or set ${RAY_ENABLE_AUTOSCALER_V2} environment variable to 'true' in the head pod if using KubeRay < 1.4.0)`;
}

function validatePriority(group: WorkerGroupSpec, spec: RayClusterSpec): RuleError {
  const priority = group.priority;
  if (!priority) return undefined;
  const name = group.groupName;
  const versionError = checkMinimumRayVersion(spec.rayVersion, [2, 56, 0], {
    missing: `worker group ${name}: priority is set, but RayVersion was not specified. Ray version 2.56.0 or later is required`,
    invalid: (v, err) => `worker group ${name}: priority is set, but RayVersion format is invalid: ${v}, ${err}`,
    tooOld: (v) => `worker group ${name}: priority is set, but minimum Ray version is 2.56.0, got ${v}`,
  });
  if (versionError) return versionError;
  if (autoscalerV2ByVersionOrEnv(spec)) return undefined;
  return `worker group ${name}: priority is set to ${priority}, but autoscaler v2 is not enabled. Priority is only supported with autoscaler v2 enabled`;
}

function validateGcsFaultTolerance(spec: RayClusterSpec, annotations: Record<string, string>, settings: ValidationSettings): RuleError {
  const options = spec.gcsFaultToleranceOptions;
  if (!options) return undefined;
  const head = spec.headGroupSpec;
  const headContainer = rayContainerOf(head.template);
  if (head.rayStartParams?.['redis-password']) {
    return 'cannot set `redis-password` in rayStartParams when GcsFaultToleranceOptions is enabled - use GcsFaultToleranceOptions.RedisPassword instead';
  }
  if (hasEnvVar('REDIS_PASSWORD', headContainer?.env)) {
    return 'cannot set `REDIS_PASSWORD` env var in head Pod when GcsFaultToleranceOptions is enabled - use GcsFaultToleranceOptions.RedisPassword instead';
  }
  if (hasEnvVar('RAY_REDIS_ADDRESS', headContainer?.env)) {
    return 'cannot set `RAY_REDIS_ADDRESS` env var in head Pod when GcsFaultToleranceOptions is enabled - use GcsFaultToleranceOptions.RedisAddress instead';
  }
  if (annotations[EXTERNAL_STORAGE_NAMESPACE_ANNOTATION]) {
    return 'cannot set `ray.io/external-storage-namespace` annotation when GcsFaultToleranceOptions is enabled - use GcsFaultToleranceOptions.ExternalStorageNamespace instead';
  }
  if ((options.backend ?? 'redis') === 'redis') {
    return options.storage
      ? "cannot set GcsFaultToleranceOptions.Storage when backend is 'redis' - it only applies to the 'rocksdb' backend"
      : undefined;
  }
  if (!settings.featureGates.gcsFaultToleranceEmbeddedStorage) {
    return "the embedded RocksDB GCS fault tolerance backend (GcsFaultToleranceOptions.Backend: 'rocksdb') requires the GCSFaultToleranceEmbeddedStorage feature gate to be enabled";
  }
  if (options.redisAddress) return "cannot set GcsFaultToleranceOptions.RedisAddress when backend is 'rocksdb'";
  if (options.redisUsername) return "cannot set GcsFaultToleranceOptions.RedisUsername when backend is 'rocksdb'";
  if (options.redisPassword) return "cannot set GcsFaultToleranceOptions.RedisPassword when backend is 'rocksdb'";
  if (options.externalStorageNamespace) return "cannot set GcsFaultToleranceOptions.ExternalStorageNamespace when backend is 'rocksdb'";
  const storage = options.storage;
  if (storage?.claimName && (storage.size !== undefined || storage.storageClassName !== undefined || (storage.accessModes?.length ?? 0) > 0)) {
    return 'GcsFaultToleranceOptions.Storage.ClaimName is mutually exclusive with size, storageClassName, and accessModes';
  }
  if (hasEnvVar('RAY_gcs_storage', headContainer?.env) || hasEnvVar('RAY_gcs_storage_path', headContainer?.env)) {
    return 'cannot set `RAY_gcs_storage` or `RAY_gcs_storage_path` env var in head Pod when the embedded GCS FT backend is used - these are managed by KubeRay';
  }
  if (volumeMountsOf(headContainer).some((m) => m.mountPath === GCS_STORAGE_MOUNT_PATH || m.name === GCS_STORAGE_VOLUME_NAME)) {
    return `cannot set a volume mount named "${GCS_STORAGE_VOLUME_NAME}" or mounted at ${GCS_STORAGE_MOUNT_PATH} in the head container when the embedded GCS FT backend is used - it is managed by KubeRay`;
  }
  const volumes = (head.template.spec?.volumes ?? []) as { name?: string }[];
  if (volumes.some((v) => v.name === GCS_STORAGE_VOLUME_NAME)) {
    return `cannot set a volume named "${GCS_STORAGE_VOLUME_NAME}" in the head Pod when the embedded GCS FT backend is used - it is managed by KubeRay`;
  }
  return undefined;
}

function validateAutoscaler(spec: RayClusterSpec): RuleError {
  const headEnv = rayContainerOf(spec.headGroupSpec.template)?.env;
  const v2Env = envVarByName(RAY_ENABLE_AUTOSCALER_V2, headEnv);
  if (!isAutoscalingEnabled(spec)) {
    if (isTruthyEnv(v2Env?.value)) {
      return `environment variable ${RAY_ENABLE_AUTOSCALER_V2} cannot be set to '${v2Env?.value}' when enableInTreeAutoscaling is false. Please set enableInTreeAutoscaling: true to use autoscaler v2`;
    }
  } else {
    const suspended = spec.workerGroupSpecs?.find((g) => g.suspend === true);
    if (suspended) return `worker group ${suspended.groupName} cannot be suspended with Autoscaler enabled`;
    if (spec.autoscalerOptions?.version !== undefined && v2Env) {
      return `both .spec.autoscalerOptions.version and head Pod env var ${RAY_ENABLE_AUTOSCALER_V2} are set, please only use the former`;
    }
    if (isAutoscalingV2Enabled(spec)) {
      const headPolicy = spec.headGroupSpec.template.spec?.restartPolicy;
      if (headPolicy && headPolicy !== 'Never') {
        return 'restartPolicy for head Pod should be Never or unset when using autoscaler V2';
      }
      for (const group of spec.workerGroupSpecs ?? []) {
        const policy = group.template.spec?.restartPolicy;
        if (policy && policy !== 'Never') {
          return `restartPolicy for worker group ${group.groupName} should be Never or unset when using autoscaler V2`;
        }
      }
    }
  }
  const idle = spec.autoscalerOptions?.idleTimeoutSeconds;
  if (idle !== undefined && idle < 0) return `autoscalerOptions.idleTimeoutSeconds must be non-negative, got ${idle}`;
  const autoscalerEnv = (spec.autoscalerOptions?.env ?? []) as { name?: string }[];
  if (autoscalerEnv.some((e) => e.name === 'KUBERAY_GEN_AUTOSCALER_START_CMD')) {
    return 'autoscalerOptions.env must not contain KUBERAY_GEN_AUTOSCALER_START_CMD: it is managed by KubeRay and injected automatically into the autoscaler container';
  }
  return undefined;
}
