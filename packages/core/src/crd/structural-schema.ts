import { z } from 'zod';
import { CRD_DIRECTIVE_KEY, KUBERNETES_EXTENSION_KEYS, type CrdDirective } from './conventions.ts';
import { kubernetesSchema } from './kubernetes-schema.ts';
import type { OpenApiSchema } from './openapi-schema.ts';

/**
 * zod 4 JSON Schema (draft 2020-12) -> Kubernetes structural OpenAPI v3 schema.
 *
 * Kubernetes accepts only a subset: every node has a `type` (or preserves unknown fields, or is int-or-string),
 * no $ref, no anyOf except int-or-string, `nullable` instead of a null branch, no `additionalProperties` next to
 * `properties`. Anything we cannot express is a bug in a schema, reported with its path.
 */

export type { OpenApiSchema } from './openapi-schema.ts';

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
/** Keywords copied unchanged when present. */
const VALUE_KEYWORDS = [
  'description',
  'format',
  'default',
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'uniqueItems',
  'multipleOf',
] as const;
/** Keywords zod may emit that carry nothing a CRD needs. */
const DROPPED_KEYWORDS = new Set(['$schema', '$id', 'id', 'propertyNames', 'title', CRD_DIRECTIVE_KEY]);
const HANDLED_KEYWORDS = new Set<string>([
  ...VALUE_KEYWORDS,
  ...KUBERNETES_EXTENSION_KEYS,
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'const',
  '$defs',
]);

const ANY_OF_HINT =
  "a union is only structural as int-or-string (add .meta({ 'x-kubernetes-int-or-string': true })) or as .nullable()";

export class CrdSchemaError extends Error {
  override name = 'CrdSchemaError';
}

/** Converts a zod schema (its input shape: defaulted fields are optional) to a structural schema node. */
export function zodToStructuralSchema(schema: z.ZodType): OpenApiSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'throw', reused: 'inline' }) as OpenApiSchema;
  return toStructural(json, '', (json.$defs ?? {}) as Record<string, OpenApiSchema>);
}

function directiveOf(node: OpenApiSchema): CrdDirective {
  return (node[CRD_DIRECTIVE_KEY] ?? {}) as CrdDirective;
}

function resolveRef(node: OpenApiSchema, path: string, defs: Record<string, OpenApiSchema>): OpenApiSchema {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const target = ref.startsWith('#/$defs/') ? defs[ref.slice('#/$defs/'.length)] : undefined;
  if (!target) throw new CrdSchemaError(`${path || '<root>'}: cannot inline $ref ${ref} (recursive schemas are not structural)`);
  const { $ref: _ref, ...rest } = node;
  return { ...target, ...rest };
}

function toStructural(input: OpenApiSchema, path: string, defs: Record<string, OpenApiSchema>): OpenApiSchema {
  const node = resolveRef(input, path, defs);
  const directive = directiveOf(node);
  const where = path || '<root>';

  if (directive.kubernetes) {
    const out = kubernetesSchema(directive.kubernetes);
    return typeof node.description === 'string' ? { description: node.description, ...out } : out;
  }

  if (directive.opaque) {
    const out: OpenApiSchema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    if (typeof node.description === 'string') out.description = node.description;
    return out;
  }

  if (node['x-kubernetes-int-or-string'] === true) {
    return copyKnown(node, { anyOf: [{ type: 'integer' }, { type: 'string' }] }, directive);
  }

  if (Array.isArray(node.anyOf)) return fromAnyOf(node, path, defs);

  for (const key of Object.keys(node)) {
    if (!HANDLED_KEYWORDS.has(key) && !DROPPED_KEYWORDS.has(key)) {
      throw new CrdSchemaError(`${where}: keyword ${key} has no structural equivalent`);
    }
  }

  const out: OpenApiSchema = {};
  if ('const' in node) out.enum = [node.const];
  const type = node.type ?? (Array.isArray(out.enum) ? typeof out.enum[0] : undefined);
  if (Array.isArray(type)) throw new CrdSchemaError(`${where}: ${ANY_OF_HINT}`);
  if (typeof type !== 'string') throw new CrdSchemaError(`${where}: a node without a type is not structural`);
  out.type = type;
  copyKnown(node, out, directive);

  if (type === 'integer') dropImplicitIntegerBounds(out);
  if (type === 'object') addObjectShape(node, out, path, defs);
  if (type === 'array') {
    if (!node.items || typeof node.items !== 'object') throw new CrdSchemaError(`${where}: array without items`);
    out.items = toStructural(node.items as OpenApiSchema, `${path}[]`, defs);
  }
  return out;
}

function copyKnown(node: OpenApiSchema, out: OpenApiSchema, directive: CrdDirective): OpenApiSchema {
  for (const key of [...VALUE_KEYWORDS, ...KUBERNETES_EXTENSION_KEYS]) {
    if (key in node) out[key] = node[key];
  }
  if (directive.omitEnum) delete out.enum;
  return out;
}

/** zod's z.int32() carries the int32 range and z.int() the safe-integer range; `format` already says that. */
function dropImplicitIntegerBounds(out: OpenApiSchema): void {
  if (out.minimum === INT32_MIN || out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  if (out.maximum === INT32_MAX || out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
}

function addObjectShape(node: OpenApiSchema, out: OpenApiSchema, path: string, defs: Record<string, OpenApiSchema>): void {
  const properties = node.properties as Record<string, OpenApiSchema> | undefined;
  const additional = node.additionalProperties;
  if (properties && Object.keys(properties).length > 0) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => [name, toStructural(child, `${path}.${name}`, defs)]),
    );
    const required = [...new Set([...((node.required as string[] | undefined) ?? []), ...(directiveOf(node).required ?? [])])];
    if (required.length > 0) out.required = [...required].sort();
    // A loose zod object emits `additionalProperties: {}`; in a CRD unknown fields are pruned unless preserved.
    return;
  }
  if (additional && typeof additional === 'object' && Object.keys(additional).length > 0) {
    out.additionalProperties = toStructural(additional as OpenApiSchema, `${path}{}`, defs);
  } else if (out['x-kubernetes-preserve-unknown-fields'] !== true) {
    // An object without declared fields would be pruned to {}: keep whatever it holds instead.
    out['x-kubernetes-preserve-unknown-fields'] = true;
  }
}

/** The only anyOf zod emits for our schemas is `.nullable()`: a null branch plus one real branch. */
function fromAnyOf(node: OpenApiSchema, path: string, defs: Record<string, OpenApiSchema>): OpenApiSchema {
  const branches = node.anyOf as OpenApiSchema[];
  const nonNull = branches.filter((b) => b.type !== 'null');
  if (nonNull.length !== 1 || branches.length !== 2) {
    throw new CrdSchemaError(`${path || '<root>'}: ${ANY_OF_HINT}`);
  }
  const { anyOf: _anyOf, ...outer } = node;
  const merged = toStructural({ ...(nonNull[0] as OpenApiSchema), ...outer }, path, defs);
  return { ...merged, nullable: true };
}
