/**
 * Raw HTTP over node:http, so that nothing is added to or hidden from the exchange.
 * (Node's global fetch adds `sec-fetch-mode: cors`, which Ray's browser filter rejects.)
 */
import http from 'node:http';

export type HttpResult =
  | { kind: 'response'; status: number; contentType: string; headers: http.IncomingHttpHeaders; body: string }
  | { kind: 'connection-error'; code: string };

export type HttpRequest = {
  method?: string;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else is JSON-encoded with a JSON content type. */
  body?: unknown;
  timeoutMs?: number;
};

export function httpRequest(url: string, request: HttpRequest = {}): Promise<HttpResult> {
  const headers: Record<string, string> = { ...request.headers };
  let payload: string | undefined;
  if (typeof request.body === 'string') payload = request.body;
  else if (request.body !== undefined) {
    payload = JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  return new Promise((resolve) => {
    const req = http.request(url, { method: request.method ?? 'GET', headers, timeout: request.timeoutMs ?? 15_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          kind: 'response',
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ kind: 'connection-error', code: error.code ?? error.message }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('request timed out'), { code: 'TIMEOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ kind: 'connection-error', code: error.code ?? error.message }));
    req.end(payload);
  });
}

/** Parses a JSON body, or fails with the status and the start of the body (for test messages). */
export function jsonBody(result: HttpResult): unknown {
  if (result.kind !== 'response') throw new Error(`expected a response, got connection error ${result.code}`);
  try {
    return JSON.parse(result.body);
  } catch {
    throw new Error(`expected JSON, got ${result.status}: ${result.body.slice(0, 300)}`);
  }
}
