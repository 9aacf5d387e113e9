// The log tail WebSocket (`/api/jobs/<id>/logs/tail`). Rules from ray-jobs-api.md §3.8:
// - no permessage-deflate: when it is offered, real Ray sends no log frame and closes 1000 mid-job;
// - the stream replays from the start of the file on every connection;
// - a close 1000 does NOT mean the job ended (JobHead restarts close tails with 1000): callers must ask
//   for the status after every end, whatever its kind.
import WebSocket from 'ws';
import type { IncomingMessage } from 'node:http';
import type { LookupFunction } from 'node:net';
import { classifyStatus, classifyTransportError, describeTransportError } from './classify.ts';
import type { Redactor } from './redact.ts';
import type { RayFailure } from './result.ts';
import { connectTls, type TlsOptions } from './http-transport.ts';

export type TailResult =
  /** The server sent a close frame with 1000. The job may or may not be terminal: ask. */
  | { kind: 'closed'; code: 1000; reason: string; chunks: number }
  /** Anything else after the upgrade: 1006 (no close frame: dashboard died, network dropped), 1011, ... */
  | { kind: 'cut'; code: number; reason: string; chunks: number }
  /** The caller's signal ended the tail. */
  | { kind: 'aborted'; chunks: number }
  /** The tail was closed by us: the next frame would have taken the bytes received past `maxBytes`. */
  | { kind: 'limit'; bytes: number; chunks: number }
  /** The upgrade itself failed: HTTP 404/400/401/403 before the upgrade, refused, timed out. */
  | RayFailure;

export interface TailOptions {
  /** Receives each text frame as Ray sent it (up to 10 lines; may end mid-line). */
  onChunk: (chunk: string) => void;
  signal?: AbortSignal;
  /** Bound on the HTTP upgrade (default: the client's request timeout). */
  handshakeTimeoutMs?: number;
  /**
   * Sends a WebSocket ping this often and treats a missing pong by the next ping as a cut connection
   * (Ray answers pings but never sends any; without this a half-open TCP connection would hang forever).
   * 0 disables. Default 30 000.
   */
  keepAliveMs?: number;
  /**
   * Bound on the log bytes this tail may receive (frame payloads). A frame that would pass it is refused from
   * its header, before its payload is read (so one huge log line costs nothing either), and the tail ends as
   * `limit`. Default: no bound (a frame of up to 1 GiB).
   */
  maxBytes?: number;
}

export interface TailConfig {
  wsBaseUrl: string;
  headers: Record<string, string>;
  tls: TlsOptions;
  defaultTimeoutMs: number;
  redact: Redactor;
  lookup?: LookupFunction;
}

/** One tail's socket and progress; the handlers below act on it. */
interface Tail {
  config: TailConfig;
  submissionId: string;
  options: TailOptions;
  socket: WebSocket;
  chunks: number;
  bytes: number;
  opened: boolean;
  /** ws refused a frame longer than maxPayload: our bound, not the server's fault. */
  overBound: boolean;
  settled: boolean;
  keepAlive: NodeJS.Timeout | undefined;
  resolve: (result: TailResult) => void;
  onAbort: () => void;
}

export function tailJobLogs(config: TailConfig, submissionId: string, options: TailOptions): Promise<TailResult> {
  // Already aborted: no connection is opened (terminating a socket still connecting would throw from ws).
  if (options.signal?.aborted) return Promise.resolve({ kind: 'aborted', chunks: 0 });
  return new Promise<TailResult>((resolve) => {
    const t: Tail = {
      config, submissionId, options, socket: openTailSocket(config, submissionId, options),
      chunks: 0, bytes: 0, opened: false, overBound: false, settled: false, keepAlive: undefined, resolve,
      onAbort: () => {
        finish(t, { kind: 'aborted', chunks: t.chunks });
        t.socket.terminate();
      },
    };
    options.signal?.addEventListener('abort', t.onAbort, { once: true });
    t.socket.on('unexpected-response', (request, response: IncomingMessage) => onRefused(t, request, response));
    t.socket.on('open', () => onOpen(t));
    t.socket.on('message', (data: WebSocket.RawData, isBinary: boolean) => onMessage(t, data, isBinary));
    t.socket.on('error', (error: Error) => onError(t, error));
    t.socket.on('close', (code: number, reason: Buffer) => onClose(t, code, reason));
  });
}

