// OpenAPI component schemas. Built-in kinds: derived from the k8s.io proto descriptors (same field names and
// types as the real schemas, named as kube-apiserver names them, e.g. io.k8s.api.core.v1.Pod; the descriptors
// carry no field docs, so built-ins have none). Custom resources: the CRD's own openAPIV3Schema, with metadata
// pointing at ObjectMeta as on a real server. Patch metadata (merge keys) comes from the strategic-merge table.
import { inlineFields, messageOfKind, messages, metaPackage, repeatedLabel, T } from '../encodings/proto/descriptors.ts';
import type { ResourceType } from '../registry/resource-types.ts';
import { mergeKeys, mergePrimitiveLists } from '../encodings/strategic-merge.ts';

export type JsonSchema = Record<string, unknown>;
export type RefStyle = 'v2' | 'v3';

/** k8s.io.api.core.v1.Pod -> io.k8s.api.core.v1.Pod */
export const schemaName = (message: string): string => message.replace(/^k8s\.io\./, 'io.k8s.');

const objectMeta = `${metaPackage}.ObjectMeta`;

/** Messages whose JSON is not an object of their fields. */
const specialSchemas: Record<string, JsonSchema> = {
  [`${metaPackage}.Time`]: { type: 'string', format: 'date-time' },
  [`${metaPackage}.MicroTime`]: { type: 'string', format: 'date-time' },
  [`${metaPackage}.Duration`]: { type: 'string' },
  [`${metaPackage}.FieldsV1`]: { type: 'object' },
  'k8s.io.apimachinery.pkg.runtime.RawExtension': { type: 'object' },
  'k8s.io.apimachinery.pkg.api.resource.Quantity': { type: 'string' },
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': { type: 'string', format: 'int-or-string' },
};

function scalarSchema(type: number): JsonSchema {
  switch (type) {
    case T.bool:
      return { type: 'boolean' };
    case T.string:
      return { type: 'string' };
    case T.bytes:
      return { type: 'string', format: 'byte' };
    case T.double:
    case T.float:
      return { type: 'number', format: 'double' };
    case T.int32:
    case T.sint32:
    case T.uint32:
    case T.fixed32:
    case T.sfixed32:
      return { type: 'integer', format: 'int32' };
    default:
      return { type: 'integer', format: 'int64' };
  }
}

const ref = (message: string, style: RefStyle): JsonSchema =>
  style === 'v3' ? { allOf: [{ $ref: `#/components/schemas/${schemaName(message)}` }], default: {} } : { $ref: `#/definitions/${schemaName(message)}` };

/** Adds `message` and every message it reaches to `out` (by schema name). */
export function addMessageSchema(message: string, style: RefStyle, out: Record<string, JsonSchema>): void {
  const name = schemaName(message);
  if (out[name] !== undefined) return;
  const special = specialSchemas[message];
  if (special) {
    out[name] = special;
    return;
  }
  const properties: Record<string, JsonSchema> = {};
  out[name] = { type: 'object', properties };
  const collect = (type: string): void => {
    for (const [, field, fieldType, label, typeName] of messages[type]?.f ?? []) {
      if (typeName !== undefined && inlineFields.has(`${type}.${field}`)) {
        collect(typeName);
        continue;
      }
      const entry = typeName !== undefined ? messages[typeName] : undefined;
      let schema: JsonSchema;
      if (entry?.map === 1) {
        const value = entry.f.find((r) => r[0] === 2);
        const valueType = value?.[4];
        if (valueType !== undefined) addMessageSchema(valueType, style, out);
        schema = { type: 'object', additionalProperties: valueType !== undefined ? ref(valueType, style) : scalarSchema(value?.[2] ?? T.string) };
      } else {
        let item: JsonSchema;
        if (fieldType === T.message && typeName !== undefined) {
          addMessageSchema(typeName, style, out);
          item = ref(typeName, style);
        } else item = scalarSchema(fieldType);
        schema = label === repeatedLabel ? { type: 'array', items: item, ...patchMeta(field, type) } : item;
      }
      properties[field] = schema;
    }
  };
  collect(message);
}

function patchMeta(field: string, parent: string): JsonSchema {
  const key = field === 'ports' ? (parent.endsWith('.ServiceSpec') ? 'port' : parent.endsWith('.Container') ? 'containerPort' : undefined) : mergeKeys[field];
  if (key !== undefined) return { 'x-kubernetes-patch-merge-key': key, 'x-kubernetes-patch-strategy': 'merge' };
  if (mergePrimitiveLists.has(field)) return { 'x-kubernetes-patch-strategy': 'merge' };
  return {};
}

const typeMeta = {
  apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
  kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
};

/** The schemas a group version's document carries: each kind served there, and what they reference. */
export function schemasFor(types: ResourceType[], style: RefStyle): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const t of types) {
    const apiVersion = t.group === '' ? t.version : `${t.group}/${t.version}`;
    const gvk = [{ group: t.group, version: t.version, kind: t.kind }];
    if (t.openapiSchema !== undefined) {
      addMessageSchema(objectMeta, style, out);
      const props = (t.openapiSchema.properties ?? {}) as Record<string, JsonSchema>;
      out[crdSchemaName(t)] = {
        ...t.openapiSchema,
        properties: { ...props, ...typeMeta, metadata: { ...ref(objectMeta, style), description: 'Standard object\'s metadata.' } },
        'x-kubernetes-group-version-kind': gvk,
      };
      continue;
    }
    const message = messageOfKind(apiVersion, t.kind);
    if (message === undefined) continue;
    addMessageSchema(message, style, out);
    const own = out[schemaName(message)] as JsonSchema;
    out[schemaName(message)] = { ...own, properties: { ...typeMeta, ...(own.properties as object) }, 'x-kubernetes-group-version-kind': gvk };
  }
  return out;
}

/** ray.io/v1 RayJob -> io.ray.v1.RayJob, as kube-apiserver names CRD schemas. */
export function crdSchemaName(t: ResourceType): string {
  return `${t.group.split('.').reverse().join('.')}.${t.version}.${t.kind}`;
}
