// One undici Agent per client (or one shared by many, given as `dispatcher`): keep-alive connection reuse, TLS
// settings, per-request timeouts.
// undici.request (not the global fetch) on purpose: fetch always sends `Sec-Fetch-Mode: cors`, and Ray's
// browser filter answers 405 to a POST or DELETE carrying it (ray-jobs-api.md §2).
import type { LookupFunction } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { classifyTransportError, describeTransportError } from './classify.ts';
import type { Redactor } from './redact.ts';
import type { UnavailableCause } from './result.ts';

export type HttpOutcome =
  | { kind: 'answer'; status: number; body: string }
  | { kind: 'transport-error'; cause: UnavailableCause; message: string };

export interface TlsOptions {
  /** Verify the server certificate (default true). */
  verify?: boolean;
  /** PEM contents of the CA bundle to trust (not a path). */
  ca?: string;
  /** A client certificate and its key (PEM), e.g. for the API server's service proxy with a certificate user. */
  cert?: string;
  key?: string;
  /** The name to verify the server certificate against (SNI), when it differs from the address's host. */
  servername?: string;
}

/** The TLS part of an undici/ws connect option. */
export function connectTls(tls: TlsOptions): { rejectUnauthorized: boolean; ca?: string; cert?: string; key?: string; servername?: string } {
  return {
    rejectUnauthorized: tls.verify !== false,
    ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
    ...(tls.cert !== undefined ? { cert: tls.cert } : {}),
    ...(tls.key !== undefined ? { key: tls.key } : {}),
    ...(tls.servername !== undefined ? { servername: tls.servername } : {}),
  };
}

export interface HttpTransport {
  send(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options?: { json?: unknown; timeoutMs?: number; signal?: AbortSignal },
  ): Promise<HttpOutcome>;
  close(): Promise<void>;
}

// structure-exception(function-lines createHttpTransport): over the limit before #21 set it; the split is left for a follow-up of #21
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
  dispatcher?: Dispatcher;
}): HttpTransport {
  const agent = config.dispatcher ?? new Agent({
    keepAliveTimeout: 4_000,
    connections: 16,
    connect: {
      ...connectTls(config.tls),
      ...(config.lookup !== undefined ? { lookup: config.lookup } : {}),
    },
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
    try {
      const response = await request(`${config.baseUrl}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
        dispatcher: agent,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), ...callerSignals(options.signal)]),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const text = await response.body.text();
      return { kind: 'answer', status: response.statusCode, body: config.redact(text) };
    } catch (error) {
      // The caller's abort is no outage of the server: say so (a timeout is an abort too, told apart here).
      if (cancelled(options.signal)) return aborted(method, path);
      return {
        kind: 'transport-error',
        cause: classifyTransportError(error),
        message: config.redact(`${method} ${path}: ${describeTransportError(error)}`),
      };
    }
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
    close: async () => {
      if (!config.dispatcher) await agent.close();
    },
  };
}
