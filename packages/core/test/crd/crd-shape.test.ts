import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RAYCLUSTER_PRINTER_COLUMNS, RAYJOB_PRINTER_COLUMNS, rayClusterCrd, rayJobCrd } from '../../src/crd/definitions.ts';
import { generateCrdFiles } from '../../src/crd/render-yaml.ts';
import { checkStructuralSchema, preservedUnknownFieldPaths } from '../../src/crd/structural-check.ts';
import type { OpenApiSchema } from '../../src/crd/structural-schema.ts';
import { QUANTITY_PATTERN } from '@rayjob/kube-model';

type Crd = {
  metadata: { name: string };
  spec: {
    group: string;
    scope: string;
    names: Record<string, unknown>;
    versions: { name: string; served: boolean; storage: boolean; subresources?: unknown; additionalPrinterColumns?: unknown[]; schema: { openAPIV3Schema: OpenApiSchema } }[];
  };
};
const files = generateCrdFiles();
const rayJob = parse(files['ray.io_rayjobs.yaml'] as string) as Crd;
const rayCluster = parse(files['ray.io_rayclusters.yaml'] as string) as Crd;
const v1 = (crd: Crd) => crd.spec.versions.find((v) => v.name === 'v1')!;

/** Follows a dotted path of property names through a schema ("spec.deletionStrategy.deletionRules[]"). */
function node(crd: Crd, path: string): OpenApiSchema {
  let current: OpenApiSchema = v1(crd).schema.openAPIV3Schema;
  for (const part of path.split('.')) {
    const name = part.replace(/\[\]$/, '');
    current = (current.properties as Record<string, OpenApiSchema>)[name] as OpenApiSchema;
    expect(current, `no schema at ${path}`).toBeDefined();
    if (part.endsWith('[]')) current = current.items as OpenApiSchema;
  }
  return current;
}

describe.each([
  { kind: 'RayJob', crd: rayJob, object: rayJobCrd(), plural: 'rayjobs', columns: RAYJOB_PRINTER_COLUMNS },
  { kind: 'RayCluster', crd: rayCluster, object: rayClusterCrd(), plural: 'rayclusters', columns: RAYCLUSTER_PRINTER_COLUMNS },
])('$kind CRD', ({ kind, crd, object, plural, columns }) => {
  it('renders the same object it builds', () => {
    expect(crd).toEqual(object);
  });

  it('has KubeRay identity: group, names, category all, namespaced', () => {
    expect(crd.metadata.name).toBe(`${plural}.ray.io`);
    expect(crd.spec.group).toBe('ray.io');
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.names).toEqual({ categories: ['all'], kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() });
  });

  it('serves and stores only v1, with the status subresource', () => {
    expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([
      ['v1', true, true],
      ['v1alpha1', false, false],
    ]);
    expect(v1(crd).subresources).toEqual({ status: {} });
  });

  it('has the printer columns in KubeRay order', () => {
    expect(v1(crd).additionalPrinterColumns).toEqual(
      columns.map((c) => ({ jsonPath: c.jsonPath, name: c.name, ...(c.priority ? { priority: c.priority } : {}), type: c.type })),
    );
  });

  it.each(['v1', 'v1alpha1'])('%s schema is structural, with valid defaults', (version) => {
    const schema = crd.spec.versions.find((v) => v.name === version)!.schema.openAPIV3Schema;
    expect(checkStructuralSchema(schema)).toEqual([]);
  });

  it('keeps unknown fields only in Kubernetes\' free-form managedFields[].fieldsV1', () => {
    const paths = preservedUnknownFieldPaths(v1(crd).schema.openAPIV3Schema);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => !p.endsWith('.metadata.managedFields[].fieldsV1'))).toEqual([]);
  });

  it('fits client-side kubectl apply: its JSON stays below the 256 KiB annotation limit', () => {
    // kubectl copies the whole object into the last-applied-configuration annotation (crds/README.md).
    expect(JSON.stringify(crd).length).toBeLessThan(256 * 1024);
  });

  it('lets spec.managedBy be set once to one of the accepted controllers', () => {
    const managedBy = node(crd, kind === 'RayJob' ? 'spec.managedBy' : 'spec.managedBy');
    expect(managedBy['x-kubernetes-validations']).toEqual([
      { rule: 'self == oldSelf', message: 'the managedBy field is immutable' },
      {
        rule: "self in ['ray.io/kuberay-operator', 'kueue.x-k8s.io/multikueue', 'rayjob.io/operator']",
        message: "the managedBy field value must be one of 'ray.io/kuberay-operator', 'kueue.x-k8s.io/multikueue' or 'rayjob.io/operator'",
      },
    ]);
  });
});

