// The kubelet's HTTPS endpoint (port in the Node's daemonEndpoints.kubeletEndpoint.Port, on its InternalIP):
// /healthz, /containerLogs/{ns}/{pod}/{container} and /exec/{ns}/{pod}/{container} (WebSocket or SPDY/3.1), /portForward/{ns}/{pod}. API servers reach logs and
// exec through it, as kube-apiserver reaches a kubelet. Authentication as a kubelet's: a client certificate signed
// by the configured client CA; without a client CA, anonymous requests are allowed (the kubelet binary's default).
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { createWebSocketStream, WebSocketServer } from 'ws';
import type { CertificateAndKey } from '../pki/x509.ts';
import { selfSignedCertificate } from '../pki/x509.ts';
import type { LogTarget } from './container-logs.ts';
import { serveContainerLog } from './container-logs.ts';
import { parseExecQuery, remoteCommandProtocols, runExecSession } from './remote-command.ts';
import { portForwardProtocol, portForwardTunnelProtocol, servePortForward, type PortForwardTarget } from './port-forward.ts';
import { acceptSpdyUpgrade, isSpdyUpgrade, negotiateSpdyProtocol, serveSpdyExec, spdyRemoteCommandProtocols } from './remote-command-spdy.ts';

/** What the server needs from the kubelet: its running containers. */
export interface KubeletContainers {
  /** Undefined when the pod does not run on this kubelet. */
  logTarget(namespace: string, pod: string, container: string): Pick<LogTarget, 'status' | 'running'> | undefined;
  execTarget(namespace: string, pod: string, container: string): { pid: number; env: Record<string, string> } | undefined;
  /** Where port-forward connects: the pod's IP, while the pod runs here. */
  portForwardTarget?(namespace: string, pod: string): PortForwardTarget | undefined;
}

export interface KubeletServerOptions {
  host: string;
  /** 0 picks a free port. */
  port?: number;
  /** Sandbox dir (container logs live under it). */
  dir: string;
  containers: KubeletContainers;
  nsenter: string;
  /**
   * Serving certificate, or a function issuing one for the address served; default: a self-signed one for
   * `host`, as a kubelet without a CA makes for itself.
   */
  serving?: CertificateAndKey | ((host: string) => CertificateAndKey);
  /** CA whose client certificates are accepted; without it anonymous requests are allowed. */
  clientCA?: string;
}

export interface KubeletServer {
  readonly port: number;
  /** The serving certificate (PEM), for clients that want to verify it. */
  readonly servingCert: string;
  stop(): Promise<void>;
}

const routeRe = /^\/(containerLogs|exec)\/([^/]+)\/([^/]+)\/([^/]+)\/?$/;
const portForwardRe = /^\/portForward\/([^/]+)\/([^/]+)\/?$/;

function authenticated(req: IncomingMessage, clientCA: string | undefined): boolean {
  return clientCA === undefined || (req.socket as TLSSocket).authorized;
}

function reject(socket: Duplex, code: number, text: string): void {
  socket.end(`HTTP/1.1 ${code} ${{ 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[code] ?? 'Bad Request'}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`);
}

/** port-forward: a SPDY upgrade, or a WebSocket (`tunnels`) tunnelling SPDY. */
function upgradePortForward(options: KubeletServerOptions, tunnels: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer, namespace: string, pod: string): void {
  const target = options.containers.portForwardTarget?.(namespace, pod);
  if (target === undefined) { reject(socket, 404, `pod "${pod}" in namespace "${namespace}" is not running on this node`); return; }
  if (isSpdyUpgrade(req)) {
    const negotiated = negotiateSpdyProtocol(req, [portForwardProtocol]);
    if (!negotiated.ok) { reject(socket, 403, `${negotiated.message}\n`); return; }
    acceptSpdyUpgrade(socket, negotiated.protocol);
    void servePortForward(socket, head, target);
    return;
  }
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket' || !offered.includes(portForwardTunnelProtocol)) {
    reject(socket, 400, `port-forward needs SPDY/3.1 (${portForwardProtocol}) or a WebSocket with subprotocol ${portForwardTunnelProtocol}`);
    return;
  }
  delete req.headers['sec-websocket-protocol'];
  tunnels.handleUpgrade(req, socket, head, (ws) => {
    const stream = createWebSocketStream(ws);
    stream.on('error', () => stream.destroy());
    void servePortForward(stream, Buffer.alloc(0), target);
  });
}

