// Unknown fields of built-in kinds, found from the k8s.io message descriptors and dropped, as kube-apiserver's
// decoder drops them; the caller turns the paths into a 400 (fieldValidation=Strict) or Warning headers (Warn,
// the default). Paths are written as the real server writes them: spec.containers[0].imagePullPolcy.
import { inlineFields, messageOfKind, messages, metaPackage } from './proto/descriptors.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Messages whose JSON is a scalar or free-form: nothing inside them is checked. */
const opaque = new Set([
  `${metaPackage}.Time`,
  `${metaPackage}.MicroTime`,
  `${metaPackage}.Duration`,
  `${metaPackage}.FieldsV1`,
  'k8s.io.apimachinery.pkg.runtime.RawExtension',
  'k8s.io.apimachinery.pkg.api.resource.Quantity',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString',
]);

type FieldInfo = { type?: string; map?: boolean };
const tables = new Map<string, Map<string, FieldInfo>>();

/** JSON field name -> message type (for message fields) of a message, embedded structs flattened. */
function fieldsOf(message: string): Map<string, FieldInfo> {
  let table = tables.get(message);
  if (table) return table;
  table = new Map();
  const collect = (type: string, into: Map<string, FieldInfo>): void => {
    for (const [, name, , , typeName] of messages[type]?.f ?? []) {
      if (typeName !== undefined && inlineFields.has(`${type}.${name}`)) collect(typeName, into);
      else if (typeName !== undefined && messages[typeName]?.map === 1) into.set(name, { type: messages[typeName]?.f.find((r) => r[0] === 2)?.[4], map: true });
      else into.set(name, typeName === undefined ? {} : { type: typeName });
    }
  };
  collect(message, table);
  tables.set(message, table);
  return table;
}

function prune(value: unknown, message: string, path: string, out: string[]): void {
  if (opaque.has(message) || !isObj(value)) return;
  const table = fieldsOf(message);
  for (const key of Object.keys(value)) {
    const here = path === '' ? key : `${path}.${key}`;
    const info = table.get(key);
    if (!info) {
      if (path === '' && (key === 'apiVersion' || key === 'kind')) continue;
      out.push(here);
      delete value[key];
      continue;
    }
    if (info.type === undefined) continue;
    const child = value[key];
    if (info.map) {
      if (isObj(child)) for (const [k, v] of Object.entries(child)) prune(v, info.type, `${here}[${k}]`, out);
    } else if (Array.isArray(child)) child.forEach((item, i) => prune(item, info.type as string, `${here}[${i}]`, out));
    else prune(child, info.type, here, out);
  }
}

/** Drops fields the kind's type does not have; returns their paths. Kinds without a descriptor are left alone. */
export function pruneBuiltinUnknown(obj: Obj, apiVersion: string, kind: string): string[] {
  const message = messageOfKind(apiVersion, kind);
  if (message === undefined) return [];
  const out: string[] = [];
  prune(obj, message, '', out);
  return out;
}
