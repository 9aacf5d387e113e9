// services/{name}[:port]/proxy/... and pods/{name}[:port]/proxy/...: forward HTTP to a pod's IP and port.
// Pods get loopback IPs (127.x) from the kubelet, so this reaches real local programs. The service's
// target is a Running pod matching its selector, with status.podIP; targetPort may be a container port name.
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { KubeObject } from '../../store/types.ts';
import type { ApiContext } from '../storage/context.ts';
import { ApiError, badRequest, notFound } from '../errors/status.ts';

type Obj = Record<string, unknown>;

const serviceUnavailable = (message: string): ApiError =>
  new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'ServiceUnavailable', code: 503 });

/** `name`, `name:port` or `scheme:name:port`. */
function splitTarget(raw: string): { name: string; port?: string } {
  const parts = raw.split(':');
  if (parts.length === 3) return { name: parts[1] as string, port: parts[2] as string };
  if (parts.length === 2) return { name: parts[0] as string, port: parts[1] as string };
  return { name: raw };
}

function containerPort(pod: KubeObject, named: string | number): number | undefined {
  if (typeof named === 'number') return named;
  if (/^\d+$/.test(named)) return Number(named);
  for (const c of (((pod.spec ?? {}) as Obj).containers as Obj[]) ?? []) {
    for (const p of (c.ports as Obj[]) ?? []) if (p.name === named) return p.containerPort as number;
  }
  return undefined;
}

function isReadyRunning(pod: KubeObject): boolean {
  const status = (pod.status ?? {}) as Obj;
  return status.phase === 'Running' && typeof status.podIP === 'string' && !pod.metadata.deletionTimestamp;
}

export function resolveServiceTarget(ctx: ApiContext, namespace: string, raw: string): { host: string; port: number } {
  const { name, port } = splitTarget(raw);
  const svc = ctx.store.get('/services', namespace, name);
  if (!svc) throw notFound('services', '', name);
  const spec = (svc.spec ?? {}) as Obj;
  const ports = (spec.ports as Obj[]) ?? [];
  const svcPort = port === undefined ? ports[0] : ports.find((p) => p.name === port || String(p.port) === port);
  if (!svcPort) throw badRequest(`no such port ${port ?? ''} on service ${name}`);
  const selector = (spec.selector ?? {}) as Record<string, string>;
  if (Object.keys(selector).length === 0) throw serviceUnavailable(`no endpoints available for service "${name}"`);
  const pod = ctx.store
    .list('/pods', namespace)
    .find((p) => isReadyRunning(p) && Object.entries(selector).every(([k, v]) => p.metadata.labels?.[k] === v));
  if (!pod) throw serviceUnavailable(`no endpoints available for service "${name}"`);
  const target = containerPort(pod, (svcPort.targetPort ?? svcPort.port) as string | number);
  if (target === undefined) throw serviceUnavailable(`no endpoints available for service "${name}"`);
  return { host: String(((pod.status ?? {}) as Obj).podIP), port: target };
}

export function resolvePodTarget(ctx: ApiContext, namespace: string, raw: string): { host: string; port: number } {
  const { name, port } = splitTarget(raw);
  const pod = ctx.store.get('/pods', namespace, name);
  if (!pod) throw notFound('pods', '', name);
  const ip = ((pod.status ?? {}) as Obj).podIP;
  if (typeof ip !== 'string') throw badRequest(`pod ${name} has no IP address yet`);
  const firstPort = ((((pod.spec ?? {}) as Obj).containers as Obj[])?.[0]?.ports as Obj[] | undefined)?.[0]?.containerPort;
  const target = port === undefined ? (firstPort as number | undefined) : containerPort(pod, port);
  if (target === undefined) throw badRequest(`no port given for pod ${name}`);
  return { host: ip, port: target };
}

export function forward(req: IncomingMessage, res: ServerResponse, target: { host: string; port: number }, path: string, query: string): void {
  const headers = { ...req.headers };
  delete headers.host;
  delete headers.authorization;
  const upstream = request(
    { host: target.host, port: target.port, method: req.method, path: `${path || '/'}${query ? `?${query}` : ''}`, headers },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `error trying to reach service: ${err.message}`, reason: 'ServiceUnavailable', code: 503 });
    res.writeHead(503, { 'Content-Type': 'application/json' });
    res.end(body);
  });
  req.pipe(upstream);
}
