// SPDY/3.1 framing (the SPDY/3.1 draft, "Framing Layer"), what Kubernetes' streaming protocols ride on.
// Every frame has an 8-byte header. Control frames: 1 bit set, 15-bit version (3), 16-bit type, 8-bit flags,
// 24-bit length. Data frames: 1 bit clear, 31-bit stream id, 8-bit flags, 24-bit length. Name/value header blocks
// (SYN_STREAM, SYN_REPLY, HEADERS) are one zlib stream per direction for the whole session, seeded with the SPDY
// dictionary and flushed (Z_SYNC_FLUSH) after each block.
import { constants, deflateRawSync, deflateSync, inflateSync } from 'node:zlib';
import { spdyDictionary } from './spdy-dictionary.ts';

export const controlType = { synStream: 1, synReply: 2, rstStream: 3, settings: 4, ping: 6, goAway: 7, headers: 8, windowUpdate: 9 } as const;
export const flagFin = 0x01;
/** RST_STREAM status codes used here. */
export const rstStatus = { protocolError: 1, invalidStream: 2, refusedStream: 3, cancel: 5 } as const;

export type Headers = Record<string, string[]>;

export type Frame =
  | { kind: 'data'; streamId: number; flags: number; data: Buffer }
  | { kind: 'control'; type: number; flags: number; payload: Buffer };

/** Splits a byte stream into frames; `push` returns the complete frames so far, keeping the rest. */
export function createFrameReader(maxFrameBytes = 16 * 1024 * 1024): { push(chunk: Buffer): Frame[] } {
  let buffered: Buffer = Buffer.alloc(0);
  return {
    push(chunk) {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const frames: Frame[] = [];
      while (buffered.length >= 8) {
        const length = buffered.readUIntBE(5, 3);
        if (length > maxFrameBytes) throw new Error(`SPDY frame of ${length} bytes is over the limit`);
        if (buffered.length < 8 + length) break;
        const flags = buffered[4] ?? 0;
        const payload = buffered.subarray(8, 8 + length);
        if (((buffered[0] ?? 0) & 0x80) !== 0) {
          const version = buffered.readUInt16BE(0) & 0x7fff;
          if (version !== 3) throw new Error(`SPDY version ${version} is not supported (3.1 is)`);
          frames.push({ kind: 'control', type: buffered.readUInt16BE(2), flags, payload });
        } else {
          frames.push({ kind: 'data', streamId: buffered.readUInt32BE(0) & 0x7fffffff, flags, data: payload });
        }
        buffered = buffered.subarray(8 + length);
      }
      return frames;
    },
  };
}

function header(first: number, second: number, flags: number, length: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeUInt32BE(first >>> 0, 0);
  out.writeUInt32BE(second >>> 0, 4);
  out[4] = flags;
  out.writeUIntBE(length, 5, 3);
  return out;
}

export function controlFrame(type: number, flags: number, payload: Buffer): Buffer {
  return Buffer.concat([header((0x8003 << 16) | type, 0, flags, payload.length), payload]);
}

export function dataFrame(streamId: number, flags: number, data: Buffer): Buffer {
  return Buffer.concat([header(streamId & 0x7fffffff, 0, flags, data.length), data]);
}

const words = (...values: number[]): Buffer => {
  const out = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => out.writeUInt32BE(v >>> 0, i * 4));
  return out;
};

export const synReplyFrame = (streamId: number, flags: number, block: Buffer): Buffer => controlFrame(controlType.synReply, flags, Buffer.concat([words(streamId & 0x7fffffff), block]));
export const rstStreamFrame = (streamId: number, status: number): Buffer => controlFrame(controlType.rstStream, 0, words(streamId & 0x7fffffff, status));
export const goAwayFrame = (lastGoodStreamId: number, status = 0): Buffer => controlFrame(controlType.goAway, 0, words(lastGoodStreamId & 0x7fffffff, status));
export const pingFrame = (id: number): Buffer => controlFrame(controlType.ping, 0, words(id));
export const windowUpdateFrame = (streamId: number, delta: number): Buffer => controlFrame(controlType.windowUpdate, 0, words(streamId & 0x7fffffff, delta & 0x7fffffff));

/** The plain name/value block: a 32-bit count, then each name and value with a 32-bit length (values NUL-joined). */
export function encodeHeaderBlock(headers: Headers): Buffer {
  const parts: Buffer[] = [words(Object.keys(headers).length)];
  for (const [name, values] of Object.entries(headers)) {
    const n = Buffer.from(name.toLowerCase(), 'utf8');
    const v = Buffer.from(values.join('\0'), 'utf8');
    parts.push(words(n.length), n, words(v.length), v);
  }
  return Buffer.concat(parts);
}

export function decodeHeaderBlock(block: Buffer): Headers {
  const headers: Headers = {};
  let at = 0;
  const take = (): string => {
    if (at + 4 > block.length) throw new Error('truncated SPDY header block');
    const length = block.readUInt32BE(at);
    at += 4;
    if (at + length > block.length) throw new Error('truncated SPDY header block');
    const text = block.subarray(at, at + length).toString('utf8');
    at += length;
    return text;
  };
  const count = block.length >= 4 ? block.readUInt32BE(0) : 0;
  at = 4;
  for (let i = 0; i < count; i++) {
    const name = take().toLowerCase();
    headers[name] = [...(headers[name] ?? []), ...take().split('\0')];
  }
  return headers;
}

/**
 * The receiving side of one direction's header compression. zlib's state spans every block of the session; Node's
 * one-shot inflate cannot keep it, so each block is inflated with the whole compressed history before it and the
 * new output sliced off. A session carries a handful of header blocks (one per stream), so this stays small; the
 * history is capped all the same.
 */
export function createHeaderDecompressor(maxHistoryBytes = 256 * 1024): (compressed: Buffer) => Headers {
  let history: Buffer = Buffer.alloc(0);
  let consumed = 0;
  return (compressed) => {
    history = Buffer.concat([history, compressed]);
    if (history.length > maxHistoryBytes) throw new Error('SPDY header compression history over its limit');
    const plain = inflateSync(history, { dictionary: spdyDictionary, finishFlush: constants.Z_SYNC_FLUSH });
    const block = plain.subarray(consumed);
    consumed = plain.length;
    return decodeHeaderBlock(block);
  };
}

/**
 * The sending side. The first block opens the zlib stream (header naming the dictionary); each later one continues
 * it as a self-contained deflate run ending in a sync flush, which any inflater continuing the stream accepts.
 */
export function createHeaderCompressor(): (headers: Headers) => Buffer {
  let started = false;
  return (headers) => {
    const block = encodeHeaderBlock(headers);
    const options = { finishFlush: constants.Z_SYNC_FLUSH };
    if (started) return deflateRawSync(block, options);
    started = true;
    return deflateSync(block, { ...options, dictionary: spdyDictionary });
  };
}