describe('RayJob CRD schema details', () => {
  it('printer columns are exactly those of the reference (§1.2)', () => {
    expect(RAYJOB_PRINTER_COLUMNS.map((c) => `${c.name}|${c.type}|${c.jsonPath}`)).toEqual([
      'job status|string|.status.jobStatus',
      'deployment status|string|.status.jobDeploymentStatus',
      'ray cluster name|string|.status.rayClusterName',
      'start time|string|.status.startTime',
      'end time|string|.status.endTime',
      'age|date|.metadata.creationTimestamp',
    ]);
  });

  it.each([
    { path: 'spec.backoffLimit', expected: { default: 0, format: 'int32', type: 'integer' } },
    { path: 'spec.ttlSecondsAfterFinished', expected: { default: 0, format: 'int32', type: 'integer' } },
    { path: 'spec.submissionMode', expected: { default: 'K8sJobMode', type: 'string' } },
    { path: 'spec.preRunningDeadlineSeconds', expected: { format: 'int32', minimum: 1, type: 'integer' } },
    { path: 'spec.activeDeadlineSeconds', expected: { format: 'int32', type: 'integer' } },
    { path: 'spec.entrypointNumCpus', expected: { type: 'number' } },
    { path: 'spec.clusterSelector', expected: { additionalProperties: { type: 'string' }, type: 'object' } },
    { path: 'spec.submitterPodTemplate.spec.containers[].ports[].protocol', expected: { default: 'TCP', type: 'string' } },
    { path: 'spec.submitterPodTemplate.spec.containers[].name', expected: { type: 'string' } },
    { path: 'spec.deletionStrategy.deletionRules[].condition.ttlSeconds', expected: { default: 0, format: 'int32', minimum: 0, type: 'integer' } },
    { path: 'spec.deletionStrategy.deletionRules[].condition.jobStatus', expected: { enum: ['SUCCEEDED', 'FAILED'], type: 'string' } },
    { path: 'spec.deletionStrategy.deletionRules[].condition.jobDeploymentStatus', expected: { enum: ['Failed'], type: 'string' } },
    { path: 'spec.deletionStrategy.onSuccess.policy', expected: { enum: ['DeleteCluster', 'DeleteWorkers', 'DeleteSelf', 'DeleteNone'], type: 'string' } },
    {
      path: 'spec.rayClusterSpec.headGroupSpec.template.spec.containers[].resources.limits',
      expected: { additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: QUANTITY_PATTERN, 'x-kubernetes-int-or-string': true }, type: 'object' },
    },
    {
      path: 'spec.rayClusterSpec.headGroupSpec.template.spec.tolerations',
      expected: { items: expect.objectContaining({ type: 'object' }), type: 'array', 'x-kubernetes-list-type': 'atomic' },
    },
    { path: 'spec.rayClusterSpec.headGroupSpec.template.spec.imagePullSecrets[].name', expected: { default: '', type: 'string' } },
    { path: 'spec.rayClusterSpec.headGroupSpec.headService.spec.ports[].targetPort', expected: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true } },
    { path: 'spec.rayClusterSpec.autoscalerOptions.env[].valueFrom.secretKeyRef.key', expected: { type: 'string' } },
    { path: 'spec.rayClusterSpec.workerGroupSpecs[].maxReplicas', expected: { default: 2147483647, format: 'int32', type: 'integer' } },
    { path: 'status.failed', expected: { default: 0, format: 'int32', type: 'integer' } },
    { path: 'status.succeeded', expected: { default: 0, format: 'int32', type: 'integer' } },
    { path: 'status.jobStatus', expected: { type: 'string' } },
    { path: 'status.jobDeploymentStatus', expected: { type: 'string' } },
    { path: 'status.reason', expected: { type: 'string' } },
    { path: 'status.startTime', expected: { format: 'date-time', type: 'string' } },
    { path: 'status.observedGeneration', expected: { format: 'int64', type: 'integer' } },
    { path: 'status.rayClusterStatus.lastUpdateTime', expected: { format: 'date-time', nullable: true, type: 'string' } },
  ])('$path', ({ path, expected }) => {
    const { description: _description, ...shape } = node(rayJob, path);
    expect(shape).toEqual(expected);
  });

  it('describes every RayJob and RayCluster spec field in our own words, and nothing inside Kubernetes types', () => {
    for (const path of ['spec', 'spec.rayClusterSpec']) {
      const spec = node(rayJob, path).properties as Record<string, OpenApiSchema>;
      expect(Object.entries(spec).filter(([, field]) => typeof field.description !== 'string' || field.description.length < 15).map(([name]) => name)).toEqual([]);
    }
    const { description: _own, ...template } = node(rayJob, 'spec.submitterPodTemplate');
    expect(JSON.stringify(template)).not.toContain('"description"');
  });

  it('declares every spec and status field of KubeRay v1', () => {
    const spec = Object.keys(node(rayJob, 'spec').properties as object).sort();
    expect(spec).toEqual(
      [
        'activeDeadlineSeconds', 'backoffLimit', 'rayClusterSpec', 'submitterPodTemplate', 'metadata', 'clusterSelector',
        'submitterConfig', 'managedBy', 'deletionStrategy', 'entrypoint', 'runtimeEnvYAML', 'jobId', 'submissionMode',
        'entrypointResources', 'entrypointNumCpus', 'entrypointNumGpus', 'ttlSecondsAfterFinished',
        'preRunningDeadlineSeconds', 'shutdownAfterJobFinishes', 'suspend',
      ].sort(),
    );
    const status = Object.keys(node(rayJob, 'status').properties as object).sort();
    expect(status).toEqual(
      [
        'rayJobInfo', 'jobId', 'rayClusterName', 'dashboardURL', 'jobStatus', 'jobDeploymentStatus', 'reason', 'message',
        'startTime', 'endTime', 'succeeded', 'failed', 'rayClusterStatus', 'jobStatusCheckFailureStartTime', 'observedGeneration',
        // Ours, additive: the summary conditions with their evidence.
        'conditions',
      ].sort(),
    );
  });

  it('carries the deletionStrategy and DeletionCondition CEL rules with KubeRay messages', () => {
    const strategy = node(rayJob, 'spec.deletionStrategy');
    expect(strategy['x-kubernetes-validations']).toEqual([
      {
        rule: '!((has(self.onSuccess) || has(self.onFailure)) && has(self.deletionRules))',
        message: 'legacy policies (onSuccess/onFailure) and deletionRules cannot be used together within the same deletionStrategy',
      },
      {
        rule: '((has(self.onSuccess) && has(self.onFailure)) || has(self.deletionRules))',
        message: 'deletionStrategy requires either BOTH onSuccess and onFailure, OR the deletionRules field (cannot be empty)',
      },
    ]);
    expect(node(rayJob, 'spec.deletionStrategy.deletionRules[].condition')['x-kubernetes-validations']).toEqual([
      {
        rule: '!(has(self.jobStatus) && has(self.jobDeploymentStatus))',
        message: 'JobStatus and JobDeploymentStatus cannot be used together within the same deletion condition.',
      },
      {
        rule: 'has(self.jobStatus) || has(self.jobDeploymentStatus)',
        message: 'the deletion condition requires either the JobStatus or the JobDeploymentStatus field.',
      },
    ]);
    const rules = node(rayJob, 'spec.deletionStrategy.deletionRules');
    expect([rules.minItems, rules['x-kubernetes-list-type']]).toEqual([1, 'atomic']);
    expect(node(rayJob, 'spec.deletionStrategy.deletionRules[]').required).toEqual(['condition', 'policy']);
  });
});

