// The HTTP transport on node:http/https: over a pool shared by many clients (connection-pool.ts, an operator's one
// pool for every dashboard), or over a keep-alive agent of the client's own (a single client such as
// ray-job-submitter). Node's own keep-alive agent costs ~3 MiB of RSS to load where undici costs ~30 MiB and most of
// the submitter's start time (issue #27).
// The built-ins come from process.getBuiltinModule, not an ES import: importing node:http as an ES module builds
// its namespace, which reads http.WebSocket and so loads node's bundled undici, node:tls and node:http2
// (+12 MiB of RSS on node 24, issue #27). node:https (and node:tls under it) is loaded only for an https:// address.
import type * as Http from 'node:http';
import type * as Https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Redactor } from './redact.ts';
import { transportFailure, type HttpOutcome, type HttpRequest } from './http-request.ts';
import type { ConnectionPool } from './connection-pool.ts';
import { connectTls, type TlsOptions } from './tls-options.ts';

/** An idle keep-alive connection is closed after this long (as the shared pool does by default). */
const idleMs = 4_000;

export function createNodeHttpSender(config: {
  baseUrl: string;
  tls: TlsOptions;
  redact: Redactor;
  lookup?: LookupFunction;
  /** A pool shared with other clients: used as is, and not closed by close() (its owner closes it). */
  pool?: ConnectionPool;
}): { sendOnce: (request: HttpRequest) => Promise<HttpOutcome>; close: () => void } {
  const secure = config.baseUrl.startsWith('https:');
  const http = process.getBuiltinModule('node:http');
  const https = secure ? process.getBuiltinModule('node:https') : undefined;
  const requestFn = https ? https.request : http.request;
  const shared = config.pool?.agentFor(secure);
  const agent = shared ?? ownAgent(config, https, http);

  function sendOnce(req: HttpRequest): Promise<HttpOutcome> {
    const { method, path, headers, body, signal } = req;
    return new Promise<HttpOutcome>((resolve) => {
      const fail = (error: unknown) => resolve(transportFailure(method, path, error, config.redact));
      let outgoing: Http.ClientRequest;
      try {
        outgoing = requestFn(`${config.baseUrl}${path}`, {
          method,
          headers: body !== undefined ? { ...headers, 'content-length': String(Buffer.byteLength(body)) } : headers,
          agent,
          signal,
        });
      } catch (error) {
        fail(error);
        return;
      }
      outgoing.on('error', fail);
      outgoing.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', fail);
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ kind: 'answer', status: response.statusCode ?? 0, body: config.redact(text) });
        });
      });
      outgoing.end(body);
    });
  }

  return { sendOnce, close: () => (shared ? undefined : agent.destroy()) };
}

/** A keep-alive agent of this client's own (no shared pool). */
function ownAgent(config: { tls: TlsOptions; lookup?: LookupFunction }, https: typeof Https | undefined, http: typeof Http): Http.Agent {
  const agentOptions = {
    keepAlive: true,
    maxSockets: 16,
    timeout: idleMs,
    ...(config.lookup !== undefined ? { lookup: config.lookup } : {}),
  };
  return https ? new https.Agent({ ...agentOptions, ...connectTls(config.tls) }) : new http.Agent(agentOptions);
}
