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

/** The faults armed so far, what was injected, and the open watches. */
interface ProxyFaults {
  // Keyed by namespace ('' = any request): faults aimed at one namespace leave every other one alone.
  fails: Map<string, { count: number; status: number }>;
  conflicts: Map<string, number>;
  gone: number;
  counts: Record<string, number>;
  watches: Set<ServerResponse>;
}

const count = (faults: ProxyFaults, what: string) => { faults.counts[what] = (faults.counts[what] ?? 0) + 1; };

function answer(res: ServerResponse, code: number, reason: string, message: string): void {
  res.writeHead(code, { 'content-type': 'application/json', ...(code === 429 && { 'retry-after': '1' }) });
  res.end(statusBody(code, reason, message));
}

/** Passes the request to the API server and its answer back; a watch's answer is kept open in `watches`. */
function forward(upstream: URL, watches: Set<ServerResponse>, req: IncomingMessage, res: ServerResponse, isWatch: boolean): void {
  const send = upstream.protocol === 'https:' ? httpsRequest : httpRequest;
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
}

/** A watch from a resourceVersion gets a 410 Gone ERROR event and ends, as after the history was compacted. */
function answerGone(faults: ProxyFaults, req: IncomingMessage, res: ServerResponse, rv: string | null): void {
  faults.gone -= 1;
  count(faults, 'gone');
  req.resume();
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify({ type: 'ERROR', object: JSON.parse(statusBody(410, 'Expired', `too old resource version: ${rv} (${Number(rv) + 1000})`)) })}\n`);
}

/** Answers the request with an armed fault if one applies to it; false when it should go to the API server. */
function injectFault(faults: ProxyFaults, req: IncomingMessage, res: ServerResponse, url: URL, isWatch: boolean): boolean {
  const isWrite = req.method === 'PUT' || req.method === 'PATCH' || req.method === 'POST';
  if (isWatch && faults.gone > 0 && (url.searchParams.get('resourceVersion') ?? '') !== '') {
    answerGone(faults, req, res, url.searchParams.get('resourceVersion'));
    return true;
  }
  const namespace = /\/namespaces\/([^/]+)\//.exec(url.pathname)?.[1] ?? '';
  const failKey = [namespace, ''].find((k) => (faults.fails.get(k)?.count ?? 0) > 0);
  const fail = failKey === undefined ? undefined : faults.fails.get(failKey);
  if (!isWatch && fail) {
    fail.count -= 1;
    count(faults, String(fail.status));
    req.resume();
    const [reason, message] = reasons[fail.status] ?? ['InternalError', 'injected'];
    answer(res, fail.status, reason, message);
    return true;
  }
  const conflictKey = [namespace, ''].find((k) => (faults.conflicts.get(k) ?? 0) > 0);
  if (isWrite && conflictKey !== undefined) {
    faults.conflicts.set(conflictKey, (faults.conflicts.get(conflictKey) ?? 0) - 1);
    count(faults, '409');
    req.resume();
    answer(res, 409, 'Conflict', 'Operation cannot be fulfilled: the object has been modified; please apply your changes to the latest version and try again');
    return true;
  }
  return false;
}

/**
 * Proxies the API server of `sourceKubeconfig`; writes `kubeconfigPath`, the same kubeconfig (same user and
 * credentials) pointing at the proxy. The proxy itself speaks plain HTTP on loopback.
 */
export async function startApiFaultProxy(sourceKubeconfig: string, kubeconfigPath: string): Promise<ApiFaultProxy> {
  const config = parse(await readFile(sourceKubeconfig, 'utf8')) as Kubeconfig;
  const first = config.clusters[0];
  if (!first) throw new Error(`${sourceKubeconfig}: no cluster`);
  const upstream = new URL(first.cluster.server);
  const faults: ProxyFaults = { fails: new Map(), conflicts: new Map(), gone: 0, counts: {}, watches: new Set() };
  const { watches } = faults;

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const isWatch = url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1';
    if (!injectFault(faults, req, res, url, isWatch)) forward(upstream, watches, req, res, isWatch);
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
    failNext: (n, status, namespace = '') => { faults.fails.set(namespace, { count: n, status }); },
    conflictNext: (n, namespace = '') => { faults.conflicts.set(namespace, n); },
    goneNext: (n) => { faults.gone = n; },
    expireWatches() {
      const open = [...watches];
      for (const res of open) res.end();
      count(faults, 'watchExpired');
      return open.length;
    },
    injected: () => ({ ...faults.counts }),
    close: () => new Promise<void>((resolve) => {
      for (const res of watches) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
