// A keep-alive connection pool several Ray clients can share (RayClientOptions.pool), e.g. an operator's one pool
// for every cluster's dashboard. Sharing is safe where the clients agree on TLS settings and name resolution (set
// here, once): a request carries its own credentials (Ray token, API server authorization), a connection none.
// node:http's keep-alive agents, not an undici Agent: a resync meets every cluster's dashboard once, and undici made
// a pool per origin (with a 2,048-slot request queue) that lived until its connection went idle, ~1.4 ms of CPU per
// new origin (half of it GC) against ~0.5 ms here (3,000 origins, the chart's V8 flags; issue #27).
import type * as Http from 'node:http';
import type { LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { connectTls, type TlsOptions } from './tls-options.ts';

export interface ConnectionPoolOptions {
  tls?: TlsOptions;
  lookup?: LookupFunction;
  /** Open connections per origin (a dashboard, or the API server for its service proxy). Default 16. */
  connectionsPerOrigin?: number;
  /** An idle keep-alive connection is closed after this long. Default 4 000 ms. */
  idleMs?: number;
}

export interface ConnectionPool {
  /** The shared agent for http: (secure false) or https: origins; made on first use. */
  agentFor(secure: boolean): Http.Agent;
  close(): Promise<void>;
}

/**
 * node's Agent keeps connections per origin (host, port, TLS settings), at most `connectionsPerOrigin` of them, closes
 * an idle one after `idleMs` and forgets an origin once it has no connection left, so what the pool holds is bounded
 * by the origins in use times `connectionsPerOrigin`, and nothing stays for a cluster that is gone.
 */
export function createConnectionPool(options: ConnectionPoolOptions = {}): ConnectionPool {
  const idleMs = options.idleMs ?? 4_000;
  const common = {
    keepAlive: true,
    maxSockets: options.connectionsPerOrigin ?? 16,
    ...(options.lookup !== undefined ? { lookup: options.lookup } : {}),
  };
  let plain: Http.Agent | undefined;
  let secure: Http.Agent | undefined;
  return {
    agentFor: (tls) =>
      tls
        ? (secure ??= new (idleClosing(process.getBuiltinModule('node:https').Agent, idleMs))({ ...common, ...connectTls(options.tls ?? {}) }))
        : (plain ??= new (idleClosing(process.getBuiltinModule('node:http').Agent, idleMs))(common)),
    close: async () => {
      plain?.destroy();
      secure?.destroy();
    },
  };
}

const idleTimer = Symbol('idleTimer');
type IdleSocket = Duplex & { [idleTimer]?: NodeJS.Timeout };

/**
 * An agent that closes a connection idle for `idleMs` with a timer of its own. node's `timeout` option would do it
 * through the socket's timeout, whose handler looks for the socket in every origin's free list: with one origin per
 * cluster, a resync's thousands of idle connections made that search ~3 % of its CPU.
 */
function idleClosing(Base: typeof Http.Agent, idleMs: number): typeof Http.Agent {
  return class extends Base {
    override keepSocketAlive(socket: IdleSocket): void {
      // node's returns whether the socket may be kept (false: it is destroyed); its type says void.
      const kept = super.keepSocketAlive(socket) as unknown as boolean;
      if (kept) socket[idleTimer] = setTimeout(() => socket.destroy(), idleMs).unref();
      return kept as unknown as void;
    }
    override reuseSocket(socket: IdleSocket, request: Http.ClientRequest): void {
      clearTimeout(socket[idleTimer]);
      super.reuseSocket(socket, request);
    }
  };
}
