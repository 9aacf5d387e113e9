// Kubernetes' protobuf encoding of request bodies, decoded to the JSON object the same request would carry.
// client-go sends built-in types as protobuf (kubectl's `create` generators, typed controllers), so every kind
// k8s.io/api defines is decoded from its message descriptor (proto/k8s-descriptors.json, extracted from the
// kubectl binary by tools/extract-proto-descriptors.ts), not from a hand-written list.
// Envelope: "k8s\0" + runtime.Unknown {1: typeMeta {1: apiVersion, 2: kind}, 2: raw message}.
// Field names in k8s.io's generated.proto are the JSON names; the types whose JSON form is not their message
// form (Time, Quantity, IntOrString, ...) are converted as their Go MarshalJSON does.
import { inlineFields, messageOfKind, messages, metaPackage, repeatedLabel, T, type FieldRow } from './proto/descriptors.ts';
import { readFields, readPackedVarints, type WireField } from './proto/wire.ts';

const repeated = repeatedLabel;
const meta = metaPackage;

export const protobufMagic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

const fieldTables = new Map<string, Map<number, FieldRow>>();
function fieldsOf(type: string): Map<number, FieldRow> {
  let table = fieldTables.get(type);
  if (!table) {
    table = new Map((messages[type]?.f ?? []).map((row) => [row[0], row]));
    fieldTables.set(type, table);
  }
  return table;
}

function scalar(f: WireField, type: number): unknown {
  const v = f.varint ?? 0n;
  switch (type) {
    case T.bool:
      return v !== 0n;
    case T.int32:
    case T.int64:
    case T.enum:
      return Number(BigInt.asIntN(64, v));
    case T.uint32:
    case T.uint64:
      return Number(v);
    case T.sint32:
    case T.sint64:
      return Number((v >> 1n) ^ -(v & 1n));
    case T.double:
      return f.fixed?.readDoubleLE(0) ?? 0;
    case T.float:
      return f.fixed?.readFloatLE(0) ?? 0;
    case T.fixed32:
      return f.fixed?.readUInt32LE(0) ?? 0;
    case T.sfixed32:
      return f.fixed?.readInt32LE(0) ?? 0;
    case T.fixed64:
      return Number(f.fixed?.readBigUInt64LE(0) ?? 0n);
    case T.sfixed64:
      return Number(f.fixed?.readBigInt64LE(0) ?? 0n);
    case T.string:
      return f.bytes?.toString('utf8') ?? '';
    case T.bytes:
      return (f.bytes ?? Buffer.alloc(0)).toString('base64');
    default:
      throw new Error(`unsupported field type ${type}`);
  }
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

function rfc3339(seconds: number, nanos: number, micro: boolean): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micro ? `${base}.${pad(Math.floor(nanos / 1000), 6)}Z` : `${base}Z`;
}

