// TLS settings of the client's connections (HTTP and the log tail's WebSocket), as node's tls options.

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

/** The TLS part of a node:https agent's or ws connect options. */
export function connectTls(tls: TlsOptions): { rejectUnauthorized: boolean; ca?: string; cert?: string; key?: string; servername?: string } {
  return {
    rejectUnauthorized: tls.verify !== false,
    ...(tls.ca !== undefined ? { ca: tls.ca } : {}),
    ...(tls.cert !== undefined ? { cert: tls.cert } : {}),
    ...(tls.key !== undefined ? { key: tls.key } : {}),
    ...(tls.servername !== undefined ? { servername: tls.servername } : {}),
  };
}

