// Kubernetes' protobuf encoding, decoded for the few kinds kubectl's typed clients create with it
// (`kubectl create namespace|configmap|secret|serviceaccount`): client-go defaults built-in types to
// protobuf since 1.32, and kubectl does not fall back to JSON on 415. Envelope: "k8s\0" + runtime.Unknown
// {1: typeMeta{1: apiVersion, 2: kind}, 2: raw message}. Field numbers are those of k8s.io/api's
// generated.proto. Other kinds get 415 with a message saying to send JSON.
type Field =
  | { name: string; t: 'string' | 'bytes' | 'int' | 'bool' | 'time' | 'strings' }
  | { name: string; t: 'map'; bytes?: boolean }
  | { name: string; t: 'message' | 'messages'; of: Descriptor };
type Descriptor = Record<number, Field>;

const ownerReference: Descriptor = {
  1: { name: 'kind', t: 'string' },
  3: { name: 'name', t: 'string' },
  4: { name: 'uid', t: 'string' },
  5: { name: 'apiVersion', t: 'string' },
  6: { name: 'controller', t: 'bool' },
  7: { name: 'blockOwnerDeletion', t: 'bool' },
};
const objectMeta: Descriptor = {
  1: { name: 'name', t: 'string' },
  2: { name: 'generateName', t: 'string' },
  3: { name: 'namespace', t: 'string' },
  5: { name: 'uid', t: 'string' },
  6: { name: 'resourceVersion', t: 'string' },
  7: { name: 'generation', t: 'int' },
  8: { name: 'creationTimestamp', t: 'time' },
  9: { name: 'deletionTimestamp', t: 'time' },
  10: { name: 'deletionGracePeriodSeconds', t: 'int' },
  11: { name: 'labels', t: 'map' },
  12: { name: 'annotations', t: 'map' },
  13: { name: 'ownerReferences', t: 'messages', of: ownerReference },
  14: { name: 'finalizers', t: 'strings' },
};
const objectReference: Descriptor = {
  1: { name: 'kind', t: 'string' },
  2: { name: 'namespace', t: 'string' },
  3: { name: 'name', t: 'string' },
  4: { name: 'uid', t: 'string' },
  5: { name: 'apiVersion', t: 'string' },
  6: { name: 'resourceVersion', t: 'string' },
  7: { name: 'fieldPath', t: 'string' },
};
const kinds: Record<string, Descriptor> = {
  'v1/ConfigMap': { 1: { name: 'metadata', t: 'message', of: objectMeta }, 2: { name: 'data', t: 'map' }, 3: { name: 'binaryData', t: 'map', bytes: true }, 4: { name: 'immutable', t: 'bool' } },
  'v1/Secret': { 1: { name: 'metadata', t: 'message', of: objectMeta }, 2: { name: 'data', t: 'map', bytes: true }, 3: { name: 'type', t: 'string' }, 4: { name: 'stringData', t: 'map' }, 5: { name: 'immutable', t: 'bool' } },
  'v1/Namespace': { 1: { name: 'metadata', t: 'message', of: objectMeta }, 2: { name: 'spec', t: 'message', of: { 1: { name: 'finalizers', t: 'strings' } } } },
  'v1/ServiceAccount': {
    1: { name: 'metadata', t: 'message', of: objectMeta },
    2: { name: 'secrets', t: 'messages', of: objectReference },
    3: { name: 'imagePullSecrets', t: 'messages', of: { 1: { name: 'name', t: 'string' } } },
    4: { name: 'automountServiceAccountToken', t: 'bool' },
  },
};

export const protobufMagic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);

type Wire = { field: number; wire: number; varint?: bigint; bytes?: Buffer };

function* fields(buf: Buffer): Generator<Wire> {
  let i = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (i >= buf.length) throw new Error('truncated varint');
      const b = buf[i++] as number;
      result |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if ((b & 0x80) === 0) return result;
    }
  };
  while (i < buf.length) {
    const key = varint();
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) yield { field, wire, varint: varint() };
    else if (wire === 2) {
      const len = Number(varint());
      const bytes = buf.subarray(i, i + len);
      i += len;
      yield { field, wire, bytes };
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
}

function decodeTime(buf: Buffer): string | undefined {
  let seconds = 0n;
  for (const f of fields(buf)) if (f.field === 1 && f.varint !== undefined) seconds = f.varint;
  if (seconds === 0n) return undefined;
  return new Date(Number(seconds) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function decodeMessage(buf: Buffer, desc: Descriptor): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields(buf)) {
    const d = desc[f.field];
    if (!d) continue;
    switch (d.t) {
      case 'string': {
        const s = f.bytes?.toString('utf8') ?? '';
        if (s !== '') out[d.name] = s;
        break;
      }
      case 'bytes':
        out[d.name] = (f.bytes ?? Buffer.alloc(0)).toString('base64');
        break;
      case 'int':
        if (f.varint !== undefined && f.varint !== 0n) out[d.name] = Number(BigInt.asIntN(64, f.varint));
        break;
      case 'bool':
        if (f.varint !== undefined) out[d.name] = f.varint !== 0n;
        break;
      case 'time': {
        const t = f.bytes ? decodeTime(f.bytes) : undefined;
        if (t) out[d.name] = t;
        break;
      }
      case 'strings':
        out[d.name] = [...((out[d.name] as string[]) ?? []), f.bytes?.toString('utf8') ?? ''];
        break;
      case 'map': {
        let key = '';
        let value: Buffer = Buffer.alloc(0);
        for (const e of fields(f.bytes ?? Buffer.alloc(0))) {
          if (e.field === 1) key = e.bytes?.toString('utf8') ?? '';
          if (e.field === 2) value = e.bytes ?? Buffer.alloc(0);
        }
        const map = (out[d.name] as Record<string, string>) ?? {};
        map[key] = d.bytes ? value.toString('base64') : value.toString('utf8');
        out[d.name] = map;
        break;
      }
      case 'message':
        out[d.name] = decodeMessage(f.bytes ?? Buffer.alloc(0), d.of);
        break;
      case 'messages':
        out[d.name] = [...((out[d.name] as unknown[]) ?? []), decodeMessage(f.bytes ?? Buffer.alloc(0), d.of)];
        break;
    }
  }
  return out;
}

export type ProtobufDecode = { ok: true; value: Record<string, unknown> } | { ok: false; message: string };

export function decodeKubernetesProtobuf(body: Buffer): ProtobufDecode {
  if (body.length < 4 || !body.subarray(0, 4).equals(protobufMagic)) return { ok: false, message: 'missing the k8s protobuf envelope prefix' };
  try {
    let apiVersion = '';
    let kind = '';
    let raw: Buffer | undefined;
    for (const f of fields(body.subarray(4))) {
      if (f.field === 1 && f.bytes) {
        for (const t of fields(f.bytes)) {
          if (t.field === 1) apiVersion = t.bytes?.toString('utf8') ?? '';
          if (t.field === 2) kind = t.bytes?.toString('utf8') ?? '';
        }
      }
      if (f.field === 2) raw = f.bytes;
    }
    const desc = kinds[`${apiVersion}/${kind}`];
    if (!desc || !raw) {
      return {
        ok: false,
        message: `the sandbox API server decodes protobuf only for ${Object.keys(kinds).join(', ')}; got ${apiVersion}/${kind}. Send JSON instead (kubectl create -f / kubectl apply -f)`,
      };
    }
    return { ok: true, value: { apiVersion, kind, ...decodeMessage(raw, desc) } };
  } catch (e) {
    return { ok: false, message: `malformed protobuf body: ${(e as Error).message}` };
  }
}
