// The client's HTTP: keep-alive connection reuse, TLS settings, per-request timeouts, one retry of a GET on a
// stale connection, on node:http (node-http-transport.ts): over a pool shared by many clients (`pool`) or an agent
// of the client's own.
// Never the global fetch: it always sends `Sec-Fetch-Mode: cors`, and Ray's browser filter answers 405 to a
// POST or DELETE carrying it (ray-jobs-api.md §2).
import type { LookupFunction } from 'node:net';
import { createNodeHttpSender } from './node-http-transport.ts';
import { deadlineSignal } from '@rayjob/deadline-signal';
import type { HttpOutcome } from './http-request.ts';
import type { ConnectionPool } from './connection-pool.ts';

export type { HttpOutcome, HttpRequest } from './http-request.ts';
export { connectTls, type TlsOptions } from './tls-options.ts';
import type { TlsOptions } from './tls-options.ts';
import type { Redactor } from './redact.ts';


export interface HttpTransport {
  send(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options?: { json?: unknown; timeoutMs?: number; signal?: AbortSignal },
  ): Promise<HttpOutcome>;
  close(): Promise<void>;
}

export function createHttpTransport(config: {
  baseUrl: string;
  headers: Record<string, string>;
  timeoutMs: number;
  tls: TlsOptions;
  redact: Redactor;
  lookup?: LookupFunction;
  /** Aborts every request of this transport, in flight or to come (the caller no longer wants any answer). */
  signal?: AbortSignal;
  /** A pool shared with other clients: used as is, and not closed by close(). */
  pool?: ConnectionPool;
}): HttpTransport {
  const sender = createNodeHttpSender({
    baseUrl: config.baseUrl,
    tls: config.tls,
    redact: config.redact,
    ...(config.lookup !== undefined ? { lookup: config.lookup } : {}),
    ...(config.pool !== undefined ? { pool: config.pool } : {}),
  });

  async function send(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { json?: unknown; timeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<HttpOutcome> {
    const first = await sendOnce(method, path, options);
    // A pooled keep-alive socket the server has since closed fails at once with a reset. A GET is safe to
    // repeat on a fresh connection; a POST or DELETE is not repeated (the caller decides).
    if (method === 'GET' && first.kind === 'transport-error' && first.cause === 'reset' && !cancelled(options.signal)) {
      return sendOnce(method, path, options);
    }
    return first;
  }

  async function sendOnce(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { json?: unknown; timeoutMs?: number; signal?: AbortSignal },
  ): Promise<HttpOutcome> {
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    if (cancelled(options.signal)) return aborted(method, path);
    const headers: Record<string, string> = { ...config.headers };
    let body: string | undefined;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['content-type'] = 'application/json';
    }
    const deadline = deadlineSignal(timeoutMs, callerSignals(options.signal));
    const outcome = await sender.sendOnce({ method, path, headers, body, signal: deadline.signal, timeoutMs }).finally(deadline.release);
    // The caller's abort is no outage of the server: say so (a timeout is an abort too, told apart here).
    if (outcome.kind === 'transport-error' && cancelled(options.signal)) return aborted(method, path);
    return outcome;
  }

  function callerSignals(call: AbortSignal | undefined): AbortSignal[] {
    return [config.signal, call].filter((s): s is AbortSignal => s !== undefined);
  }
  function cancelled(call: AbortSignal | undefined): boolean {
    return callerSignals(call).some((s) => s.aborted);
  }
  function aborted(method: string, path: string): HttpOutcome {
    return { kind: 'transport-error', cause: 'aborted', message: `${method} ${path}: aborted by the caller` };
  }

  return {
    send,
    close: async () => sender.close(),
  };
}
