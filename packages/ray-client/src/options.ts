// Client options and their validation. Messages name the option and the fix, never a secret's value.
import type { LookupFunction } from 'node:net';
import { isRayBrowserHeaderName, isRayBrowserUserAgent } from '@rayjob/kube-model';
import type { ConnectionPool } from './connection-pool.ts';
import type { TlsOptions } from './http-transport.ts';

export interface RayClientOptions {
  /** Dashboard address: http(s)://host:port[/prefix], or bare host:port (-> http). */
  address: string;
  /** Ray token (RAY_AUTH_MODE=token); sent as `X-Ray-Authorization: Bearer <token>` on HTTP and WebSocket. */
  token?: string;
  /**
   * Full `Authorization` header value for a proxy in front of Ray, e.g. `Bearer <service-account token>`
   * for the Kubernetes API server's service proxy. Ray's own token stays in X-Ray-Authorization.
   */
  apiServerAuthorization?: string;
  /** Extra headers on every request and on the WebSocket upgrade (`ray job --headers`). */
  headers?: Record<string, string>;
  tls?: TlsOptions;
  /** Per-request timeout in ms (default 10 000). */
  timeoutMs?: number;
  /**
   * Host name resolution for HTTP and WebSocket connections (node:net's `lookup`), e.g. a sandbox's cluster
   * DNS for an operator running outside the cluster. Default: the system resolver.
   */
  lookup?: LookupFunction;
  /**
   * Aborts every call of this client, in flight or to come: e.g. an operator replica that lost its lease must not
   * wait for (or act on) an answer. An aborted call answers `unavailable` with cause `aborted`.
   */
  signal?: AbortSignal;
  /**
   * A connection pool (createConnectionPool) shared with other clients, e.g. an operator's one pool for every
   * cluster's dashboard: it must carry the same TLS settings and `lookup` (requests carry their own credentials).
   * This client's close() leaves it open: its owner closes it. Default: a keep-alive agent of this client's own.
   */
  pool?: ConnectionPool;
  /** Skip `GET /api/version` and gate submit fields on this Ray version instead. */
  rayVersion?: string;
}

export function validateRayClientOptions(options: RayClientOptions): string[] {
  const problems: string[] = [];
  if (typeof options.address !== 'string' || options.address.trim() === '') {
    problems.push('address is required, e.g. http://127.0.0.1:8265');
  }
  if (options.token !== undefined && (options.token === '' || /[\r\n]/.test(options.token))) {
    problems.push('token must be a non-empty single line (check the token file for a stray newline)');
  }
  if (options.apiServerAuthorization !== undefined && /[\r\n]/.test(options.apiServerAuthorization)) {
    problems.push('apiServerAuthorization must be a single line');
  }
  if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
    problems.push('timeoutMs must be a positive number of milliseconds');
  }
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) problems.push(`headers: "${name}" is not a valid header name`);
    if (typeof value !== 'string' || /[\r\n]/.test(value)) problems.push(`headers: value of "${name}" must be a single-line string`);
    if (isRayBrowserHeaderName(name)) {
      problems.push(`headers: "${name}" makes Ray treat the request as browser traffic (405 on POST/DELETE); remove it`);
    }
    if (name.toLowerCase() === 'user-agent' && isRayBrowserUserAgent(value)) {
      problems.push('headers: a User-Agent starting with "Mozilla" makes Ray refuse POST/DELETE (405); use another');
    }
  }
  return problems;
}
