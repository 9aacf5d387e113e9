// A proxy between the operator and the API server that misbehaves the way a busy real API server does:
// 5xx and 429 (with Retry-After) bursts, 409 conflicts on writes, watches that end (the server's watch timeout),
// and watches answered with a 410 Gone ERROR event (compacted history), each with the Status body
// kube-apiserver sends. The operator talks to it through its own kubeconfig; everything else is untouched.
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';

export interface ApiFaultProxy {
  url: string;
  kubeconfigPath: string;
  /**
   * The next `count` requests other than watches answer `status` (500, 503, 429 ...); with `namespace`, only
   * requests for objects in that namespace count (a campaign seed's faults stay on its own objects).
   */
  failNext(count: number, status: number, namespace?: string): void;
  /** The next `count` writes (PUT, PATCH, POST) answer 409 Conflict; `namespace` as for failNext. */
  conflictNext(count: number, namespace?: string): void;
  /** Every open watch ends now, as when the server's watch timeout passes. */
  expireWatches(): number;
  /** The next `count` watches that name a resourceVersion get a 410 Gone ERROR event and end. */
  goneNext(count: number): void;
  /** Faults injected so far, by kind. */
  injected(): Record<string, number>;
  close(): Promise<void>;
}

const statusBody = (code: number, reason: string, message: string) =>
  JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

const reasons: Record<number, [string, string]> = {
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  500: ['InternalError', 'Internal error occurred: injected by the e2e API fault proxy'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
};

type Kubeconfig = { clusters: Array<{ name: string; cluster: Record<string, unknown> & { server: string } }> };

/**
 * Proxies the API server of `sourceKubeconfig`; writes `kubeconfigPath`, the same kubeconfig (same user and
 * credentials) pointing at the proxy. The proxy itself speaks plain HTTP on loopback.
 */
// structure-exception(function-lines startApiFaultProxy): over the limit before #21 set it; the split is left for a follow-up of #21
export async function startApiFaultProxy(sourceKubeconfig: string, kubeconfigPath: string): Promise<ApiFaultProxy> {
  const config = parse(await readFile(sourceKubeconfig, 'utf8')) as Kubeconfig;
  const first = config.clusters[0];
  if (!first) throw new Error(`${sourceKubeconfig}: no cluster`);
  const upstream = new URL(first.cluster.server);
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
  // Keyed by namespace ('' = any request): faults aimed at one namespace leave every other one alone.
  const fails = new Map<string, { count: number; status: number }>();
  const conflicts = new Map<string, number>();
  let gone = 0;
  const counts: Record<string, number> = {};
  const count = (what: string) => { counts[what] = (counts[what] ?? 0) + 1; };
  const watches = new Set<ServerResponse>();

  const answer = (res: ServerResponse, code: number, reason: string, message: string) => {
    res.writeHead(code, { 'content-type': 'application/json', ...(code === 429 && { 'retry-after': '1' }) });
    res.end(statusBody(code, reason, message));
  };

  const forward = (req: IncomingMessage, res: ServerResponse, isWatch: boolean) => {
    const proxied = send(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host }, rejectUnauthorized: false },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        if (isWatch) {
          watches.add(res);
          res.once('close', () => watches.delete(res));
        }
        up.pipe(res);
      },
    );
    proxied.on('error', (error) => {
      if (!res.headersSent) answer(res, 503, 'ServiceUnavailable', `proxy: ${error.message}`);
      else res.destroy();
    });
    req.pipe(proxied);
    res.once('close', () => proxied.destroy());
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const isWatch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    const isWrite = req.method === 'PUT' || req.method === 'PATCH' || req.method === 'POST';
    if (isWatch && gone > 0 && (url.searchParams.get('resourceVersion') ?? '') !== '') {
      gone -= 1;
      count('gone');
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      const rv = url.searchParams.get('resourceVersion');
      res.end(`${JSON.stringify({ type: 'ERROR', object: JSON.parse(statusBody(410, 'Expired', `too old resource version: ${rv} (${Number(rv) + 1000})`)) })}\n`);
      return;
    }
    const namespace = /\/namespaces\/([^/]+)\//.exec(url.pathname)?.[1] ?? '';
    const failKey = [namespace, ''].find((k) => (fails.get(k)?.count ?? 0) > 0);
    const fail = failKey === undefined ? undefined : fails.get(failKey);
    if (!isWatch && fail) {
      fail.count -= 1;
      count(String(fail.status));
      req.resume();
      const [reason, message] = reasons[fail.status] ?? ['InternalError', 'injected'];
      answer(res, fail.status, reason, message);
      return;
    }
    const conflictKey = [namespace, ''].find((k) => (conflicts.get(k) ?? 0) > 0);
    if (isWrite && conflictKey !== undefined) {
      conflicts.set(conflictKey, (conflicts.get(conflictKey) ?? 0) - 1);
      count('409');
      req.resume();
      answer(res, 409, 'Conflict', 'Operation cannot be fulfilled: the object has been modified; please apply your changes to the latest version and try again');
      return;
    }
    forward(req, res, isWatch);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Same credentials; only the server changes (a client certificate still authenticates through the proxy's
  // upstream connection only if the proxy presents it, so token users are what this supports).
  config.clusters = config.clusters.map((c) => ({ name: c.name, cluster: { server: url, 'insecure-skip-tls-verify': true } }));
  await writeFile(kubeconfigPath, stringify(config), { mode: 0o600 });

  return {
    url,
    kubeconfigPath,
    failNext: (n, status, namespace = '') => { fails.set(namespace, { count: n, status }); },
    conflictNext: (n, namespace = '') => { conflicts.set(namespace, n); },
    goneNext: (n) => { gone = n; },
    expireWatches() {
      const open = [...watches];
      for (const res of open) res.end();
      count('watchExpired');
      return open.length;
    },
    injected: () => ({ ...counts }),
    close: () => new Promise<void>((resolve) => {
      for (const res of watches) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
