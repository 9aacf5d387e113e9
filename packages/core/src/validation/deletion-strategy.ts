import type { DeletionPolicyType, DeletionRule, RayJobSpec } from '../schema/rayjob.ts';
import type { RuleError, ValidationSettings } from './result.ts';
import { SPEC_INVALID } from './messages.ts';

/**
 * spec.deletionStrategy and its interplay with shutdownAfterJobFinishes / ttlSecondsAfterFinished, checked in
 * KubeRay's order. Rule errors are all collected and joined with newlines (Go's errors.Join), the others stop
 * at the first.
 */

const isAutoscaling = (spec: RayJobSpec) => spec.rayClusterSpec?.enableInTreeAutoscaling === true;
const isClusterSelectorMode = (spec: RayJobSpec) => Object.keys(spec.clusterSelector ?? {}).length > 0;

export function validateDeletionConfiguration(spec: RayJobSpec, settings: ValidationSettings): RuleError {
  if (!spec.shutdownAfterJobFinishes && spec.ttlSecondsAfterFinished > 0) {
    return `${SPEC_INVALID}a RayJob with shutdownAfterJobFinishes set to false cannot have TTLSecondsAfterFinished`;
  }
  const strategy = spec.deletionStrategy;
  if (!strategy) return undefined;
  if (!settings.featureGates.rayJobDeletionPolicy) {
    return 'RayJobDeletionPolicy feature gate must be enabled to use DeletionStrategy';
  }
  const legacyConfigured = strategy.onSuccess !== undefined || strategy.onFailure !== undefined;
  const rulesConfigured = (strategy.deletionRules?.length ?? 0) > 0;
  if (rulesConfigured && spec.shutdownAfterJobFinishes) {
    return `${SPEC_INVALID}spec.shutdownAfterJobFinishes and spec.deletionStrategy.deletionRules are mutually exclusive`;
  }
  if (rulesConfigured && legacyConfigured) {
    return `${SPEC_INVALID}Cannot use both legacy onSuccess/onFailure fields and deletionRules simultaneously`;
  }
  if (legacyConfigured) return validateLegacyPolicies(spec);
  if (rulesConfigured) return validateDeletionRules(spec, strategy.deletionRules ?? []);
  return `${SPEC_INVALID}DeletionStrategy requires either BOTH onSuccess and onFailure, OR the deletionRules field (cannot be empty)`;
}

function validateLegacyPolicies(spec: RayJobSpec): RuleError {
  const onSuccess = spec.deletionStrategy?.onSuccess;
  const onFailure = spec.deletionStrategy?.onFailure;
  if (!onSuccess || !onFailure) {
    return 'both DeletionStrategy.OnSuccess and DeletionStrategy.OnFailure must be set when using the legacy deletion policy fields of DeletionStrategy';
  }
  if (!onSuccess.policy) {
    return 'the DeletionPolicyType field of DeletionStrategy.OnSuccess cannot be unset when DeletionStrategy is enabled';
  }
  if (!onFailure.policy) {
    return 'the DeletionPolicyType field of DeletionStrategy.OnFailure cannot be unset when DeletionStrategy is enabled';
  }
  const touchesCluster = (p: DeletionPolicyType) => p === 'DeleteCluster' || p === 'DeleteWorkers';
  if (isClusterSelectorMode(spec)) {
    if (touchesCluster(onSuccess.policy)) {
      return `the ClusterSelector mode doesn't support DeletionStrategy=${onSuccess.policy} on success`;
    }
    if (touchesCluster(onFailure.policy)) {
      return `the ClusterSelector mode doesn't support DeletionStrategy=${onFailure.policy} on failure`;
    }
  }
  if ((onSuccess.policy === 'DeleteWorkers' || onFailure.policy === 'DeleteWorkers') && isAutoscaling(spec)) {
    return 'DeletionStrategy=DeleteWorkers currently does not support RayCluster with autoscaling enabled';
  }
  if (spec.shutdownAfterJobFinishes && (onSuccess.policy === 'DeleteNone' || onFailure.policy === 'DeleteNone')) {
    // "shutdownAfterJobFinshes" is KubeRay's spelling; kept so messages match.
    return `${SPEC_INVALID}shutdownAfterJobFinshes is set to 'true' while deletion policy is 'DeleteNone'`;
  }
  return undefined;
}

