import type { OpenApiSchema } from './structural-schema.ts';

/**
 * Checks a generated openAPIV3Schema against the rules the API server applies to CRDs, so a broken CRD fails
 * our tests instead of `kubectl apply`. Returns the problems found, each with its path; [] means structural.
 */

const ALLOWED_KEYWORDS = new Set([
  'type', 'format', 'description', 'default', 'enum', 'nullable',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
  'properties', 'required', 'additionalProperties', 'items', 'anyOf',
  'x-kubernetes-validations', 'x-kubernetes-preserve-unknown-fields', 'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type',
]);
const TYPES = new Set(['object', 'array', 'string', 'integer', 'number', 'boolean']);

export function checkStructuralSchema(schema: OpenApiSchema): string[] {
  const problems: string[] = [];
  visit(schema, '', problems);
  return problems;
}

function visit(node: OpenApiSchema, path: string, problems: string[]): void {
  const where = path || '<root>';
  for (const key of Object.keys(node)) {
    if (!ALLOWED_KEYWORDS.has(key)) problems.push(`${where}: forbidden keyword ${key}`);
  }
  const intOrString = node['x-kubernetes-int-or-string'] === true;
  const preserves = node['x-kubernetes-preserve-unknown-fields'] === true;
  if (node.type === undefined && !intOrString && !preserves) problems.push(`${where}: no type`);
  if (node.type !== undefined && !TYPES.has(node.type as string)) problems.push(`${where}: bad type ${String(node.type)}`);
  if (node.anyOf !== undefined && !isIntOrStringAnyOf(node)) problems.push(`${where}: anyOf outside int-or-string`);
  if (node.properties && node.additionalProperties !== undefined) {
    problems.push(`${where}: properties and additionalProperties together`);
  }
  if (node.additionalProperties === false || node.additionalProperties === true) {
    problems.push(`${where}: additionalProperties must be a schema`);
  }
  if (preserves && node.additionalProperties !== undefined) {
    problems.push(`${where}: x-kubernetes-preserve-unknown-fields with additionalProperties`);
  }
  checkValidations(node, where, problems);
  checkListMap(node, where, problems);
  if (node.default !== undefined) {
    for (const p of valueProblems(node, node.default, `${where} default`)) problems.push(p);
  }
  const properties = (node.properties ?? {}) as Record<string, OpenApiSchema>;
  for (const [name, child] of Object.entries(properties)) visit(child, `${path}.${name}`, problems);
  for (const name of (node.required ?? []) as string[]) {
    if (!(name in properties)) problems.push(`${where}: required ${name} is not a property`);
  }
  if (node.type === 'array') {
    if (!node.items) problems.push(`${where}: array without items`);
    else visit(node.items as OpenApiSchema, `${path}[]`, problems);
  }
  if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    visit(node.additionalProperties as OpenApiSchema, `${path}{}`, problems);
  }
}

function isIntOrStringAnyOf(node: OpenApiSchema): boolean {
  const branches = node.anyOf as OpenApiSchema[];
  return (
    node['x-kubernetes-int-or-string'] === true &&
    branches.length === 2 &&
    branches.every((b) => Object.keys(b).length === 1) &&
    branches.some((b) => b.type === 'integer') &&
    branches.some((b) => b.type === 'string')
  );
}

function checkValidations(node: OpenApiSchema, where: string, problems: string[]): void {
  const rules = node['x-kubernetes-validations'];
  if (rules === undefined) return;
  if (!Array.isArray(rules)) {
    problems.push(`${where}: x-kubernetes-validations must be a list`);
    return;
  }
  for (const r of rules as OpenApiSchema[]) {
    if (typeof r.rule !== 'string' || r.rule === '') problems.push(`${where}: CEL rule without rule text`);
    if (typeof r.message !== 'string' || r.message === '') problems.push(`${where}: CEL rule without message`);
  }
}

const LIST_TYPES = ['atomic', 'set', 'map'];
const MAP_TYPES = ['atomic', 'granular'];

/**
 * The list and map markers, as apiextensions-apiserver's CRD validation checks them (validation.go,
 * ValidateCustomResourceDefinitionOpenAPISchema and validateMapListKeysMapSet): markers only on their type, known
 * values, map keys that are scalar item properties, required or defaulted, never nullable, set items atomic.
 */