/** Go's time.Duration.String(): 1h2m3.5s, 150ms, 0s. */
export function goDuration(ns: number): string {
  if (ns === 0) return '0s';
  const sign = ns < 0 ? '-' : '';
  let rest = Math.abs(ns);
  if (rest < 1e9) {
    const [unit, size] = rest < 1e3 ? ['ns', 1] : rest < 1e6 ? ['µs', 1e3] : ['ms', 1e6];
    return `${sign}${trimZeros(rest / size)}${unit}`;
  }
  const h = Math.floor(rest / 3.6e12);
  rest -= h * 3.6e12;
  const m = Math.floor(rest / 6e10);
  rest -= m * 6e10;
  const s = trimZeros(rest / 1e9);
  return `${sign}${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}
const trimZeros = (n: number): string => String(Number(n.toFixed(9)));

/** Types whose JSON form differs from their message form; undefined means "leave the field out" (Go's null/zero). */
const special: Record<string, (m: Record<string, unknown>) => unknown> = {
  [`${meta}.Time`]: (m) => (m.seconds || m.nanos ? rfc3339(Number(m.seconds ?? 0), Number(m.nanos ?? 0), false) : undefined),
  [`${meta}.MicroTime`]: (m) => (m.seconds || m.nanos ? rfc3339(Number(m.seconds ?? 0), Number(m.nanos ?? 0), true) : undefined),
  [`${meta}.Duration`]: (m) => goDuration(Number(m.duration ?? 0)),
  [`${meta}.FieldsV1`]: (m) => rawJson(m.Raw),
  'k8s.io.apimachinery.pkg.runtime.RawExtension': (m) => rawJson(m.raw),
  'k8s.io.apimachinery.pkg.api.resource.Quantity': (m) => m.string ?? '0',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': (m) => (Number(m.type ?? 0) === 1 ? (m.strVal ?? '') : (m.intVal ?? 0)),
};

function rawJson(base64: unknown): unknown {
  if (typeof base64 !== 'string' || base64 === '') return undefined;
  const text = Buffer.from(base64, 'base64').toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return base64;
  }
}

function decodeValue(f: WireField, row: FieldRow): unknown {
  const [, , type, , typeName] = row;
  if (type === T.message) return decodeMessage(f.bytes ?? Buffer.alloc(0), typeName ?? '');
  return scalar(f, type);
}

/**
 * One message as JSON. Empty strings are left out (Go does not tell an empty string from an absent one for
 * the non-pointer fields that carry them), zeros and false are kept (they are meaningful for pointer fields
 * such as replicas).
 */
export function decodeMessage(buf: Buffer, type: string): unknown {
  const table = fieldsOf(type);
  const out: Record<string, unknown> = {};
  for (const f of readFields(buf)) {
    const row = table.get(f.field);
    if (!row) continue;
    const [, name, fieldType, label, typeName] = row;
    const entry = typeName !== undefined && messages[typeName]?.map === 1;
    if (entry) {
      const kv = decodeMessage(f.bytes ?? Buffer.alloc(0), typeName) as { key?: unknown; value?: unknown };
      const map = (out[name] as Record<string, unknown> | undefined) ?? {};
      map[String(kv.key ?? '')] = kv.value ?? (fieldsOf(typeName).get(2)?.[2] === T.string ? '' : undefined);
      out[name] = map;
      continue;
    }
    if (label === repeated) {
      const list = (out[name] as unknown[] | undefined) ?? [];
      if (f.wire === 2 && fieldType !== T.message && fieldType !== T.string && fieldType !== T.bytes) {
        for (const v of readPackedVarints(f.bytes ?? Buffer.alloc(0))) list.push(scalar({ field: f.field, wire: 0, varint: v }, fieldType));
      } else list.push(decodeValue(f, row));
      out[name] = list;
      continue;
    }
    const value = decodeValue(f, row);
    if (inlineFields.has(`${type}.${name}`) && value !== null && typeof value === 'object') {
      Object.assign(out, value);
      continue;
    }
    if (value === undefined || (fieldType === T.string && value === '')) delete out[name];
    else out[name] = value;
  }
  const convert = special[type];
  return convert ? convert(out) : out;
}

export type ProtobufDecode = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

export function decodeKubernetesProtobuf(body: Buffer): ProtobufDecode {
  if (body.length < 4 || !body.subarray(0, 4).equals(protobufMagic)) return { ok: false, message: 'missing the k8s protobuf envelope prefix' };
  try {
    let apiVersion = '';
    let kind = '';
    let raw: Buffer | undefined;
    for (const f of readFields(body.subarray(4))) {
      if (f.field === 1 && f.bytes) {
        for (const t of readFields(f.bytes)) {
          if (t.field === 1) apiVersion = t.bytes?.toString('utf8') ?? '';
          if (t.field === 2) kind = t.bytes?.toString('utf8') ?? '';
        }
      }
      if (f.field === 2) raw = f.bytes;
    }
    const type = messageOfKind(apiVersion, kind);
    if (!type || !raw) return { ok: false, message: `no protobuf message is known for ${apiVersion}/${kind}; send it as JSON (kubectl create -f / kubectl apply -f)` };
    return { ok: true, value: { apiVersion, kind, ...(decodeMessage(raw, type) as Record<string, unknown>) } };
  } catch (e) {
    return { ok: false, message: `malformed protobuf body: ${(e as Error).message}` };
  }
}
