// Upgrades through services/{name}[:port]/proxy/... and pods/{name}[:port]/proxy/...: kube-apiserver's proxy is
// upgrade-aware, so a WebSocket (a Ray job's log tail through `--use-kubernetes-proxy`) reaches the pod. The
// request is authenticated and authorized like any other, then relayed byte for byte to the target, whose
// answer (101 Switching Protocols, or a refusal) goes back to the client.
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { checkRequest } from '../auth/filters/requests.ts';
import type { ApiContext } from '../storage/context.ts';
import { resolvePodTarget, resolveServiceTarget } from './proxy.ts';
import { parseApiPath } from '../http/routes.ts';
import { ApiError } from '../errors/status.ts';
import { refuse } from './upgrade-refusal.ts';

/** Returns false for paths that are not a service or pod proxy. */
export function proxyUpgrade(ctx: ApiContext, req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const route = parseApiPath(url.pathname);
  if (route.kind !== 'api') return false;
  const p = route.path;
  if (p.subresource !== 'proxy' || p.group !== '' || (p.resource !== 'services' && p.resource !== 'pods') || !p.namespace || !p.name) return false;
  try {
    checkRequest(ctx, req, url);
    const target = p.resource === 'services' ? resolveServiceTarget(ctx, p.namespace, p.name) : resolvePodTarget(ctx, p.namespace, p.name);
    let connected = false;
    const upstream = connect({ host: target.host, port: target.port }, () => {
      connected = true;
      const headers = Object.entries(req.headers)
        .filter(([key]) => !['host', 'authorization'].includes(key))
        .flatMap(([key, value]) => (Array.isArray(value) ? value : [value ?? '']).map((v) => `${key}: ${v}`));
      const path = `${p.rest || '/'}${url.search}`;
      upstream.write([`${req.method ?? 'GET'} ${path} HTTP/1.1`, `Host: ${target.host}:${target.port}`, ...headers, '', ''].join('\r\n'));
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', (error) => {
      if (!connected && !socket.destroyed) refuse(socket, serviceUnavailable(`error trying to reach service: ${error.message}`));
      else socket.destroy();
    });
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  } catch (error) {
    refuse(socket, error);
  }
  return true;
}

const serviceUnavailable = (message: string): ApiError =>
  new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'ServiceUnavailable', code: 503 });
