// Runs a CRD schema's x-kubernetes-validations (CEL) over an object. Transition rules (those that use
// oldSelf) run only on update and only where the old value exists at the same place, as in Kubernetes.
import type { KubeObject } from '../../store/types.ts';
import { evaluateCel } from './cel.ts';
import { joinField, joinIndex, type Schema } from './crd-schema.ts';
import type { StatusCause } from '../errors/status.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const usesOldSelf = (rule: string): boolean => /\boldSelf\b/.test(rule);

function cause(path: string, typeName: string, reason: string | undefined, message: string): StatusCause {
  switch (reason) {
    case 'FieldValueForbidden':
      return { reason, message: `Forbidden: ${message}`, field: path };
    case 'FieldValueRequired':
      return { reason, message: `Required value: ${message}`, field: path };
    case 'FieldValueDuplicate':
      return { reason, message: `Duplicate value: ${message}`, field: path };
    default:
      return { reason: 'FieldValueInvalid', message: `Invalid value: "${typeName}": ${message}`, field: path };
  }
}

function visit(value: unknown, old: unknown, hasOld: boolean, schema: Schema, path: string, out: StatusCause[]): void {
  if (value === undefined || value === null) return;
  const typeName = schema.type ?? (schema['x-kubernetes-int-or-string'] ? 'string' : 'object');
  for (const rule of schema['x-kubernetes-validations'] ?? []) {
    if (usesOldSelf(rule.rule) && !hasOld && !rule.optionalOldSelf) continue;
    const where = rule.fieldPath ? joinField(path, rule.fieldPath.replace(/^\./, '')) : path;
    try {
      const env: Obj = { self: value };
      if (hasOld) env.oldSelf = old;
      const result = evaluateCel(rule.rule, env);
      if (result !== true) out.push(cause(where, typeName, rule.reason, rule.message ?? `failed rule: ${rule.rule}`));
    } catch (e) {
      out.push(cause(where, typeName, undefined, `${(e as Error).message} evaluating rule: ${rule.rule}`));
    }
  }
  if (isObj(value)) {
    const oldObj = hasOld && isObj(old) ? old : undefined;
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      if (value[key] === undefined) continue;
      visit(value[key], oldObj?.[key], oldObj !== undefined && key in oldObj, sub, joinField(path, key), out);
    }
    if (isObj(schema.additionalProperties)) {
      for (const [key, v] of Object.entries(value)) {
        visit(v, oldObj?.[key], oldObj !== undefined && key in oldObj, schema.additionalProperties as Schema, joinIndex(path, key), out);
      }
    }
  } else if (Array.isArray(value) && schema.items) {
    const keys = schema['x-kubernetes-list-type'] === 'map' ? (schema['x-kubernetes-list-map-keys'] ?? []) : undefined;
    const oldItems = hasOld && Array.isArray(old) ? old : [];
    value.forEach((item, i) => {
      // Only list-type=map items correlate with an old item (by their keys); others have no oldSelf.
      const match = keys && isObj(item) ? oldItems.find((o) => isObj(o) && keys.every((k) => o[k] === item[k])) : undefined;
      visit(item, match, match !== undefined, schema.items as Schema, joinIndex(path, i), out);
    });
  }
}

export function celValidate(obj: KubeObject, old: KubeObject | undefined, schema: Schema): StatusCause[] {
  const out: StatusCause[] = [];
  const rootRules = schema['x-kubernetes-validations'];
  if (rootRules?.length) visit(obj, old, old !== undefined, { ...schema, properties: {} }, '', out);
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    if (key === 'metadata' || (obj as Obj)[key] === undefined) continue;
    const oldObj = old as Obj | undefined;
    visit((obj as Obj)[key], oldObj?.[key], oldObj !== undefined && key in oldObj, sub, key, out);
  }
  return out;
}
