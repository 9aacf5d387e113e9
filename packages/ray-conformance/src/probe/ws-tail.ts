/**
 * A raw WebSocket client for `/api/jobs/{id}/logs/tail` that records everything Ray sends:
 * the handshake answer, each text frame with its arrival time, and how the socket closed.
 * Compression is a parameter because Ray's behaviour depends on it (see FINDINGS.md).
 */
import WebSocket from 'ws';

export type TailFrame = { atMs: number; text: string };

export type TailResult =
  | { kind: 'rejected'; status: number; body: string }
  | { kind: 'closed'; code: number; reason: string; frames: TailFrame[]; openedAtMs: number; closedAtMs: number; extensions: string }
  | { kind: 'error'; message: string; frames: TailFrame[] }
  | { kind: 'timeout'; frames: TailFrame[] };

export type TailOptions = {
  headers?: Record<string, string>;
  /** Offer permessage-deflate (what WHATWG WebSocket clients always do). */
  deflate: boolean;
  timeoutMs: number;
  /** Called once the socket is open; lets a scenario inject a fault mid-stream. */
  onOpen?: () => void;
};

export function tailLogs(wsUrl: string, options: TailOptions): Promise<TailResult> {
  const started = Date.now();
  const frames: TailFrame[] = [];
  return new Promise((resolve) => {
    const socket = new WebSocket(wsUrl, {
      headers: options.headers,
      perMessageDeflate: options.deflate,
      maxPayload: 256 * 1024 * 1024,
    });
    let openedAtMs = -1;
    let settled = false;
    const finish = (result: TailResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const timer = setTimeout(() => {
      socket.terminate();
      finish({ kind: 'timeout', frames });
    }, options.timeoutMs);
    socket.on('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        finish({ kind: 'rejected', status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        socket.terminate();
      });
    });
    socket.on('open', () => {
      openedAtMs = Date.now() - started;
      options.onOpen?.();
    });
    socket.on('message', (data, isBinary) => {
      frames.push({ atMs: Date.now() - started, text: isBinary ? `<binary ${String(data)}>` : String(data) });
    });
    socket.on('close', (code, reason) => {
      finish({
        kind: 'closed',
        code,
        reason: reason.toString('utf8'),
        frames,
        openedAtMs,
        closedAtMs: Date.now() - started,
        extensions: socket.extensions,
      });
    });
    socket.on('error', (error) => {
      // 'close' follows an error after the handshake; before it, nothing else comes.
      if (openedAtMs < 0) finish({ kind: 'error', message: error.message, frames });
    });
  });
}
