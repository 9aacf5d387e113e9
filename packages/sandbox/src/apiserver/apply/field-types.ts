// What server-side apply needs to know about each place in an object: whether an object value is a struct
// (fields), a map (keys, and the map itself a member: `f:labels: {".": {}}`) or atomic, and whether a list is
// atomic, a set (`v:"x"`) or a map keyed by some fields (`k:{"name":"main"}`). Built-in kinds are read from the
// k8s.io message descriptors with Kubernetes' list-type markers (containers by name, ports by port+protocol,
// finalizers a set...); custom resources from their schema (x-kubernetes-list-type, default atomic).
import type { Schema } from '../schema/crd-schema.ts';
import { inlineFields, messageOfKind, messages, metaPackage } from '../encodings/proto/descriptors.ts';
import { gvKey, type ResourceType } from '../registry/resource-types.ts';
import { mergeKeys } from '../encodings/strategic-merge.ts';

export type ListType = { type: 'atomic' } | { type: 'set' } | { type: 'map'; keys: string[] };

export interface FieldType {
  object: 'struct' | 'map' | 'atomic';
  list: ListType;
  child(name: string): FieldType;
  item(): FieldType;
}

const atomicList: ListType = { type: 'atomic' };

/** A place nothing is known about: objects are structs, lists atomic (as a schema-less CRD's). */
export const untyped: FieldType = { object: 'struct', list: atomicList, child: () => untyped, item: () => untyped };

const opaque = new Set([
  `${metaPackage}.Time`,
  `${metaPackage}.MicroTime`,
  `${metaPackage}.Duration`,
  `${metaPackage}.FieldsV1`,
  `${metaPackage}.LabelSelector`,
  'k8s.io.apimachinery.pkg.runtime.RawExtension',
  'k8s.io.apimachinery.pkg.api.resource.Quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
]);
const leaf: FieldType = { object: 'atomic', list: atomicList, child: () => leaf, item: () => leaf };

/** Kubernetes' +listType markers for repeated fields: map keys by field name (parent message for ports). */
function builtinListType(parent: string, field: string, repeatedMessage: boolean): ListType {
  if (field === 'finalizers') return { type: 'set' };
  if (!repeatedMessage) return atomicList;
  if (field === 'ports') {
    if (parent.endsWith('.ServiceSpec')) return { type: 'map', keys: ['port', 'protocol'] };
    if (parent.endsWith('.Container') || parent.endsWith('.EphemeralContainerCommon')) return { type: 'map', keys: ['containerPort', 'protocol'] };
    return atomicList;
  }
  if (field === 'topologySpreadConstraints') return { type: 'map', keys: ['topologyKey', 'whenUnsatisfiable'] };
  const key = mergeKeys[field];
  return key === undefined ? atomicList : { type: 'map', keys: [key] };
}

type Row = { name: string; type?: string; repeated: boolean; map: boolean; mapValue?: string };
const tables = new Map<string, Map<string, Row>>();

function fieldsOf(message: string): Map<string, Row> {
  const table = tables.get(message);
  if (table) return table;
  const built = new Map<string, Row>();
  const collect = (type: string): void => {
    for (const [, name, , label, typeName] of messages[type]?.f ?? []) {
      if (typeName !== undefined && inlineFields.has(`${type}.${name}`)) collect(typeName);
      else if (typeName !== undefined && messages[typeName]?.map === 1) built.set(name, { name, repeated: false, map: true, mapValue: messages[typeName]?.f.find((r) => r[0] === 2)?.[4] });
      else built.set(name, { name, ...(typeName !== undefined && { type: typeName }), repeated: label === 3, map: false });
    }
  };
  collect(message);
  tables.set(message, built);
  return built;
}

function messageType(message: string | undefined): FieldType {
  if (message === undefined) return leaf;
  if (opaque.has(message)) return leaf;
  if (!messages[message]) return untyped;
  const self: FieldType = {
    object: 'struct',
    list: atomicList,
    child: (name) => {
      const row = fieldsOf(message).get(name);
      if (!row) return untyped;
      if (row.map) {
        const value = messageType(row.mapValue);
        return { object: 'map', list: atomicList, child: () => value, item: () => untyped };
      }
      const inner = messageType(row.type);
      if (row.repeated) return { object: inner.object, list: builtinListType(message, name, row.type !== undefined && !opaque.has(row.type)), child: inner.child, item: () => inner };
      return inner;
    },
    item: () => untyped,
  };
  return self;
}

function schemaType(schema: Schema | undefined): FieldType {
  if (!schema) return untyped;
  const list: ListType =
    schema['x-kubernetes-list-type'] === 'set'
      ? { type: 'set' }
      : schema['x-kubernetes-list-type'] === 'map'
        ? { type: 'map', keys: schema['x-kubernetes-list-map-keys'] ?? [] }
        : atomicList;
  const additional = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined;
  const object = schema['x-kubernetes-map-type'] === 'atomic' ? 'atomic' : schema.properties ? 'struct' : additional || schema.additionalProperties === true ? 'map' : 'struct';
  return {
    object,
    list,
    child: (name) => (schema.properties?.[name] ? schemaType(schema.properties[name]) : additional ? schemaType(additional) : untyped),
    item: () => schemaType(schema.items),
  };
}

const objectMeta = (): FieldType => messageType(`${metaPackage}.ObjectMeta`);

/** The type of a whole object of this resource. */
export function typeOfResource(rt: ResourceType): FieldType {
  if (rt.crdName) {
    const schema = rt.openapiSchema as Schema | undefined;
    const root = schemaType(schema);
    return { ...root, object: 'struct', child: (name) => (name === 'metadata' ? objectMeta() : root.child(name)) };
  }
  const message = messageOfKind(gvKey(rt.group, rt.version), rt.kind);
  // Kinds without a descriptor (CustomResourceDefinition): structs and atomic lists, with ObjectMeta's types.
  if (message === undefined) return { ...untyped, child: (name) => (name === 'metadata' ? objectMeta() : untyped) };
  return messageType(message);
}
