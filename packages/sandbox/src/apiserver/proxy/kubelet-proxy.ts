// pods/log and pods/exec reach the kubelet of the pod's node, as in kube-apiserver: the node's address (by
// kube-apiserver's default preference Hostname, InternalDNS, InternalIP, ExternalDNS, ExternalIP) and
// daemonEndpoints.kubeletEndpoint.Port, over HTTPS with the API server's kubelet client certificate. Logs are
// streamed through; exec is an upgrade (WebSocket or SPDY/3.1) proxied byte for byte, so the kubelet's handshake
// answers. Upgrades are authenticated and authorized first, like every other request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect } from 'node:tls';
import type { KubeObject } from '../../store/types.ts';
import { checkRequest } from '../auth/filters/requests.ts';
import type { ApiContext, KubeletClientTls } from '../storage/context.ts';
import { proxyUpgrade } from './proxy-upgrade.ts';
import { refuse } from './upgrade-refusal.ts';
import { ApiError, badRequest, internal, notFound } from '../errors/status.ts';

type Obj = Record<string, unknown>;

export type { KubeletClientTls };

const addressPreference = ['Hostname', 'InternalDNS', 'InternalIP', 'ExternalDNS', 'ExternalIP'];

export interface KubeletLocation { host: string; port: number }

export function kubeletLocation(ctx: ApiContext, pod: KubeObject): KubeletLocation {
  const nodeName = String(((pod.spec ?? {}) as Obj).nodeName ?? '');
  const node = ctx.store.get('/nodes', '', nodeName);
  if (node === undefined) throw notFound('nodes', '', nodeName);
  const status = (node.status ?? {}) as Obj;
  const addresses = (status.addresses as Array<{ type: string; address: string }> | undefined) ?? [];
  const address = addressPreference.map((type) => addresses.find((a) => a.type === type)).find((a) => a !== undefined);
  const port = Number(((status.daemonEndpoints as Obj | undefined)?.kubeletEndpoint as Obj | undefined)?.Port ?? 0);
  if (address === undefined) throw badRequest(`no preferred addresses found; known addresses: []`);
  if (!(port > 0)) throw internal(`node ${nodeName} has no kubelet endpoint (daemonEndpoints.kubeletEndpoint.Port is 0)`);
  return { host: address.address, port };
}

const tlsOptions = (tls: KubeletClientTls | undefined): Pick<RequestOptions, 'cert' | 'key' | 'ca' | 'rejectUnauthorized'> => ({
  ...(tls?.cert !== undefined && { cert: tls.cert, key: tls.key }),
  ...(tls?.ca !== undefined ? { ca: tls.ca, rejectUnauthorized: true } : { rejectUnauthorized: false }),
});

const names = (list: unknown): string[] => ((list as Obj[] | undefined) ?? []).map((c) => String(c.name));

/** The container a request means: the one named, or the only one; errors worded as kube-apiserver's. */
export function chooseContainer(pod: KubeObject, requested: string | null): string {
  const spec = (pod.spec ?? {}) as Obj;
  const containers = names(spec.containers);
  const all = [...containers, ...names(spec.initContainers), ...names(spec.ephemeralContainers)];
  const name = pod.metadata.name ?? '';
  if (requested === null || requested === '') {
    if (containers.length === 1) return containers[0] as string;
    throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`);
  }
  if (!all.includes(requested)) throw badRequest(`container ${requested} is not valid for pod ${name}`);
  return requested;
}

const forwardedLogParams = ['follow', 'previous', 'tailLines', 'limitBytes', 'sinceSeconds', 'sinceTime', 'timestamps'];

/** GET pods/{name}/log: validated here, served by the kubelet (its answer's status and text pass through). */
export async function proxyPodLog(ctx: ApiContext, tls: KubeletClientTls | undefined, req: IncomingMessage, res: ServerResponse, namespace: string, name: string, query: URLSearchParams): Promise<void> {
  const pod = ctx.store.get('/pods', namespace, name);
  if (pod === undefined) throw notFound('pods', '', name);
  const container = chooseContainer(pod, query.get('container'));
  if (!((pod.spec ?? {}) as Obj).nodeName) throw badRequest(`container "${container}" in pod "${name}" is waiting to start: ContainerCreating`);
  const location = kubeletLocation(ctx, pod);
  const params = new URLSearchParams();
  for (const key of forwardedLogParams) { const value = query.get(key); if (value !== null) params.set(key, value); }
  const path = `/containerLogs/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/${encodeURIComponent(container)}${params.size > 0 ? `?${params.toString()}` : ''}`;
  await new Promise<void>((resolve, reject) => {
    const upstream = httpsRequest({ host: location.host, port: location.port, method: 'GET', path, ...tlsOptions(tls) }, (answer) => {
      if (answer.statusCode !== 200) {
        let text = '';
        answer.on('data', (chunk: Buffer) => { text += chunk.toString(); });
        answer.on('end', () => reject(new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: text.trim(), reason: answer.statusCode === 404 ? 'NotFound' : 'BadRequest', code: answer.statusCode ?? 500 })));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
      answer.pipe(res);
      answer.on('end', resolve);
      answer.on('error', () => { res.destroy(); resolve(); });
    });
    upstream.on('error', (error) => reject(new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Get "https://${location.host}:${location.port}${path}": ${error.message}`, reason: 'InternalError', code: 500 })));
    res.on('close', () => upstream.destroy());
    req.on('aborted', () => upstream.destroy());
    upstream.end();
  });
}

