// Field errors in the wording of k8s.io/apimachinery's field.Error, which users and tests match on:
// `Invalid value: "abc": detail`, `Required value`, `Unsupported value: "x": supported values: "a", "b"`.
import type { StatusCause } from './status.ts';

/** Go's %#v-ish rendering the server uses for the offending value. */
export function renderValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export const invalidValue = (field: string, value: unknown, detail: string): StatusCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: ${renderValue(value)}: ${detail}`,
  field,
});

/** CEL failures report the value's type name, not the value ("object", "string"). */
export const invalidTyped = (field: string, typeName: string, detail: string): StatusCause => ({
  reason: 'FieldValueInvalid',
  message: `Invalid value: "${typeName}": ${detail}`,
  field,
});

export const requiredValue = (field: string, detail?: string): StatusCause => ({
  reason: 'FieldValueRequired',
  message: detail ? `Required value: ${detail}` : 'Required value',
  field,
});

export const unsupportedValue = (field: string, value: unknown, supported: unknown[]): StatusCause => ({
  reason: 'FieldValueNotSupported',
  message: `Unsupported value: ${renderValue(value)}: supported values: ${supported.map(renderValue).join(', ')}`,
  field,
});

export const forbiddenField = (field: string, detail: string): StatusCause => ({
  reason: 'FieldValueForbidden',
  message: `Forbidden: ${detail}`,
  field,
});

export const tooMany = (field: string, actual: number, max: number): StatusCause => ({
  reason: 'FieldValueTooMany',
  message: `Too many: ${actual}: must have at most ${max} items`,
  field,
});

/** Go's `%#v` of the map[string]interface{} kube-apiserver reports for a duplicate list-map key (keys sorted). */
export function goMapLiteral(keys: Record<string, unknown>): string {
  const entries = Object.keys(keys).sort().map((k) => `${JSON.stringify(k)}:${typeof keys[k] === 'string' ? JSON.stringify(keys[k]) : String(keys[k])}`);
  return `map[string]interface {}{${entries.join(', ')}}`;
}

/** A repeated item of a list-type set or map, as listtype validation reports it. */
export const duplicateValue = (field: string, rendered: string): StatusCause => ({
  reason: 'FieldValueDuplicate',
  message: `Duplicate value: ${rendered}`,
  field,
});