/** Per condition value, the TTL of each policy seen so far (in rule order). */
type PolicyTtls = Map<DeletionPolicyType, number>;

function validateDeletionRules(spec: RayJobSpec, rules: readonly DeletionRule[]): RuleError {
  const errors: string[] = [];
  const byJobStatus = new Map<string, PolicyTtls>();
  const byDeploymentStatus = new Map<string, PolicyTtls>();

  rules.forEach((rule, i) => {
    const conditionError = validateDeletionCondition(rule);
    if (conditionError) {
      errors.push(`deletionRules[${i}]: ${conditionError}`);
      return;
    }
    if (isClusterSelectorMode(spec) && (rule.policy === 'DeleteCluster' || rule.policy === 'DeleteWorkers')) {
      errors.push(`deletionRules[${i}]: DeletionPolicyType '${rule.policy}' not supported when ClusterSelector is set`);
      return;
    }
    if (isAutoscaling(spec) && rule.policy === 'DeleteWorkers') {
      errors.push(`deletionRules[${i}]: DeletionPolicyType 'DeleteWorkers' not supported with autoscaling enabled`);
      return;
    }
    const { jobStatus, jobDeploymentStatus, ttlSeconds } = rule.condition;
    const [groups, label, value] = jobStatus
      ? [byJobStatus, 'JobStatus', jobStatus]
      : [byDeploymentStatus, 'JobDeploymentStatus', jobDeploymentStatus as string];
    const ttls = groups.get(value) ?? new Map<DeletionPolicyType, number>();
    groups.set(value, ttls);
    if (ttls.has(rule.policy)) {
      errors.push(`deletionRules[${i}]: duplicate rule for DeletionPolicyType '${rule.policy}' and ${label} '${value}'`);
      return;
    }
    ttls.set(rule.policy, ttlSeconds);
  });

  for (const [value, ttls] of byJobStatus) errors.push(...ttlOrderErrors(ttls, 'JobStatus', value));
  for (const [value, ttls] of byDeploymentStatus) errors.push(...ttlOrderErrors(ttls, 'JobDeploymentStatus', value));
  return errors.length > 0 ? errors.join('\n') : undefined;
}

function validateDeletionCondition(rule: DeletionRule): RuleError {
  const hasJobStatus = rule.condition.jobStatus !== undefined;
  const hasDeploymentStatus = rule.condition.jobDeploymentStatus !== undefined;
  if (hasJobStatus && hasDeploymentStatus) return 'cannot set both JobStatus and JobDeploymentStatus at the same time';
  if (!hasJobStatus && !hasDeploymentStatus) return 'exactly one of JobStatus and JobDeploymentStatus must be set';
  if (rule.condition.ttlSeconds < 0) return 'TTLSeconds must be non-negative';
  return undefined;
}

/** Cleanup escalates: workers go no later than the cluster, the cluster no later than the RayJob itself. */
const DELETION_ORDER: readonly DeletionPolicyType[] = ['DeleteWorkers', 'DeleteCluster', 'DeleteSelf'];

function ttlOrderErrors(ttls: PolicyTtls, conditionType: string, conditionValue: string): string[] {
  const errors: string[] = [];
  let previous: { policy: DeletionPolicyType; ttl: number } | undefined;
  for (const policy of DELETION_ORDER) {
    const ttl = ttls.get(policy);
    if (ttl === undefined) continue;
    if (previous && ttl < previous.ttl) {
      errors.push(
        `for ${conditionType} '${conditionValue}': ${policy} TTL (${ttl}) must be >= ${previous.policy} TTL (${previous.ttl})`,
      );
    }
    previous = { policy, ttl };
  }
  return errors;
}
