// Structural-schema behaviour of a CRD's openAPIV3Schema: pruning of unknown fields, defaulting, and
// validation (types, enum, bounds, lengths, pattern, required, item counts), with kube-apiserver's wording.
import type { KubeObject } from '../../store/types.ts';
import { duplicateValue, goMapLiteral, invalidValue, renderValue, requiredValue, tooMany, unsupportedValue } from '../errors/field-errors.ts';
import type { StatusCause } from '../errors/status.ts';

export interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  required?: string[];
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  nullable?: boolean;
  default?: unknown;
  format?: string;
  anyOf?: Schema[];
  allOf?: Schema[];
  oneOf?: Schema[];
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-validations'?: Array<{ rule: string; message?: string; messageExpression?: string; reason?: string; fieldPath?: string; optionalOldSelf?: boolean }>;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  [key: string]: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Path rendering used in messages: `spec.items[0].name`, map keys as `spec.labels[key]`. */
export const joinField = (base: string, key: string): string => (base === '' ? key : `${base}.${key}`);
export const joinIndex = (base: string, index: number | string): string => `${base}[${index}]`;

const metaKeys = new Set(['apiVersion', 'kind', 'metadata']);

/** Remove fields the schema does not declare (unless x-kubernetes-preserve-unknown-fields); returns their paths. */
export function pruneUnknown(value: unknown, schema: Schema | undefined, root = false, path = '', pruned: string[] = []): string[] {
  walkPrune(value, schema, root, path, pruned);
  return pruned;
}

function walkPrune(value: unknown, schema: Schema | undefined, root: boolean, path: string, pruned: string[]): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => walkPrune(item, schema.items, false, joinIndex(path, i), pruned));
    return;
  }
  if (!isObj(value)) return;
  const keepMeta = root || schema['x-kubernetes-embedded-resource'] === true;
  if (schema.properties) {
    for (const key of Object.keys(value)) {
      if (keepMeta && metaKeys.has(key)) continue;
      const sub = schema.properties[key];
      if (sub) walkPrune(value[key], sub, false, joinField(path, key), pruned);
      else if (!schema['x-kubernetes-preserve-unknown-fields'] && !isObj(schema.additionalProperties)) {
        delete value[key];
        pruned.push(joinField(path, key));
      }
    }
    return;
  }
  if (isObj(schema.additionalProperties)) {
    for (const key of Object.keys(value)) walkPrune(value[key], schema.additionalProperties as Schema, false, joinIndex(path, key), pruned);
    return;
  }
  if (!schema['x-kubernetes-preserve-unknown-fields'] && schema.type === 'object' && schema.additionalProperties !== true) {
    for (const key of Object.keys(value)) {
      if (keepMeta && metaKeys.has(key)) continue;
      delete value[key];
      pruned.push(joinField(path, key));
    }
  }
}

/**
 * Defaulting as kube-apiserver does it for custom resources: first a null where the schema is not nullable and
 * has no default is dropped (PruneNonNullableNullsWithoutDefaults), then `default`s fill absent properties and
 * the remaining non-nullable nulls, recursively (structural defaulting's Default).
 */
export function applySchemaDefaults(value: unknown, schema: Schema | undefined): void {
  pruneNonNullableNulls(value, schema);
  fillDefaults(value, schema);
}

const nonNullableNull = (v: unknown, schema: Schema | undefined): boolean => v === null && schema !== undefined && schema.nullable !== true;
const fieldSchema = (schema: Schema | undefined, key: string): Schema | undefined =>
  schema?.properties?.[key] ?? (isObj(schema?.additionalProperties) ? (schema.additionalProperties as Schema) : undefined);

function pruneNonNullableNulls(value: unknown, schema: Schema | undefined): void {
  if (Array.isArray(value)) {
    for (const item of value) pruneNonNullableNulls(item, schema?.items);
    return;
  }
  if (!isObj(value)) return;
  for (const [key, v] of Object.entries(value)) {
    const sub = fieldSchema(schema, key);
    if (nonNullableNull(v, sub) && sub?.default === undefined) delete value[key];
    else pruneNonNullableNulls(v, sub);
  }
}

function fillDefaults(value: unknown, schema: Schema | undefined): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      if (nonNullableNull(item, schema.items) && schema.items?.default !== undefined) value[i] = structuredClone(schema.items.default);
      fillDefaults(value[i], schema.items);
    });
    return;
  }
  if (!isObj(value)) return;
  for (const [key, sub] of Object.entries(schema.properties ?? {})) {
    if ((value[key] === undefined || nonNullableNull(value[key], sub)) && sub.default !== undefined) value[key] = structuredClone(sub.default);
    if (value[key] !== undefined) fillDefaults(value[key], sub);
  }
  if (isObj(schema.additionalProperties)) {
    const sub = schema.additionalProperties as Schema;
    for (const key of Object.keys(value)) {
      if (nonNullableNull(value[key], sub) && sub.default !== undefined) value[key] = structuredClone(sub.default);
      fillDefaults(value[key], sub);
    }
  }
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(v: unknown, schema: Schema): boolean {
  if (schema['x-kubernetes-int-or-string']) return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
  switch (schema.type) {
    case undefined:
      return true;
    case 'object':
      return isObj(v);
    case 'array':
      return Array.isArray(v);
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    default:
      return true;
  }
}

