// Protobuf wire format: one message's fields in order, as (field number, wire type, value).
export type WireField = { field: number; wire: number; varint?: bigint; bytes?: Buffer; fixed?: Buffer };

export function* readFields(buf: Buffer): Generator<WireField> {
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
      if (i + len > buf.length) throw new Error('truncated length-delimited field');
      const bytes = buf.subarray(i, i + len);
      i += len;
      yield { field, wire, bytes };
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      if (i + size > buf.length) throw new Error('truncated fixed-size field');
      yield { field, wire, fixed: buf.subarray(i, i + size) };
      i += size;
    } else throw new Error(`unsupported wire type ${wire}`);
  }
}

/** Varints of a packed repeated scalar field. */
export function* readPackedVarints(buf: Buffer): Generator<bigint> {
  let i = 0;
  while (i < buf.length) {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++] as number;
      result |= BigInt(b & 0x7f) << shift;
      shift += 7n;
      if ((b & 0x80) === 0) break;
      if (i >= buf.length) throw new Error('truncated packed varint');
    }
    yield result;
  }
}
