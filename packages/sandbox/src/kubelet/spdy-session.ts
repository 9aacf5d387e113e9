// The server end of a SPDY/3.1 session over an upgraded connection, as Kubernetes' streaming endpoints use it: the
// client opens every stream (SYN_STREAM, odd ids) and the server accepts each with a SYN_REPLY; DATA flows both
// ways; FIN half-closes; PINGs from the client are echoed; GOAWAY ends the session. Flow control: the session only
// ever meets Kubernetes' streaming clients (moby/spdystream), which neither send WINDOW_UPDATE nor honour windows,
// so this side grants the window back as it reads and does not limit what it sends.
import { PassThrough } from 'node:stream';
import type { Duplex } from 'node:stream';
import {
  controlType, createFrameReader, createHeaderCompressor, createHeaderDecompressor, dataFrame, flagFin, goAwayFrame,
  pingFrame, rstStatus, rstStreamFrame, synReplyFrame, windowUpdateFrame, type Frame, type Headers,
} from './spdy-frames.ts';

export interface SpdyStream {
  readonly id: number;
  readonly headers: Headers;
  /** What the client sends on this stream; ends at its FIN (or a reset, or the end of the session). */
  readonly incoming: PassThrough;
  write(data: Buffer): void;
  /** Half-closes this side (FIN). */
  end(): void;
}

export interface SpdySession {
  /** GOAWAY, then the connection is closed once written. */
  close(): void;
  readonly closed: Promise<void>;
}

/** Largest DATA frame this side writes (the 24-bit length allows more; smaller frames interleave streams better). */
const maxDataFrame = 32 * 1024;

/** One session's state: its header compression contexts, its open streams, how far the client got. */
interface Session {
  send(bytes: Buffer): void;
  inflate: ReturnType<typeof createHeaderDecompressor>;
  deflate: ReturnType<typeof createHeaderCompressor>;
  streams: Map<number, { stream: SpdyStream; localClosed: boolean }>;
  lastStreamId: number;
  goneAway: boolean;
  onStream(stream: SpdyStream): void;
}

/** Accepts a client's stream with a SYN_REPLY and hands it to `onStream`. */
function acceptStream(s: Session, id: number, headers: Headers, fin: boolean): void {
  const incoming = new PassThrough();
  const entry = { localClosed: false, stream: undefined as unknown as SpdyStream };
  entry.stream = {
    id, headers, incoming,
    write(data) {
      if (entry.localClosed) return;
      for (let at = 0; at < data.length; at += maxDataFrame) s.send(dataFrame(id, 0, data.subarray(at, at + maxDataFrame)));
    },
    end() {
      if (entry.localClosed) return;
      entry.localClosed = true;
      s.send(dataFrame(id, flagFin, Buffer.alloc(0)));
    },
  };
  s.streams.set(id, entry);
  s.send(synReplyFrame(id, 0, s.deflate({})));
  if (fin) incoming.end();
  s.onStream(entry.stream);
}

function handleControl(s: Session, frame: Extract<Frame, { kind: 'control' }>): void {
  const p = frame.payload;
  switch (frame.type) {
    case controlType.synStream: {
      const id = p.readUInt32BE(0) & 0x7fffffff;
      const headers = s.inflate(p.subarray(10));
      // Client streams have odd, increasing ids; anything else is a protocol error on that stream.
      if (id % 2 === 0 || id <= s.lastStreamId || s.goneAway) { s.send(rstStreamFrame(id, s.goneAway ? rstStatus.refusedStream : rstStatus.protocolError)); return; }
      s.lastStreamId = id;
      acceptStream(s, id, headers, (frame.flags & flagFin) !== 0);
      return;
    }
    case controlType.headers:
      s.inflate(p.subarray(4)); // keeps the compression state in step; Kubernetes sends none after SYN_STREAM
      if ((frame.flags & flagFin) !== 0) s.streams.get(p.readUInt32BE(0) & 0x7fffffff)?.stream.incoming.end();
      return;
    case controlType.rstStream: {
      const entry = s.streams.get(p.readUInt32BE(0) & 0x7fffffff);
      if (entry !== undefined) { entry.localClosed = true; entry.stream.incoming.end(); }
      return;
    }
    case controlType.ping:
      if ((p.readUInt32BE(0) & 1) === 1) s.send(pingFrame(p.readUInt32BE(0)));
      return;
    case controlType.goAway:
      s.goneAway = true;
      return;
    default:
      return; // SETTINGS, WINDOW_UPDATE, SYN_REPLY (never expected here): nothing to do
  }
}

/** DATA for an open stream: passed on, and the window granted back at once (see the header). */
function handleData(s: Session, frame: Exclude<Frame, { kind: 'control' }>): void {
  const entry = s.streams.get(frame.streamId);
  if (entry === undefined) { s.send(rstStreamFrame(frame.streamId, rstStatus.invalidStream)); return; }
  if (frame.data.length > 0) {
    entry.stream.incoming.write(frame.data);
    s.send(windowUpdateFrame(frame.streamId, frame.data.length));
    s.send(windowUpdateFrame(0, frame.data.length));
  }
  if ((frame.flags & flagFin) !== 0) entry.stream.incoming.end();
}

export function startSpdySession(socket: Duplex, head: Buffer, onStream: (stream: SpdyStream) => void): SpdySession {
  const reader = createFrameReader();
  const s: Session = {
    send: (bytes) => { if (!socket.destroyed && socket.writable) socket.write(bytes); },
    inflate: createHeaderDecompressor(),
    deflate: createHeaderCompressor(),
    streams: new Map(),
    lastStreamId: 0,
    goneAway: false,
    onStream,
  };
  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => { resolveClosed = resolve; });

  const handle = (chunk: Buffer): void => {
    try {
      for (const frame of reader.push(chunk)) {
        if (frame.kind === 'control') handleControl(s, frame);
        else handleData(s, frame);
      }
    } catch {
      s.send(goAwayFrame(s.lastStreamId, 1));
      socket.destroy();
    }
  };

  const finish = (): void => {
    for (const { stream } of s.streams.values()) stream.incoming.end();
    resolveClosed();
  };
  socket.on('data', handle);
  socket.on('close', finish);
  socket.on('error', () => socket.destroy());
  if (head.length > 0) handle(head);

  return {
    closed,
    close() {
      if (!s.goneAway) s.send(goAwayFrame(s.lastStreamId));
      s.goneAway = true;
      socket.end();
    },
  };
}