export function validateValue(v: unknown, schema: Schema, path: string, out: StatusCause[]): void {
  if (v === null) {
    if (!schema.nullable && schema.type !== undefined && !schema['x-kubernetes-preserve-unknown-fields']) {
      out.push(invalidValue(path, 'null', `${path} in body must be of type ${schema.type}: "null"`));
    }
    return;
  }
  if (!typeMatches(v, schema)) {
    const expected = schema['x-kubernetes-int-or-string'] ? 'integer,string' : schema.type;
    out.push(invalidValue(path, typeName(v), `${path} in body must be of type ${String(expected)}: "${typeName(v)}"`));
    return;
  }
  if (schema.enum && !schema.enum.some((e) => JSON.stringify(e) === JSON.stringify(v))) out.push(unsupportedValue(path, v, schema.enum));
  if (typeof v === 'number') {
    if (schema.minimum !== undefined && (schema.exclusiveMinimum ? v <= schema.minimum : v < schema.minimum)) {
      out.push(invalidValue(path, v, `${path} in body should be greater than ${schema.exclusiveMinimum ? '' : 'or equal to '}${schema.minimum}`));
    }
    if (schema.maximum !== undefined && (schema.exclusiveMaximum ? v >= schema.maximum : v > schema.maximum)) {
      out.push(invalidValue(path, v, `${path} in body should be less than ${schema.exclusiveMaximum ? '' : 'or equal to '}${schema.maximum}`));
    }
  }
  if (typeof v === 'string') {
    if (schema.minLength !== undefined && [...v].length < schema.minLength) out.push(invalidValue(path, v, `${path} in body should be at least ${schema.minLength} chars long`));
    if (schema.maxLength !== undefined && [...v].length > schema.maxLength) out.push({ reason: 'FieldValueTooLong', message: `Too long: may not be more than ${schema.maxLength} bytes`, field: path });
    if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(v)) out.push(invalidValue(path, v, `${path} in body should match '${schema.pattern}'`));
  }
  if (Array.isArray(v)) {
    if (schema.minItems !== undefined && v.length < schema.minItems) out.push(invalidValue(path, v.length, `${path} in body should have at least ${schema.minItems} items`));
    if (schema.maxItems !== undefined && v.length > schema.maxItems) out.push(tooMany(path, v.length, schema.maxItems));
    if (schema.items) v.forEach((item, i) => validateValue(item, schema.items as Schema, joinIndex(path, i), out));
  }
  if (isObj(v)) {
    const props = schema.properties ?? {};
    for (const req of schema.required ?? []) if (v[req] === undefined) out.push(requiredValue(joinField(path, req)));
    for (const [key, val] of Object.entries(v)) {
      const sub = props[key];
      if (sub) validateValue(val, sub, joinField(path, key), out);
      else if (isObj(schema.additionalProperties)) validateValue(val, schema.additionalProperties as Schema, joinIndex(path, key), out);
    }
    const n = Object.keys(v).length;
    if (schema.minProperties !== undefined && n < schema.minProperties) out.push(invalidValue(path, n, `${path} in body should have at least ${schema.minProperties} properties`));
    if (schema.maxProperties !== undefined && n > schema.maxProperties) out.push(tooMany(path, n, schema.maxProperties));
  }
  for (const sub of schema.allOf ?? []) validateValue(v, sub, path, out);
  if (schema.anyOf && schema.anyOf.length > 0) {
    const ok = schema.anyOf.some((sub) => {
      const errs: StatusCause[] = [];
      validateValue(v, sub, path, errs);
      return errs.length === 0;
    });
    if (!ok) out.push(invalidValue(path, v, `${path} in body must be valid against one of anyOf`));
  }
}

/**
 * x-kubernetes-list-type set/map: each item (set) or key tuple (map) at most once; the second and later
 * repeats are reported once each, in kube-apiserver's listtype wording.
 */
function listTypeDuplicates(list: unknown[], schema: Schema, path: string, out: StatusCause[]): void {
  const listType = schema['x-kubernetes-list-type'];
  if (listType !== 'set' && listType !== 'map') return;
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const seen = new Map<string, number>();
  list.forEach((item, i) => {
    const keyOf = listType === 'set' ? item : Object.fromEntries(keys.filter((k) => isObj(item) && k in item).map((k) => [k, (item as Obj)[k]]));
    const id = JSON.stringify(keyOf);
    const times = seen.get(id) ?? 0;
    seen.set(id, times + 1);
    if (times !== 1) return;
    const rendered = listType === 'set' ? renderValue(item) : goMapLiteral(keyOf as Record<string, unknown>);
    out.push(duplicateValue(joinIndex(path, i), rendered));
  });
}

/** The listtype pass kube-apiserver runs after schema validation: a list's own repeats, then its items'. */
function listTypeErrors(v: unknown, schema: Schema | undefined, path: string, out: StatusCause[]): void {
  if (!schema) return;
  if (Array.isArray(v)) {
    listTypeDuplicates(v, schema, path, out);
    v.forEach((item, i) => listTypeErrors(item, schema.items, joinIndex(path, i), out));
  } else if (isObj(v)) {
    for (const [key, val] of Object.entries(v)) {
      const sub = schema.properties?.[key];
      if (sub) listTypeErrors(val, sub, joinField(path, key), out);
      else if (isObj(schema.additionalProperties)) listTypeErrors(val, schema.additionalProperties as Schema, joinIndex(path, key), out);
    }
  }
}

/** Validate an object against its CRD schema (metadata is checked by the generic path, not here). */
export function validateSchema(obj: KubeObject, schema: Schema): StatusCause[] {
  const out: StatusCause[] = [];
  const props = schema.properties ?? {};
  for (const req of schema.required ?? []) if ((obj as Obj)[req] === undefined) out.push(requiredValue(req));
  for (const [key, val] of Object.entries(obj)) {
    if (metaKeys.has(key)) continue;
    const sub = props[key];
    if (sub) validateValue(val, sub, key, out);
  }
  for (const [key, val] of Object.entries(obj)) if (!metaKeys.has(key)) listTypeErrors(val, props[key], key, out);
  return out;
}
