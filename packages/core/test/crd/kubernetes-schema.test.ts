import { describe, expect, it } from 'vitest';
import { KUBERNETES_DEFINITIONS, KUBERNETES_VERSION } from '../../src/crd/kubernetes-definitions.generated.ts';
import { KubernetesSchemaError, kubernetesSchema } from '../../src/crd/kubernetes-schema.ts';
import { checkStructuralSchema, preservedUnknownFieldPaths } from '../../src/crd/structural-check.ts';
import type { OpenApiSchema } from '../../src/crd/structural-schema.ts';
import { QUANTITY_PATTERN } from '@rayjob/kube-model';

const EMBEDDED = [
  'io.k8s.api.core.v1.PodTemplateSpec',
  'io.k8s.api.core.v1.Service',
  'io.k8s.api.core.v1.EnvVar',
  'io.k8s.api.core.v1.EnvVarSource',
  'io.k8s.api.core.v1.EnvFromSource',
  'io.k8s.api.core.v1.ResourceRequirements',
  'io.k8s.api.core.v1.SecurityContext',
  'io.k8s.api.core.v1.VolumeMount',
  'io.k8s.api.networking.v1.IngressTLS',
  'io.k8s.api.networking.v1.NetworkPolicyIngressRule',
  'io.k8s.api.networking.v1.NetworkPolicyEgressRule',
];

/** Follows "a.b[].c" through properties and items. */
function at(schema: OpenApiSchema, path: string): OpenApiSchema {
  let current = schema;
  for (const part of path.split('.')) {
    current = (current.properties as Record<string, OpenApiSchema>)[part.replace(/\[\]$/, '')] as OpenApiSchema;
    expect(current, `no schema at ${path}`).toBeDefined();
    if (part.endsWith('[]')) current = current.items as OpenApiSchema;
  }
  return current;
}

/** Every key used anywhere in a schema tree (property names excluded). */
function keywords(node: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((n) => keywords(n, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'default' || key === 'x-kubernetes-list-map-keys' || key === 'required') {
        out.add(key);
        continue;
      }
      if (key === 'properties') {
        out.add(key);
        Object.values(value as object).forEach((child) => keywords(child, out));
        continue;
      }
      out.add(key);
      keywords(value, out);
    }
  }
  return out;
}

const pod = kubernetesSchema('io.k8s.api.core.v1.PodTemplateSpec');

describe('Kubernetes types as structural schemas', () => {
  it('come from a recorded Kubernetes release', () => {
    expect(KUBERNETES_VERSION).toMatch(/^v1\.\d+\.\d+$/);
    expect(Object.keys(KUBERNETES_DEFINITIONS)).toEqual(expect.arrayContaining(EMBEDDED));
  });

  it.each(EMBEDDED)('%s is structural', (name) => {
    expect(checkStructuralSchema(kubernetesSchema(name))).toEqual([]);
  });

  it('inline every reference and carry no prose', () => {
    const used = keywords(pod);
    for (const forbidden of ['$ref', 'allOf', 'oneOf', 'description', 'x-kubernetes-patch-merge-key', 'x-kubernetes-patch-strategy']) {
      expect(used.has(forbidden), forbidden).toBe(false);
    }
  });

  it.each([
    { name: 'a required field', path: 'spec', expected: expect.objectContaining({ required: ['containers'] }) },
    { name: 'a real default', path: 'spec.containers[].ports[].protocol', expected: { type: 'string', default: 'TCP' } },
    { name: 'no zero-value default', path: 'spec.containers[].ports[].containerPort', expected: { type: 'integer', format: 'int32' } },
    { name: 'the zero default a list-map key needs', path: 'spec.imagePullSecrets[].name', expected: { type: 'string', default: '' } },
    {
      name: 'list-map markers',
      path: 'spec.containers[].ports',
      expected: expect.objectContaining({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['containerPort', 'protocol'] }),
    },
    { name: 'an atomic list', path: 'spec.containers[].securityContext.capabilities.add', expected: expect.objectContaining({ 'x-kubernetes-list-type': 'atomic' }) },
    { name: 'an atomic map', path: 'spec.nodeSelector', expected: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' } },
    {
      name: 'a quantity',
      path: 'spec.containers[].resources.requests',
      expected: { type: 'object', additionalProperties: { anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: QUANTITY_PATTERN, 'x-kubernetes-int-or-string': true } },
    },
    { name: 'an int-or-string', path: 'spec.containers[].livenessProbe.httpGet.port', expected: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true } },
    { name: 'a format', path: 'spec.terminationGracePeriodSeconds', expected: { type: 'integer', format: 'int64' } },
    { name: 'a time', path: 'metadata.creationTimestamp', expected: { type: 'string', format: 'date-time' } },
    { name: 'an object without fields keeps its content', path: 'metadata.managedFields[].fieldsV1', expected: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
  ])('$name ($path)', ({ path, expected }) => {
    expect(at(pod, path)).toEqual(expected);
  });

  it('keep unknown fields only where Kubernetes has free-form content', () => {
    expect(preservedUnknownFieldPaths(pod)).toEqual([
      '.metadata.managedFields[].fieldsV1',
      '.spec.volumes[].ephemeral.volumeClaimTemplate.metadata.managedFields[].fieldsV1',
    ]);
  });

  it.each<{ name: string; definitions: Record<string, OpenApiSchema>; error: RegExp }>([
    { name: 'a type that contains itself', definitions: { T: { type: 'object', properties: { child: { $ref: 'T' } } } }, error: /T\.child: T refers to itself/ },
    { name: 'a node without a type', definitions: { T: { properties: { a: {} }, type: 'object' } }, error: /T\.a: no type/ },
    { name: 'an unknown keyword', definitions: { T: { type: 'string', pattern: 'x' } }, error: /T: keyword pattern is not handled/ },
    { name: 'a oneOf outside Quantity/IntOrString', definitions: { T: { oneOf: [{ type: 'string' }] } }, error: /T: oneOf outside/ },
    { name: 'an allOf of two schemas', definitions: { T: { allOf: [{ $ref: 'U' }, { $ref: 'U' }] }, U: { type: 'string' } }, error: /T: allOf other than one reference/ },
    { name: 'an array without items', definitions: { T: { type: 'array' } }, error: /T: array without items/ },
  ])('refuse $name', ({ definitions, error }) => {
    expect(() => kubernetesSchema('T', definitions)).toThrow(error);
  });

  it('keep a zero default only on a list-map key that is not required', () => {
    const definitions = {
      T: { type: 'object', properties: { list: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { allOf: [{ $ref: 'I' }], default: {} } } } },
      I: { type: 'object', properties: { k: { type: 'string', default: '' }, v: { type: 'string', default: '' } } },
    };
    expect(kubernetesSchema('T', definitions)).toEqual({
      type: 'object',
      properties: {
        list: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['k'],
          items: { type: 'object', properties: { k: { type: 'string', default: '' }, v: { type: 'string' } } },
        },
      },
    });
  });

  it('reject a definition the extraction does not hold, naming the fix', () => {
    expect(() => kubernetesSchema('io.k8s.api.apps.v1.Deployment')).toThrow(KubernetesSchemaError);
    expect(() => kubernetesSchema('io.k8s.api.apps.v1.Deployment')).toThrow(/re-run tools\/extract-kubernetes-openapi.ts/);
  });
});
