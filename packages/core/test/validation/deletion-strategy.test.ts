import { describe, expect, it } from 'vitest';
import type { RayJobInput } from '../../src/schema/rayjob.ts';
import { validateRayJob } from '../../src/validation/rayjob.ts';
import { basicClusterSpec, gatesOff, gatesOn, rayJob } from './fixtures.ts';

// KubeRay's deletion-strategy validation cases (reference §5.5 "Deletion", gate on unless stated).
const SPEC = 'The RayJob spec is invalid: ';
type Spec = NonNullable<RayJobInput['spec']>;
const cluster = basicClusterSpec();
const autoscaling = basicClusterSpec({ enableInTreeAutoscaling: true });
const selector = { 'ray.io/cluster': 'existing' };
const legacy = (onSuccess?: string, onFailure?: string) => ({
  ...(onSuccess !== undefined ? { onSuccess: onSuccess === '' ? {} : { policy: onSuccess } } : {}),
  ...(onFailure !== undefined ? { onFailure: onFailure === '' ? {} : { policy: onFailure } } : {}),
}) as Spec['deletionStrategy'];
type RuleInput = { policy: string; jobStatus?: string; jobDeploymentStatus?: string; ttlSeconds?: number };
const rules = (...list: RuleInput[]) =>
  ({
    deletionRules: list.map(({ policy, ...condition }) => ({ policy, condition })),
  }) as Spec['deletionStrategy'];

