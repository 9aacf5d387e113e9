import { QUANTITY_PATTERN } from '@rayjob/kube-model';
import { KUBERNETES_DEFINITIONS } from './kubernetes-definitions.generated.ts';
import type { OpenApiSchema } from './openapi-schema.ts';

/**
 * Kubernetes' own OpenAPI definitions (extracted by tools/extract-kubernetes-openapi.ts) -> the structural schema
 * a CRD needs where a Ray type embeds a Kubernetes type (a pod template, a Service, an EnvVar, ...).
 *
 * What changes on the way, and why:
 * - `$ref`s are inlined: a CRD schema cannot reference anything.
 * - Quantity and IntOrString (`oneOf` string/number) become `x-kubernetes-int-or-string`; Quantity also gets the
 *   resource.Quantity pattern, as controller-gen writes it.
 * - An object without declared fields (RawExtension, FieldsV1) keeps its content
 *   (`x-kubernetes-preserve-unknown-fields`): in a CRD an object without properties is otherwise pruned to {}.
 * - Zero-value defaults ("", 0, false, {}) are dropped: the OpenAPI documents carry them for every non-pointer Go
 *   field, and a CRD would write them into stored objects. They are kept only where the structural rules need a
 *   default: a list-map key that is not required (imagePullSecrets' `name`). Real defaults ("TCP") stay.
 * - No `enum`: Kubernetes' published documents carry none (only prose), and its own validation accepts values the
 *   Go enum lists leave out (a Toleration's empty `effect`).
 */

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

const COPIED = ['type', 'format', 'x-kubernetes-list-type', 'x-kubernetes-list-map-keys', 'x-kubernetes-map-type'] as const;
const KNOWN = new Set<string>([...COPIED, 'default', 'required', 'properties', 'additionalProperties', 'items', 'allOf', '$ref', 'oneOf']);

export class KubernetesSchemaError extends Error {
  override name = 'KubernetesSchemaError';
}

type Definitions = Readonly<Record<string, OpenApiSchema>>;

/** The structural schema of one Kubernetes definition, fully inlined. `definitions` is injectable for tests. */
export function kubernetesSchema(name: string, definitions: Definitions = KUBERNETES_DEFINITIONS): OpenApiSchema {
  return expandRef(name, {}, name, { definitions, stack: [] });
}

/** What every step needs: the definitions, and the references being expanded (to refuse a cycle). */
interface Walk {
  definitions: Definitions;
  stack: string[];
}

function isZeroValue(value: unknown): boolean {
  if (value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  return value !== null && typeof value === 'object' && Object.keys(value).length === 0;
}

/** `sibling` holds the keywords next to the reference (its `default`), which apply to the referenced type. */
function expandRef(name: string, sibling: OpenApiSchema, path: string, walk: Walk): OpenApiSchema {
  if (name === INT_OR_STRING) return { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
  if (name === QUANTITY) {
    return { anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: QUANTITY_PATTERN, 'x-kubernetes-int-or-string': true };
  }
  if (walk.stack.includes(name)) throw new KubernetesSchemaError(`${path}: ${name} refers to itself (not structural)`);
  const definition = walk.definitions[name];
  if (!definition) throw new KubernetesSchemaError(`${path}: no Kubernetes definition ${name} (re-run tools/extract-kubernetes-openapi.ts with it as a root)`);
  return expand({ ...definition, ...sibling }, path, { ...walk, stack: [...walk.stack, name] });
}

function expand(node: OpenApiSchema, path: string, walk: Walk, keepZeroDefault = false): OpenApiSchema {
  for (const key of Object.keys(node)) {
    if (!KNOWN.has(key)) throw new KubernetesSchemaError(`${path}: keyword ${key} is not handled`);
  }
  const { $ref, allOf, ...rest } = node;
  if (typeof $ref === 'string') return expandRef($ref, rest, path, walk);
  if (Array.isArray(allOf)) {
    const only = allOf.length === 1 ? (allOf[0] as OpenApiSchema).$ref : undefined;
    if (typeof only !== 'string') throw new KubernetesSchemaError(`${path}: allOf other than one reference`);
    return expandRef(only, rest, path, walk);
  }
  if (node.oneOf !== undefined) throw new KubernetesSchemaError(`${path}: oneOf outside Quantity/IntOrString`);

  const out: OpenApiSchema = {};
  for (const key of COPIED) if (key in node) out[key] = node[key];
  if (typeof out.type !== 'string') throw new KubernetesSchemaError(`${path}: no type`);
  if (node.default !== undefined && (keepZeroDefault || !isZeroValue(node.default))) out.default = node.default;

  if (out.type === 'object') addObject(node, out, path, walk);
  if (out.type === 'array') addItems(node, out, path, walk);
  return out;
}

function addObject(node: OpenApiSchema, out: OpenApiSchema, path: string, walk: Walk): void {
  const properties = node.properties as Record<string, OpenApiSchema> | undefined;
  if (properties && Object.keys(properties).length > 0) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, child]) => [name, expand(child, `${path}.${name}`, walk)]),
    );
    if (Array.isArray(node.required) && node.required.length > 0) out.required = [...(node.required as string[])].sort();
  } else if (node.additionalProperties && typeof node.additionalProperties === 'object') {
    out.additionalProperties = expand(node.additionalProperties as OpenApiSchema, `${path}{}`, walk);
  } else {
    out['x-kubernetes-preserve-unknown-fields'] = true;
  }
}

function addItems(node: OpenApiSchema, out: OpenApiSchema, path: string, walk: Walk): void {
  const items = node.items as OpenApiSchema | undefined;
  if (!items) throw new KubernetesSchemaError(`${path}: array without items`);
  const expanded = expand(items, `${path}[]`, walk);
  if (out['x-kubernetes-list-type'] === 'map') keepListMapKeyDefaults(items, expanded, out, path, walk);
  out.items = expanded;
}

/** A list-map key must be required or defaulted; where the source only has Go's zero default, keep that one. */
function keepListMapKeyDefaults(items: OpenApiSchema, expanded: OpenApiSchema, list: OpenApiSchema, path: string, walk: Walk): void {
  const source = resolve(items, walk.definitions);
  const required = (expanded.required ?? []) as string[];
  const properties = expanded.properties as Record<string, OpenApiSchema>;
  for (const key of (list['x-kubernetes-list-map-keys'] ?? []) as string[]) {
    const property = properties[key];
    if (!property || required.includes(key) || property.default !== undefined) continue;
    const sourceProperty = (source.properties as Record<string, OpenApiSchema> | undefined)?.[key];
    if (sourceProperty?.default === undefined) continue;
    properties[key] = expand(sourceProperty, `${path}[].${key}`, walk, true);
  }
}

function resolve(node: OpenApiSchema, definitions: Definitions): OpenApiSchema {
  const ref = typeof node.$ref === 'string' ? node.$ref : ((node.allOf as OpenApiSchema[] | undefined)?.[0]?.$ref as string | undefined);
  return ref ? (definitions[ref] ?? node) : node;
}
