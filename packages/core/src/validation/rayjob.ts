import type { ObjectMeta } from '@rayjob/kube-model';
import type { RayJob, RayJobSpec } from '../schema/rayjob.ts';
import { validateDeletionConfiguration } from './deletion-strategy.ts';
import { goStringList, isDNS1035Label } from './k8s-names.ts';
import { METADATA_INVALID, SPEC_INVALID, STATUS_INVALID } from './messages.ts';
import { validateRayClusterSpec } from './raycluster-spec.ts';
import { parseRuntimeEnvYAML } from './runtime-env.ts';
import type { RuleError, ValidationResult, ValidationSettings } from './result.ts';

/**
 * KubeRay's RayJob controller validation (§1.7 #3): metadata, then spec, then status; first failure wins.
 * It runs on every reconcile, so it must be cheap and must not depend on anything but the object and settings.
 */

/** 53 (RayCluster name limit) minus the 6 characters of the "-xxxxx" suffix KubeRay adds to cluster names. */
export const MAX_RAYJOB_NAME_LENGTH = 47;
/** The clusterSelector key that names an existing RayCluster. */
export const CLUSTER_SELECTOR_KEY = 'ray.io/cluster';

export function validateRayJob(rayJob: RayJob, settings: ValidationSettings): ValidationResult {
  const metadataError = validateRayJobMetadata(rayJob.metadata);
  if (metadataError) return { ok: false, eventReason: 'InvalidRayJobMetadata', message: metadataError };
  const specError = validateRayJobSpec(rayJob, settings);
  if (specError) return { ok: false, eventReason: 'InvalidRayJobSpec', message: specError };
  const statusError = validateRayJobStatus(rayJob);
  if (statusError) return { ok: false, eventReason: 'InvalidRayJobStatus', message: statusError };
  return { ok: true };
}

export function validateRayJobMetadata(metadata: ObjectMeta): RuleError {
  const name = metadata.name ?? '';
  if (name.length > MAX_RAYJOB_NAME_LENGTH) {
    return `${METADATA_INVALID}RayJob name should be no more than ${MAX_RAYJOB_NAME_LENGTH} characters`;
  }
  const errs = isDNS1035Label(name);
  if (errs.length > 0) return `${METADATA_INVALID}RayJob name should be a valid DNS1035 label: ${goStringList(errs)}`;
  return undefined;
}

export function validateRayJobStatus(rayJob: RayJob): RuleError {
  if (rayJob.status?.jobDeploymentStatus === 'Waiting' && rayJob.spec.submissionMode !== 'InteractiveMode') {
    return `${STATUS_INVALID}JobDeploymentStatus cannot be \`Waiting\` when SubmissionMode is not InteractiveMode`;
  }
  return undefined;
}

export function validateRayJobSpec(rayJob: RayJob, settings: ValidationSettings): RuleError {
  const spec = rayJob.spec;
  if (spec.suspend && !spec.shutdownAfterJobFinishes) {
    return `${SPEC_INVALID}a RayJob with shutdownAfterJobFinishes set to false is not allowed to be suspended`;
  }
  if (spec.ttlSecondsAfterFinished < 0) return `${SPEC_INVALID}TTLSecondsAfterFinished must be a non-negative integer`;
  const deletionError = validateDeletionConfiguration(spec, settings);
  if (deletionError) return deletionError;

  const selectorMode = Object.keys(spec.clusterSelector ?? {}).length > 0;
  if (spec.suspend && selectorMode) return `${SPEC_INVALID}the ClusterSelector mode doesn't support the suspend operation`;
  if (!spec.rayClusterSpec && !selectorMode) return `${SPEC_INVALID}one of RayClusterSpec or ClusterSelector must be set`;
  const modeError = (selectorMode ? validateClusterSelectorMode(spec) : undefined) ?? validateSubmissionMode(spec);
  if (modeError) return modeError;

  if (spec.rayClusterSpec) {
    if (spec.rayClusterSpec.authOptions?.enableK8sTokenAuth === true) {
      return `${SPEC_INVALID}K8s token auth mode is currently not supported for RayJob`;
    }
    const clusterError = validateRayClusterSpec(spec.rayClusterSpec, rayJob.metadata.annotations ?? {}, settings);
    if (clusterError) return `${SPEC_INVALID}${clusterError}`;
  }
  const runtimeEnv = parseRuntimeEnvYAML(spec.runtimeEnvYAML);
  if (!runtimeEnv.ok) return runtimeEnv.message;
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds <= 0) {
    return `${SPEC_INVALID}activeDeadlineSeconds must be a positive integer`;
  }
  if (spec.preRunningDeadlineSeconds !== undefined && spec.preRunningDeadlineSeconds <= 0) {
    return `${SPEC_INVALID}preRunningDeadlineSeconds must be a positive integer`;
  }
  // KubeRay's wording says "positive" although 0 is accepted; kept so messages match.
  if (spec.backoffLimit < 0) return `${SPEC_INVALID}backoffLimit must be a positive integer`;
  return undefined;
}

function validateClusterSelectorMode(spec: RayJobSpec): RuleError {
  if (!spec.clusterSelector?.[CLUSTER_SELECTOR_KEY]) return 'cluster name in ClusterSelector should not be empty';
  if (spec.submissionMode === 'SidecarMode') return 'ClusterSelector is not supported in SidecarMode';
  if (spec.backoffLimit > 0) return `${SPEC_INVALID}BackoffLimit is incompatible with ClusterSelector mode`;
  return undefined;
}

function validateSubmissionMode(spec: RayJobSpec): RuleError {
  // A retried InteractiveMode job would keep spec.jobId and jump straight to Running (KubeRay issue #3525).
  if (spec.submissionMode === 'InteractiveMode' && spec.backoffLimit > 0) {
    return `${SPEC_INVALID}BackoffLimit is incompatible with InteractiveMode`;
  }
  if (spec.submissionMode !== 'SidecarMode') return undefined;
  if (spec.submitterPodTemplate) return "Currently, SidecarMode doesn't support SubmitterPodTemplate";
  if (spec.submitterConfig) return "Currently, SidecarMode doesn't support SubmitterConfig";
  const restartPolicy = spec.rayClusterSpec?.headGroupSpec.template.spec?.restartPolicy;
  if (restartPolicy && restartPolicy !== 'Never') {
    return 'restartPolicy for head Pod should be Never or unset when using SidecarMode';
  }
  return undefined;
}