const cases: { name: string; spec: Spec; message: string | undefined }[] = [
  {
    name: 'clusterSelector with legacy DeleteCluster on success',
    spec: { clusterSelector: selector, deletionStrategy: legacy('DeleteCluster', 'DeleteNone') },
    message: "the ClusterSelector mode doesn't support DeletionStrategy=DeleteCluster on success",
  },
  {
    name: 'clusterSelector with legacy DeleteWorkers on failure',
    spec: { clusterSelector: selector, deletionStrategy: legacy('DeleteSelf', 'DeleteWorkers') },
    message: "the ClusterSelector mode doesn't support DeletionStrategy=DeleteWorkers on failure",
  },
  {
    name: 'autoscaling with legacy DeleteWorkers',
    spec: { rayClusterSpec: autoscaling, deletionStrategy: legacy('DeleteWorkers', 'DeleteCluster') },
    message: 'DeletionStrategy=DeleteWorkers currently does not support RayCluster with autoscaling enabled',
  },
  { name: 'valid legacy DeleteCluster', spec: { rayClusterSpec: cluster, deletionStrategy: legacy('DeleteCluster', 'DeleteCluster') }, message: undefined },
  { name: 'no deletion strategy', spec: { rayClusterSpec: cluster }, message: undefined },
  {
    name: 'shutdown with legacy DeleteNone',
    spec: { rayClusterSpec: cluster, shutdownAfterJobFinishes: true, deletionStrategy: legacy('DeleteNone', 'DeleteCluster') },
    message: `${SPEC}shutdownAfterJobFinshes is set to 'true' while deletion policy is 'DeleteNone'`,
  },
  {
    name: 'legacy onSuccess without onFailure',
    spec: { rayClusterSpec: cluster, deletionStrategy: legacy('DeleteCluster') },
    message: 'both DeletionStrategy.OnSuccess and DeletionStrategy.OnFailure must be set when using the legacy deletion policy fields of DeletionStrategy',
  },
  {
    name: 'legacy onFailure without onSuccess',
    spec: { rayClusterSpec: cluster, deletionStrategy: legacy(undefined, 'DeleteCluster') },
    message: 'both DeletionStrategy.OnSuccess and DeletionStrategy.OnFailure must be set when using the legacy deletion policy fields of DeletionStrategy',
  },
  {
    name: 'legacy onSuccess without a policy',
    spec: { rayClusterSpec: cluster, deletionStrategy: legacy('', 'DeleteCluster') },
    message: 'the DeletionPolicyType field of DeletionStrategy.OnSuccess cannot be unset when DeletionStrategy is enabled',
  },
  {
    name: 'legacy onFailure without a policy',
    spec: { rayClusterSpec: cluster, deletionStrategy: legacy('DeleteCluster', '') },
    message: 'the DeletionPolicyType field of DeletionStrategy.OnFailure cannot be unset when DeletionStrategy is enabled',
  },
  {
    name: 'valid rules',
    spec: { rayClusterSpec: cluster, deletionStrategy: rules({ policy: 'DeleteCluster', jobStatus: 'SUCCEEDED', ttlSeconds: 10 }) },
    message: undefined,
  },
  {
    name: 'rules with shutdownAfterJobFinishes',
    spec: { rayClusterSpec: cluster, shutdownAfterJobFinishes: true, deletionStrategy: rules({ policy: 'DeleteCluster', jobStatus: 'SUCCEEDED' }) },
    message: `${SPEC}spec.shutdownAfterJobFinishes and spec.deletionStrategy.deletionRules are mutually exclusive`,
  },
  {
    name: 'rules with legacy fields',
    spec: {
      rayClusterSpec: cluster,
      deletionStrategy: { ...legacy('DeleteCluster', 'DeleteCluster'), ...rules({ policy: 'DeleteCluster', jobStatus: 'SUCCEEDED' }) },
    },
    message: `${SPEC}Cannot use both legacy onSuccess/onFailure fields and deletionRules simultaneously`,
  },
  {
    name: 'empty deletion strategy',
    spec: { rayClusterSpec: cluster, deletionStrategy: {} },
    message: `${SPEC}DeletionStrategy requires either BOTH onSuccess and onFailure, OR the deletionRules field (cannot be empty)`,
  },
  {
    name: 'empty rules list',
    spec: { rayClusterSpec: cluster, deletionStrategy: { deletionRules: [] } },
    message: `${SPEC}DeletionStrategy requires either BOTH onSuccess and onFailure, OR the deletionRules field (cannot be empty)`,
  },
  {
    name: 'duplicate rule',
    spec: {
      rayClusterSpec: cluster,
      deletionStrategy: rules(
        { policy: 'DeleteCluster', jobStatus: 'FAILED', ttlSeconds: 10 },
        { policy: 'DeleteCluster', jobStatus: 'FAILED', ttlSeconds: 20 },
      ),
    },
    message: "deletionRules[1]: duplicate rule for DeletionPolicyType 'DeleteCluster' and JobStatus 'FAILED'",
  },
  {
    name: 'negative ttlSeconds',
    spec: { rayClusterSpec: cluster, deletionStrategy: rules({ policy: 'DeleteCluster', jobStatus: 'FAILED', ttlSeconds: -1 }) },
    message: 'deletionRules[0]: TTLSeconds must be non-negative',
  },
  {
    name: 'clusterSelector with a DeleteWorkers rule',
    spec: { clusterSelector: selector, deletionStrategy: rules({ policy: 'DeleteWorkers', jobStatus: 'FAILED' }) },
    message: "deletionRules[0]: DeletionPolicyType 'DeleteWorkers' not supported when ClusterSelector is set",
  },
  {
    name: 'clusterSelector with a DeleteCluster rule',
    spec: { clusterSelector: selector, deletionStrategy: rules({ policy: 'DeleteCluster', jobStatus: 'FAILED' }) },
    message: "deletionRules[0]: DeletionPolicyType 'DeleteCluster' not supported when ClusterSelector is set",
  },
  {
    name: 'clusterSelector with DeleteSelf and DeleteNone rules (accepted, see compatibility notes)',
    spec: {
      clusterSelector: selector,
      deletionStrategy: rules({ policy: 'DeleteSelf', jobStatus: 'FAILED' }, { policy: 'DeleteNone', jobStatus: 'SUCCEEDED' }),
    },
    message: undefined,
  },
  {
    name: 'autoscaling with a DeleteWorkers rule',
    spec: { rayClusterSpec: autoscaling, deletionStrategy: rules({ policy: 'DeleteWorkers', jobStatus: 'FAILED' }) },
    message: "deletionRules[0]: DeletionPolicyType 'DeleteWorkers' not supported with autoscaling enabled",
  },
  {
    name: 'DeleteCluster TTL below DeleteWorkers TTL',
    spec: {
      rayClusterSpec: cluster,
      deletionStrategy: rules(
        { policy: 'DeleteWorkers', jobStatus: 'FAILED', ttlSeconds: 10 },
        { policy: 'DeleteCluster', jobStatus: 'FAILED', ttlSeconds: 5 },
      ),
    },
    message: "for JobStatus 'FAILED': DeleteCluster TTL (5) must be >= DeleteWorkers TTL (10)",
  },
  {
    name: 'DeleteSelf TTL below DeleteCluster TTL',
    spec: {
      rayClusterSpec: cluster,
      deletionStrategy: rules(
        { policy: 'DeleteCluster', jobStatus: 'SUCCEEDED', ttlSeconds: 20 },
        { policy: 'DeleteSelf', jobStatus: 'SUCCEEDED', ttlSeconds: 10 },
      ),
    },
    message: "for JobStatus 'SUCCEEDED': DeleteSelf TTL (10) must be >= DeleteCluster TTL (20)",
  },
  {
    name: 'valid complex rules (staged cleanup per status, DeleteNone ignored in the order)',
    spec: {
      rayClusterSpec: cluster,
      deletionStrategy: rules(
        { policy: 'DeleteWorkers', jobStatus: 'SUCCEEDED', ttlSeconds: 0 },
        { policy: 'DeleteCluster', jobStatus: 'SUCCEEDED', ttlSeconds: 30 },
        { policy: 'DeleteSelf', jobStatus: 'SUCCEEDED', ttlSeconds: 60 },
        { policy: 'DeleteNone', jobStatus: 'FAILED', ttlSeconds: 100 },
        { policy: 'DeleteCluster', jobStatus: 'FAILED', ttlSeconds: 5 },
      ),
    },
    message: undefined,
  },
  {
    name: 'a JobDeploymentStatus=Failed rule',
    spec: { rayClusterSpec: cluster, deletionStrategy: rules({ policy: 'DeleteCluster', jobDeploymentStatus: 'Failed', ttlSeconds: 10 }) },
    message: undefined,
  },
  {
    name: 'a condition with both jobStatus and jobDeploymentStatus',
    spec: { rayClusterSpec: cluster, deletionStrategy: rules({ policy: 'DeleteCluster', jobStatus: 'FAILED', jobDeploymentStatus: 'Failed' }) },
    message: 'deletionRules[0]: cannot set both JobStatus and JobDeploymentStatus at the same time',
  },
  {
    name: 'a condition with neither field',
    spec: { rayClusterSpec: cluster, deletionStrategy: rules({ policy: 'DeleteCluster' }) },
    message: 'deletionRules[0]: exactly one of JobStatus and JobDeploymentStatus must be set',
  },
  {
    name: 'duplicate JobDeploymentStatus rule',
    spec: {
      rayClusterSpec: cluster,
      deletionStrategy: rules({ policy: 'DeleteSelf', jobDeploymentStatus: 'Failed' }, { policy: 'DeleteSelf', jobDeploymentStatus: 'Failed' }),
    },
    message: "deletionRules[1]: duplicate rule for DeletionPolicyType 'DeleteSelf' and JobDeploymentStatus 'Failed'",
  },
  {
    name: 'mixed jobStatus and jobDeploymentStatus rules',
    spec: {
      rayClusterSpec: cluster,
      deletionStrategy: rules(
        { policy: 'DeleteCluster', jobStatus: 'FAILED', ttlSeconds: 10 },
        { policy: 'DeleteCluster', jobDeploymentStatus: 'Failed', ttlSeconds: 10 },
      ),
    },
    message: undefined,
  },
  {
    name: 'JobDeploymentStatus TTL order violation',
    spec: {
      rayClusterSpec: cluster,
      deletionStrategy: rules(
        { policy: 'DeleteCluster', jobDeploymentStatus: 'Failed', ttlSeconds: 5 },
        { policy: 'DeleteWorkers', jobDeploymentStatus: 'Failed', ttlSeconds: 10 },
      ),
    },
    message: "for JobDeploymentStatus 'Failed': DeleteCluster TTL (5) must be >= DeleteWorkers TTL (10)",
  },
  {
    name: 'every rule error is reported, joined by newlines',
    spec: {
      rayClusterSpec: cluster,
      deletionStrategy: rules(
        { policy: 'DeleteCluster' },
        { policy: 'DeleteSelf', jobStatus: 'FAILED', ttlSeconds: 1 },
        { policy: 'DeleteCluster', jobStatus: 'FAILED', ttlSeconds: 2 },
      ),
    },
    message:
      "deletionRules[0]: exactly one of JobStatus and JobDeploymentStatus must be set\nfor JobStatus 'FAILED': DeleteSelf TTL (1) must be >= DeleteCluster TTL (2)",
  },
];

describe('deletion strategy validation (gate RayJobDeletionPolicy on)', () => {
  it.each(cases)('$name', ({ spec, message }) => {
    expect(validateRayJob(rayJob(spec), gatesOn)).toEqual(
      message === undefined ? { ok: true } : { ok: false, eventReason: 'InvalidRayJobSpec', message },
    );
  });
});

describe('deletion strategy validation (gate off)', () => {
  it('rejects any deletionStrategy', () => {
    const job = rayJob({ rayClusterSpec: cluster, deletionStrategy: legacy('DeleteCluster', 'DeleteCluster') });
    expect(validateRayJob(job, gatesOff)).toEqual({
      ok: false,
      eventReason: 'InvalidRayJobSpec',
      message: 'RayJobDeletionPolicy feature gate must be enabled to use DeletionStrategy',
    });
  });

  it('still accepts a RayJob without one', () => {
    expect(validateRayJob(rayJob({ rayClusterSpec: cluster }), gatesOff)).toEqual({ ok: true });
  });
});
