// SPDY/3.1 framing and header compression, checked against an independent zlib stream as a client keeps one: one
// deflate context for the whole session, seeded with the dictionary, sync-flushed after each header block.
import { constants, createDeflate, createInflate } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { spdyDictionary } from '../../src/kubelet/spdy-dictionary.ts';
import {
  controlFrame, controlType, createFrameReader, createHeaderCompressor, createHeaderDecompressor, dataFrame, decodeHeaderBlock,
  encodeHeaderBlock, flagFin, goAwayFrame, type Headers,
} from '../../src/kubelet/spdy-frames.ts';

/** One deflate context across blocks, each ended with a sync flush: what a SPDY client's framer sends. */
function clientCompressor(): (block: Buffer) => Promise<Buffer> {
  const deflate = createDeflate({ dictionary: spdyDictionary });
  const chunks: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
  return (block) => new Promise((resolve) => {
    deflate.write(block);
    deflate.flush(constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat(chunks.splice(0))));
  });
}

describe('SPDY/3.1 frames', () => {
  it('reads control and data frames split anywhere across chunks', () => {
    const bytes = Buffer.concat([dataFrame(3, flagFin, Buffer.from('hello')), goAwayFrame(7), controlFrame(controlType.ping, 0, Buffer.from([0, 0, 0, 1]))]);
    const reader = createFrameReader();
    const frames = [...bytes].flatMap((byte) => reader.push(Buffer.from([byte])));
    expect(frames).toEqual([
      { kind: 'data', streamId: 3, flags: flagFin, data: Buffer.from('hello') },
      { kind: 'control', type: controlType.goAway, flags: 0, payload: Buffer.from([0, 0, 0, 7, 0, 0, 0, 0]) },
      { kind: 'control', type: controlType.ping, flags: 0, payload: Buffer.from([0, 0, 0, 1]) },
    ]);
  });

  it('refuses another SPDY version', () => {
    const frame = controlFrame(controlType.ping, 0, Buffer.alloc(4));
    frame[1] = 2;
    expect(() => createFrameReader().push(frame)).toThrow('SPDY version 2 is not supported');
  });

  it('decompresses header blocks that refer back to earlier blocks of the session', async () => {
    const compress = clientCompressor();
    const inflate = createHeaderDecompressor();
    const headers: Headers[] = [{ streamtype: ['error'] }, { streamtype: ['stdout'], extra: ['a', 'b'] }, { streamtype: ['stdout'], extra: ['a', 'b'] }];
    for (const h of headers) expect(inflate(await compress(encodeHeaderBlock(h)))).toEqual(h);
  });

  it('compresses header blocks a client continuing one zlib stream reads', async () => {
    const deflate = createHeaderCompressor();
    const inflate = createInflate({ dictionary: spdyDictionary });
    const out: Buffer[] = [];
    inflate.on('data', (chunk: Buffer) => out.push(chunk));
    const read = (block: Buffer): Promise<Buffer> => new Promise((resolve) => {
      inflate.write(block);
      inflate.flush(constants.Z_SYNC_FLUSH, () => resolve(Buffer.concat(out.splice(0))));
    });
    const blocks: Headers[] = [{}, { status: ['200'] }, {}];
    for (const h of blocks) expect(decodeHeaderBlock(await read(deflate(h)))).toEqual(h);
  });
});
