// Validation of CustomResourceDefinition objects themselves: names, versions, and CEL rules that must
// compile (the real server rejects a CRD whose x-kubernetes-validations do not compile).
import type { KubeObject } from '../../store/types.ts';
import { checkCelSyntax } from './cel.ts';
import type { Schema } from './crd-schema.ts';
import { invalidValue, requiredValue } from '../errors/field-errors.ts';
import type { StatusCause } from '../errors/status.ts';

type Obj = Record<string, unknown>;

/** `path` is built only when a rule is found: generated CRDs embed pod templates tens of levels deep. */
function walkRules(schema: Schema | undefined, path: () => string, out: StatusCause[]): void {
  if (!schema || typeof schema !== 'object') return;
  (schema['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const err = typeof rule.rule === 'string' ? checkCelSyntax(rule.rule) : 'rule must be a string';
    if (err) out.push(invalidValue(`${path()}.x-kubernetes-validations[${i}].rule`, rule.rule, `compilation failed: ${err}`));
  });
  for (const [key, sub] of Object.entries(schema.properties ?? {})) walkRules(sub, () => `${path()}.properties[${key}]`, out);
  if (schema.items) walkRules(schema.items, () => `${path()}.items`, out);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') walkRules(schema.additionalProperties, () => `${path()}.additionalProperties`, out);
}

export function validateCrd(crd: KubeObject): StatusCause[] {
  const out: StatusCause[] = [];
  const spec = (crd.spec ?? {}) as Obj;
  const names = (spec.names ?? {}) as Obj;
  const group = spec.group as string | undefined;
  if (!group) out.push(requiredValue('spec.group'));
  if (!names.plural) out.push(requiredValue('spec.names.plural'));
  if (!names.kind) out.push(requiredValue('spec.names.kind'));
  if (group && names.plural && crd.metadata.name !== `${String(names.plural)}.${group}`) {
    out.push(invalidValue('metadata.name', crd.metadata.name, 'must be spec.names.plural+"."+spec.group'));
  }
  if (spec.scope !== 'Namespaced' && spec.scope !== 'Cluster') {
    out.push({ reason: 'FieldValueNotSupported', message: `Unsupported value: ${JSON.stringify(spec.scope ?? '')}: supported values: "Cluster", "Namespaced"`, field: 'spec.scope' });
  }
  const versions = (spec.versions as Obj[] | undefined) ?? [];
  if (versions.length === 0) out.push(requiredValue('spec.versions', 'must have at least one version'));
  const storage = versions.filter((v) => v.storage === true).length;
  if (versions.length > 0 && storage !== 1) out.push(invalidValue('spec.versions', versions.map((v) => v.name), 'must have exactly one version marked as storage version'));
  versions.forEach((v, i) => walkRules((v.schema as Obj | undefined)?.openAPIV3Schema as Schema | undefined, () => `spec.versions[${i}].schema.openAPIV3Schema`, out));
  return out;
}