const execPathRe = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/(exec|attach|portforward)\/?$/;

/** The kubelet URL of an exec request: kube-apiserver renames stdin/stdout/stderr to input/output/error. */
export function kubeletExecPath(namespace: string, name: string, container: string, query: URLSearchParams): string {
  const params = new URLSearchParams();
  for (const command of query.getAll('command')) params.append('command', command);
  const flag = (from: string, to: string): void => { if (['1', 'true'].includes(query.get(from) ?? '')) params.set(to, '1'); };
  flag('stdin', 'input');
  flag('stdout', 'output');
  flag('stderr', 'error');
  flag('tty', 'tty');
  return `/exec/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}/${encodeURIComponent(container)}?${params.toString()}`;
}

/**
 * An HTTP upgrade on the API server: pods/{name}/exec and /portforward are proxied to the kubelet byte for byte (the kubelet's
 * 101 Switching Protocols, or its refusal, goes back to the client). Returns false for paths it does not serve.
 */
export function proxyPodUpgrade(ctx: ApiContext, tls: KubeletClientTls | undefined, req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const match = execPathRe.exec(url.pathname);
  if (match === null) return false;
  try {
    checkRequest(ctx, req, url);
    const [, namespace = '', name = '', action] = match.map(decodeURIComponent);
    if (action === 'attach') throw badRequest('pods/attach is not supported by the sandbox (exec and portforward are)');
    const pod = ctx.store.get('/pods', namespace, name);
    if (pod === undefined) throw notFound('pods', '', name);
    let kubeletPath: string;
    if (action === 'exec') {
      const phase = ((pod.status ?? {}) as Obj).phase;
      if (phase === 'Succeeded' || phase === 'Failed') throw badRequest(`cannot exec into a container in a completed pod; current phase is ${String(phase)}`);
      kubeletPath = kubeletExecPath(namespace, name, chooseContainer(pod, url.searchParams.get('container')), url.searchParams);
    } else {
      kubeletPath = `/portForward/${encodeURIComponent(namespace)}/${encodeURIComponent(name)}${url.search}`;
    }
    const location = kubeletLocation(ctx, pod);
    let connected = false;
    const upstream = tlsConnect({ host: location.host, port: location.port, ...tlsOptions(tls) }, () => {
      connected = true;
      const headers = Object.entries(req.headers)
        .filter(([key]) => !['host', 'authorization', 'content-length'].includes(key))
        .flatMap(([key, value]) => (Array.isArray(value) ? value : [value ?? '']).map((v) => `${key}: ${v}`));
      upstream.write([`${req.method ?? 'GET'} ${kubeletPath} HTTP/1.1`, `Host: ${location.host}:${location.port}`, ...headers, '', ''].join('\r\n'));
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', (error) => {
      if (!connected && !socket.destroyed) refuse(socket, internal(`error dialing backend: ${error.message}`));
      else socket.destroy();
    });
    socket.on('error', () => upstream.destroy());
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
  } catch (error) {
    refuse(socket, error);
  }
  return true;
}

/** The API server's `upgrade` listener (HTTP and HTTPS ports alike): pod exec/portforward, service and pod proxy, else 400. */
export function podUpgradeHandler(ctx: ApiContext): (req: IncomingMessage, socket: Duplex, head: Buffer) => void {
  return (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    if (proxyPodUpgrade(ctx, ctx.kubeletClient, req, socket, head)) return;
    if (proxyUpgrade(ctx, req, socket, head)) return;
    socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nupgrades are served for pods/exec, pods/portforward, services/proxy and pods/proxy only');
  };
}
