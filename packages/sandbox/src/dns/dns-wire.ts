// The little of the DNS wire format (RFC 1035) the cluster resolver needs: parse one question,
// answer with A records, NODATA or NXDOMAIN.

export interface DnsQuestion {
  id: number;
  flags: number;
  name: string;
  type: number;
  klass: number;
  /** Bytes of the question section, echoed in the answer. */
  questionBytes: Buffer;
}

export const recordTypes = { A: 1, AAAA: 28, SRV: 33, ANY: 255 } as const;

export type ParseResult = { ok: true; question: DnsQuestion } | { ok: false; id: number | undefined };

export function parseQuery(message: Buffer): ParseResult {
  if (message.length < 12) return { ok: false, id: undefined };
  const id = message.readUInt16BE(0);
  const flags = message.readUInt16BE(2);
  const questions = message.readUInt16BE(4);
  if (questions < 1) return { ok: false, id };
  const labels: string[] = [];
  let offset = 12;
  for (;;) {
    if (offset >= message.length) return { ok: false, id };
    const length = message[offset] ?? 0;
    if (length === 0) { offset += 1; break; }
    if ((length & 0xc0) !== 0 || offset + 1 + length > message.length) return { ok: false, id };
    labels.push(message.subarray(offset + 1, offset + 1 + length).toString('latin1'));
    offset += 1 + length;
  }
  if (offset + 4 > message.length) return { ok: false, id };
  const type = message.readUInt16BE(offset);
  const klass = message.readUInt16BE(offset + 2);
  return { ok: true, question: { id, flags, name: labels.join('.').toLowerCase(), type, klass, questionBytes: message.subarray(12, offset + 4) } };
}

export type Rcode = 0 | 1 | 2 | 3 | 5; // NOERROR, FORMERR, SERVFAIL, NXDOMAIN, REFUSED

export function buildResponse(question: DnsQuestion, rcode: Rcode, addresses: string[], ttlSeconds = 5): Buffer {
  const answers = question.type === recordTypes.A || question.type === recordTypes.ANY ? addresses : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(question.id, 0);
  const rd = question.flags & 0x0100;
  const opcode = question.flags & 0x7800;
  header.writeUInt16BE(0x8000 | opcode | 0x0400 | rd | 0x0080 | rcode, 2); // QR, AA, RD echoed, RA
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answers.length, 6);
  const records = answers.map((address) => {
    const record = Buffer.alloc(16);
    record.writeUInt16BE(0xc00c, 0); // pointer to the question's name
    record.writeUInt16BE(recordTypes.A, 2);
    record.writeUInt16BE(1, 4);
    record.writeUInt32BE(ttlSeconds, 6);
    record.writeUInt16BE(4, 10);
    address.split('.').forEach((octet, i) => record.writeUInt8(Number(octet) & 0xff, 12 + i));
    return record;
  });
  return Buffer.concat([header, question.questionBytes, ...records]);
}

export function buildError(id: number, rcode: Rcode): Buffer {
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x8000 | rcode, 2);
  return header;
}

/** A minimal query builder, used by the host-side lookup and by tests. */
export function buildQuery(id: number, name: string, type: number = recordTypes.A): Buffer {
  const labels = name.replace(/\.$/, '').split('.').map((label) => {
    const bytes = Buffer.from(label, 'latin1');
    return Buffer.concat([Buffer.from([bytes.length]), bytes]);
  });
  const header = Buffer.alloc(12);
  header.writeUInt16BE(id, 0);
  header.writeUInt16BE(0x0100, 2);
  header.writeUInt16BE(1, 4);
  const tail = Buffer.alloc(5);
  tail.writeUInt16BE(type, 1);
  tail.writeUInt16BE(1, 3);
  return Buffer.concat([header, ...labels, tail]);
}

/** Reads the A records and rcode from a response (host-side lookup, tests). */
export function parseAnswers(message: Buffer): { rcode: number; addresses: string[] } {
  const rcode = message.readUInt16BE(2) & 0x000f;
  const answers = message.readUInt16BE(6);
  let offset = 12;
  while ((message[offset] ?? 0) !== 0) offset += 1 + (message[offset] ?? 0);
  offset += 5;
  const addresses: string[] = [];
  for (let i = 0; i < answers && offset + 12 <= message.length; i += 1) {
    const type = message.readUInt16BE(offset + 2);
    const length = message.readUInt16BE(offset + 10);
    if (type === recordTypes.A && length === 4) addresses.push([...message.subarray(offset + 12, offset + 16)].join('.'));
    offset += 12 + length;
  }
  return { rcode, addresses };
}