function checkListMap(node: OpenApiSchema, where: string, problems: string[]): void {
  const listType = node['x-kubernetes-list-type'];
  const mapType = node['x-kubernetes-map-type'];
  const keys = (node['x-kubernetes-list-map-keys'] ?? []) as string[];
  if (mapType !== undefined && node.type !== 'object') problems.push(`${where}: x-kubernetes-map-type on a non-object`);
  if (mapType !== undefined && !MAP_TYPES.includes(mapType as string)) problems.push(`${where}: x-kubernetes-map-type ${String(mapType)}`);
  if (listType !== undefined && node.type !== 'array') problems.push(`${where}: x-kubernetes-list-type on a non-array`);
  if (listType !== undefined && !LIST_TYPES.includes(listType as string)) problems.push(`${where}: x-kubernetes-list-type ${String(listType)}`);
  if (keys.length > 0 && listType !== 'map') problems.push(`${where}: list-map-keys without x-kubernetes-list-type map`);
  if (listType !== 'map' && listType !== 'set') return;
  const items = (node.items ?? {}) as OpenApiSchema;
  if (items.nullable === true) problems.push(`${where}: items of a list-type ${String(listType)} are nullable`);
  if (listType === 'set') {
    if (items.type === 'object' && items['x-kubernetes-map-type'] !== 'atomic') problems.push(`${where}: set of non-atomic objects`);
    if (items.type === 'array' && (items['x-kubernetes-list-type'] ?? 'atomic') !== 'atomic') problems.push(`${where}: set of non-atomic lists`);
    return;
  }
  const required = (items.required ?? []) as string[];
  const properties = (items.properties ?? {}) as Record<string, OpenApiSchema>;
  if (keys.length === 0) problems.push(`${where}: list-type map without list-map-keys`);
  if (items.type !== 'object') problems.push(`${where}: list-type map of non-objects`);
  if (new Set(keys).size !== keys.length) problems.push(`${where}: duplicate list-map keys`);
  for (const key of keys) {
    const property = properties[key];
    if (!property) {
      problems.push(`${where}: list-map key ${key} is not an item property`);
      continue;
    }
    if (property.type === 'object' || property.type === 'array') problems.push(`${where}: list-map key ${key} is not a scalar`);
    if (property.nullable === true) problems.push(`${where}: list-map key ${key} is nullable`);
    if (!required.includes(key) && property.default === undefined) {
      problems.push(`${where}: list-map key ${key} is neither required nor defaulted`);
    }
  }
}

/** The paths of every node that keeps unknown fields: each is a place the API server neither validates nor prunes. */
export function preservedUnknownFieldPaths(schema: OpenApiSchema, path = ''): string[] {
  const own = schema['x-kubernetes-preserve-unknown-fields'] === true ? [path || '<root>'] : [];
  const properties = Object.entries((schema.properties ?? {}) as Record<string, OpenApiSchema>);
  return [
    ...own,
    ...properties.flatMap(([name, child]) => preservedUnknownFieldPaths(child, `${path}.${name}`)),
    ...(schema.items ? preservedUnknownFieldPaths(schema.items as OpenApiSchema, `${path}[]`) : []),
    ...(schema.additionalProperties && typeof schema.additionalProperties === 'object'
      ? preservedUnknownFieldPaths(schema.additionalProperties as OpenApiSchema, `${path}{}`)
      : []),
  ];
}

/** Whether `value` is valid against `schema` (the subset of OpenAPI our CRDs use); returns the problems. */
export function valueProblems(schema: OpenApiSchema, value: unknown, where: string): string[] {
  if (value === null) return schema.nullable === true ? [] : [`${where}: null is not allowed`];
  if (schema['x-kubernetes-int-or-string'] === true) {
    return Number.isInteger(value) || typeof value === 'string' ? [] : [`${where}: not an int or string`];
  }
  const problems: string[] = [];
  const type = schema.type;
  const actual = Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  const typeOk = type === undefined || type === actual || (type === 'number' && actual === 'integer');
  if (!typeOk) return [`${where}: expected ${String(type)}, got ${actual}`];
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) problems.push(`${where}: ${JSON.stringify(value)} not in enum`);
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) problems.push(`${where}: below minimum`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) problems.push(`${where}: above maximum`);
    if (schema.format === 'int32' && (value < -2147483648 || value > 2147483647)) problems.push(`${where}: outside int32`);
  }
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) problems.push(`${where}: too short`);
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) problems.push(`${where}: too long`);
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(value)) problems.push(`${where}: does not match pattern`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) problems.push(`${where}: too few items`);
    value.forEach((v, i) => problems.push(...valueProblems((schema.items ?? {}) as OpenApiSchema, v, `${where}[${i}]`)));
  }
  if (actual === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, OpenApiSchema>;
    for (const name of (schema.required ?? []) as string[]) {
      if (!(name in record)) problems.push(`${where}: missing required ${name}`);
    }
    for (const [name, v] of Object.entries(record)) {
      const child = properties[name] ?? (schema.additionalProperties as OpenApiSchema | undefined);
      if (child) problems.push(...valueProblems(child, v, `${where}.${name}`));
    }
  }
  return problems;
}
