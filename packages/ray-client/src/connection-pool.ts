// A keep-alive connection pool several Ray clients can share (RayClientOptions.dispatcher), e.g. an operator's one
// pool for every cluster's dashboard. Sharing is safe where the clients agree on TLS settings and name resolution
// (set here, once): a request carries its own credentials (Ray token, API server authorization), a connection none.
import type { LookupFunction } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { connectTls, type TlsOptions } from './http-transport.ts';

export interface ConnectionPoolOptions {
  tls?: TlsOptions;
  lookup?: LookupFunction;
  /** Open connections per origin (a dashboard, or the API server for its service proxy). Default 16. */
  connectionsPerOrigin?: number;
  /** An idle keep-alive connection is closed after this long. Default 4 000 ms. */
  idleMs?: number;
}

export interface ConnectionPool {
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

/**
 * undici's Agent keeps one pool per origin and drops an origin's pool once its last connection closed, so what
 * the pool holds is bounded by the origins in use times `connectionsPerOrigin`, and nothing stays for a cluster
 * that is gone.
 */
export function createConnectionPool(options: ConnectionPoolOptions = {}): ConnectionPool {
  const agent = new Agent({
    keepAliveTimeout: options.idleMs ?? 4_000,
    keepAliveMaxTimeout: options.idleMs ?? 4_000,
    connections: options.connectionsPerOrigin ?? 16,
    connect: {
      ...connectTls(options.tls ?? {}),
      ...(options.lookup !== undefined ? { lookup: options.lookup } : {}),
    },
  });
  return { dispatcher: agent, close: () => agent.close() };
}
