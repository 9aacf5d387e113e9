// How pods reach the API server (what the `kubernetes` Service and kube-proxy give a real pod): a TLS endpoint on
// the node's address in the pod network, with a certificate for that address signed by the cluster CA (the
// ca.crt pods get), forwarding each connection to the API server, which listens on the host's loopback where no
// pod can reach it. Containers find it through KUBERNETES_SERVICE_HOST/PORT, as client-go's in-cluster config does.
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, createServer, type TLSSocket } from 'node:tls';
import type { CertificateAndKey } from '../pki/x509.ts';

export interface ApiEndpointOptions {
  /** Where pods connect (the pod network gateway). */
  host: string;
  /** Port to listen on; 443 by default (falls back to a free port when taken or not permitted). */
  port?: number;
  /** The API server: http://127.0.0.1:N (TLS ends here) or https://... (TLS again, verified with `targetCA`). */
  target: string;
  targetCA?: string;
  /** A serving certificate for `host`. */
  serving: (host: string) => CertificateAndKey;
}

export interface ApiEndpoint {
  readonly host: string;
  readonly port: number;
  /** The service environment every container gets (KUBERNETES_SERVICE_HOST, KUBERNETES_PORT_443_TCP, ...). */
  readonly env: Record<string, string>;
  stop(): Promise<void>;
}

/** The variables the kubelet sets for the `kubernetes` Service in every container. */
export function kubernetesServiceEnv(host: string, port: number): Record<string, string> {
  const url = `tcp://${host}:${port}`;
  return {
    KUBERNETES_SERVICE_HOST: host,
    KUBERNETES_SERVICE_PORT: String(port),
    KUBERNETES_SERVICE_PORT_HTTPS: String(port),
    KUBERNETES_PORT: url,
    KUBERNETES_PORT_443_TCP: url,
    KUBERNETES_PORT_443_TCP_PROTO: 'tcp',
    KUBERNETES_PORT_443_TCP_PORT: String(port),
    KUBERNETES_PORT_443_TCP_ADDR: host,
  };
}

export async function startApiEndpoint(options: ApiEndpointOptions): Promise<ApiEndpoint> {
  const target = new URL(options.target);
  const targetPort = Number(target.port || (target.protocol === 'https:' ? 443 : 80));
  const targetHost = target.hostname.replace(/^\[|\]$/g, '');
  const sockets = new Set<Socket | TLSSocket>();
  const track = (s: Socket | TLSSocket): void => { sockets.add(s); s.on('close', () => sockets.delete(s)); };
  const serving = options.serving(options.host);
  // HTTP/1.1 only: the bytes are relayed, so both sides must speak the same protocol (clients fall back from h2).
  const server = createServer({ cert: serving.cert, key: serving.key, ALPNProtocols: ['http/1.1'] }, (client) => {
    track(client);
    const upstream = target.protocol === 'https:'
      ? tlsConnect({ host: targetHost, port: targetPort, ALPNProtocols: ['http/1.1'], ...(options.targetCA !== undefined ? { ca: options.targetCA } : { rejectUnauthorized: false }) })
      : netConnect(targetPort, targetHost);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  const listen = (port: number): Promise<void> => new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host, () => { server.off('error', reject); resolve(); });
  });
  try {
    await listen(options.port ?? 443);
  } catch (error) {
    if (options.port !== undefined) throw error;
    await listen(0);
  }
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    host: options.host,
    port,
    env: kubernetesServiceEnv(options.host, port),
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