/** exec: a WebSocket (`wss`) or SPDY/3.1 remote command session in a running container. */
function upgradeExec(options: KubeletServerOptions, wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
  const route = routeRe.exec(url.pathname);
  if (route?.[1] !== 'exec') { reject(socket, 404, '404 page not found'); return; }
  const spdy = isSpdyUpgrade(req);
  if (!spdy && (req.headers.upgrade ?? '').toLowerCase() !== 'websocket') { reject(socket, 400, `unsupported upgrade "${req.headers.upgrade ?? ''}": WebSocket or SPDY/3.1`); return; }
  const [, , namespace = '', pod = '', container = ''] = route.map(decodeURIComponent);
  const target = options.containers.execTarget(namespace, pod, container);
  if (target === undefined) { reject(socket, 404, `container "${container}" of pod "${pod}" in namespace "${namespace}" is not running on this node`); return; }
  const request = parseExecQuery(url.searchParams);
  if (spdy) {
    const negotiated = negotiateSpdyProtocol(req, spdyRemoteCommandProtocols);
    if (!negotiated.ok) { reject(socket, 403, `${negotiated.message}\n`); return; }
    acceptSpdyUpgrade(socket, negotiated.protocol);
    void serveSpdyExec(socket, head, negotiated.protocol, request, { ...target, nsenter: options.nsenter });
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => {
    void runExecSession(ws, request, { ...target, nsenter: options.nsenter });
  });
}

/** Plain requests: health and container logs (exec without an upgrade is refused). */
function requestHandler(options: KubeletServerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    if (!authenticated(req, options.clientCA)) { res.writeHead(401, { 'Content-Type': 'text/plain' }); res.end('Unauthorized'); return; }
    if (url.pathname === '/healthz') { res.writeHead(200, { 'Content-Type': 'text/plain' }); res.end('ok'); return; }
    const route = routeRe.exec(url.pathname);
    if (route?.[1] === 'containerLogs' && req.method === 'GET') {
      const [, , namespace = '', pod = '', container = ''] = route.map(decodeURIComponent);
      const target = options.containers.logTarget(namespace, pod, container);
      if (target === undefined) { res.writeHead(404, { 'Content-Type': 'text/plain' }); res.end(`pod "${pod}" in namespace "${namespace}" (container "${container}") not found on this node`); return; }
      void serveContainerLog(options.dir, { namespace, pod, container, status: target.status, running: () => target.running() }, url.searchParams, res).catch(() => res.destroy());
      return;
    }
    if (route?.[1] === 'exec') {
      res.writeHead(400, { 'Content-Type': 'text/plain' });
      res.end('exec needs an upgrade: WebSocket (v5.channel.k8s.io, v4.channel.k8s.io) or SPDY/3.1 (v4.channel.k8s.io ... channel.k8s.io)');
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('404 page not found');
  };
}

export async function startKubeletServer(options: KubeletServerOptions): Promise<KubeletServer> {
  const serving = typeof options.serving === 'function' ? options.serving(options.host) : options.serving ?? selfSignedCertificate({ commonName: `${options.host}@kubelet`, ipAddresses: [options.host], dnsNames: ['localhost'], usages: ['server'] });
  const sockets = new Set<Duplex>();
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => remoteCommandProtocols.find((p) => offered.has(p)) ?? false,
  });
  // The tunnel's subprotocol holds '/' and '+', which `ws` refuses in Sec-WebSocket-Protocol (not RFC 7230 token
  // characters; Go's gorilla/websocket accepts them): it is checked here, then named in the 101 answer directly.
  const tunnels = new WebSocketServer({ noServer: true });
  tunnels.on('headers', (headers) => headers.push(`Sec-WebSocket-Protocol: ${portForwardTunnelProtocol}`));

  const server: Server = createServer({ cert: serving.cert, key: serving.key, requestCert: true, rejectUnauthorized: false, ...(options.clientCA !== undefined && { ca: options.clientCA }) }, requestHandler(options));
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'https://kubelet');
    if (!authenticated(req, options.clientCA)) { reject(socket, 401, 'Unauthorized'); return; }
    const forward = portForwardRe.exec(url.pathname);
    if (forward !== null) upgradePortForward(options, tunnels, req, socket, head, decodeURIComponent(forward[1] ?? ''), decodeURIComponent(forward[2] ?? ''));
    else upgradeExec(options, wss, req, socket, head, url);
  });
  server.on('connection', (s: Duplex) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  server.on('secureConnection', (s: Duplex) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((resolve, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(options.port ?? 0, options.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : 0,
    servingCert: serving.cert,
    async stop() {
      for (const client of [...wss.clients, ...tunnels.clients]) client.terminate();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}