describe('RayCluster CRD schema details', () => {
  it.each([
    { path: 'spec', required: ['headGroupSpec'] },
    { path: 'spec.headGroupSpec', required: ['template'] },
    { path: 'spec.workerGroupSpecs[]', required: ['groupName', 'maxReplicas', 'minReplicas', 'template'] },
  ])('$path requires $required', ({ path, required }) => {
    expect(node(rayCluster, path).required).toEqual(required);
  });

  it.each([
    { path: 'status.desiredCPU', expectPattern: true },
    { path: 'spec.gcsFaultToleranceOptions.storage.size', expectPattern: true },
  ])('$path is an int-or-string quantity', ({ path }) => {
    const quantity = node(rayCluster, path);
    expect(quantity.anyOf).toEqual([{ type: 'integer' }, { type: 'string' }]);
    expect(quantity['x-kubernetes-int-or-string']).toBe(true);
    expect(typeof quantity.pattern).toBe('string');
  });

  it('keys status.conditions and networkPolicy.workerGroups as maps', () => {
    expect(node(rayCluster, 'status.conditions')['x-kubernetes-list-map-keys']).toEqual(['type']);
    expect(node(rayCluster, 'spec.networkPolicy.workerGroups')['x-kubernetes-list-map-keys']).toEqual(['groupName']);
    expect(node(rayCluster, 'spec.networkPolicy.mode').default).toBe('DenyAll');
  });

  it('keeps gcsFaultToleranceOptions.backend immutable', () => {
    expect(node(rayCluster, 'spec.gcsFaultToleranceOptions.backend')['x-kubernetes-validations']).toEqual([
      { rule: 'self == oldSelf', message: 'gcsFaultToleranceOptions.backend is immutable' },
    ]);
  });
});
