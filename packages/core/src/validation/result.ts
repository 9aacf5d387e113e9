/**
 * What validation returns: a typed value, never an exception. On failure the caller (the decision function)
 * emits a Warning event with `eventReason`, and sets the RayJob to ValidationFailed with `message`.
 */
export const VALIDATION_EVENT_REASONS = ['InvalidRayJobMetadata', 'InvalidRayJobSpec', 'InvalidRayJobStatus'] as const;
export type ValidationEventReason = (typeof VALIDATION_EVENT_REASONS)[number];

export type ValidationResult = { ok: true } | { ok: false; eventReason: ValidationEventReason; message: string };

/**
 * KubeRay feature gates that change what validation accepts. Named as in the decision settings, so those can
 * be passed as they are; the gates the RayJob controller does not read are optional (off, as in KubeRay).
 */
export interface ValidationFeatureGates {
  /** Beta, on by default: deletionStrategy and worker-group suspend. */
  rayJobDeletionPolicy: boolean;
  /** Alpha, off by default. Read by the submitter builders; listed so one settings object serves both. */
  sidecarSubmitterRestart: boolean;
  rayClusterNetworkPolicy?: boolean;
  gcsFaultToleranceEmbeddedStorage?: boolean;
  rayClusterMTLS?: boolean;
  rayClusterHistoryServer?: boolean;
}

export interface ValidationSettings {
  featureGates: ValidationFeatureGates;
}

export const defaultValidationSettings: ValidationSettings = {
  featureGates: { rayJobDeletionPolicy: true, sidecarSubmitterRestart: false },
};

/** A rule's verdict inside the validators: the error text, or undefined when the rule passes. */
export type RuleError = string | undefined;
