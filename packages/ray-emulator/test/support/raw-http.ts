// Plain node:http requests and `ws` tails, so the emulator is tested on the wire, not through our client.
import { request } from 'node:http';
import WebSocket from 'ws';

export interface RawAnswer {
  status: number;
  contentType: string | undefined;
  body: string;
}

export function raw(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method, headers: options.headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (p: Buffer) => parts.push(p));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], body: Buffer.concat(parts).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.setTimeout(5_000, () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.end(options.body);
  });
}

export const getJson = async (baseUrl: string, path: string, headers?: Record<string, string>) => {
  const answer = await raw(baseUrl, 'GET', path, headers ? { headers } : {});
  return { status: answer.status, json: answer.status === 200 ? (JSON.parse(answer.body) as Record<string, unknown>) : undefined, body: answer.body };
};

export const submit = (baseUrl: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  raw(baseUrl, 'POST', '/api/jobs/', { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

export interface TailRecording {
  frames: string[];
  /** Resolves with the close code (1006 when the connection was cut), or the HTTP status of a refused upgrade. */
  ended: Promise<{ kind: 'closed'; code: number; afterMs: number } | { kind: 'refused'; status: number; body: string }>;
  socket: WebSocket;
}

export function tail(
  wsBaseUrl: string,
  id: string,
  options: { headers?: Record<string, string>; perMessageDeflate?: boolean } = {},
): TailRecording {
  const started = Date.now();
  const socket = new WebSocket(`${wsBaseUrl}/api/jobs/${id}/logs/tail`, {
    headers: options.headers ?? {},
    perMessageDeflate: options.perMessageDeflate ?? false,
  });
  const frames: string[] = [];
  socket.on('message', (data) => frames.push(data.toString()));
  const ended = new Promise<Awaited<TailRecording['ended']>>((resolve) => {
    socket.on('unexpected-response', (_req, res) => {
      const parts: Buffer[] = [];
      res.on('data', (p: Buffer) => parts.push(p));
      res.on('end', () => {
        resolve({ kind: 'refused', status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') });
        socket.terminate();
      });
    });
    socket.on('error', () => undefined);
    socket.on('close', (code) => resolve({ kind: 'closed', code, afterMs: Date.now() - started }));
  });
  return { frames, ended, socket };
}