function openTailSocket(config: TailConfig, submissionId: string, options: TailOptions): WebSocket {
  const url = `${config.wsBaseUrl}/api/jobs/${encodeURIComponent(submissionId)}/logs/tail`;
  return new WebSocket(url, {
    headers: config.headers,
    perMessageDeflate: false,
    // A single huge log line is a single huge frame (§3.8); ws's default of 100 MiB would cut it.
    // With a bound, no frame may be longer than all of it (ws checks the length in the frame header).
    maxPayload: options.maxBytes !== undefined ? Math.max(1, options.maxBytes) : 1024 * 1024 * 1024,
    handshakeTimeout: options.handshakeTimeoutMs ?? config.defaultTimeoutMs,
    followRedirects: false,
    ...connectTls(config.tls),
    ...(config.lookup !== undefined ? { lookup: config.lookup } : {}),
  });
}

function finish(t: Tail, result: TailResult): void {
  if (t.settled) return;
  t.settled = true;
  if (t.keepAlive) clearInterval(t.keepAlive);
  t.options.signal?.removeEventListener('abort', t.onAbort);
  t.resolve(result);
}

/** An HTTP answer instead of the upgrade: classified like any other call's. */
function onRefused(t: Tail, request: { destroy(): void }, response: IncomingMessage): void {
  const parts: Buffer[] = [];
  response.on('data', (part: Buffer) => parts.push(part));
  response.on('error', () => undefined);
  response.on('end', () => {
    finish(t, classifyStatus(response.statusCode ?? 0, t.config.redact(Buffer.concat(parts).toString('utf8'))));
    request.destroy();
  });
}

function onOpen(t: Tail): void {
  t.opened = true;
  const every = t.options.keepAliveMs ?? 30_000;
  if (every <= 0) return;
  let awaitingPong = false;
  t.socket.on('pong', () => {
    awaitingPong = false;
  });
  t.keepAlive = setInterval(() => {
    if (awaitingPong) {
      t.socket.terminate(); // -> close 1006 -> 'cut'
      return;
    }
    awaitingPong = true;
    t.socket.ping();
  }, every);
}

function onMessage(t: Tail, data: WebSocket.RawData, isBinary: boolean): void {
  if (t.settled || isBinary) return;
  const size = rawLength(data);
  if (t.options.maxBytes !== undefined && t.bytes + size > t.options.maxBytes) {
    finish(t, { kind: 'limit', bytes: t.bytes, chunks: t.chunks });
    t.socket.terminate();
    return;
  }
  t.bytes += size;
  t.chunks += 1;
  t.options.onChunk(rawToString(data));
}

function onError(t: Tail, error: Error): void {
  if (t.opened) {
    // a 'close' follows and decides; a frame over maxPayload is our bound, reported as such.
    if ((error as { code?: string }).code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
      t.overBound = true;
      // ws would drain the rest of the frame while it waits for the server's close: drop the connection.
      t.socket.terminate();
    }
    return;
  }
  // ws reports its own handshake timeout with a message, not a code.
  const cause = /handshake has timed out/i.test(error.message) ? 'timeout' : classifyTransportError(error);
  finish(t, {
    kind: 'unavailable',
    cause,
    message: t.config.redact(`log tail for ${t.submissionId}: ${describeTransportError(error)}`),
  });
}

function onClose(t: Tail, code: number, reason: Buffer): void {
  if (!t.opened) {
    finish(t, { kind: 'unavailable', cause: 'reset', message: `log tail for ${t.submissionId}: closed before the upgrade` });
    return;
  }
  const text = reason.toString('utf8');
  if (t.overBound) finish(t, { kind: 'limit', bytes: t.bytes, chunks: t.chunks });
  else if (code === 1000) finish(t, { kind: 'closed', code: 1000, reason: text, chunks: t.chunks });
  else finish(t, { kind: 'cut', code, reason: text, chunks: t.chunks });
}

function rawLength(data: WebSocket.RawData): number {
  if (Array.isArray(data)) return data.reduce((n, b) => n + b.length, 0);
  return data.byteLength;
}

function rawToString(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}
