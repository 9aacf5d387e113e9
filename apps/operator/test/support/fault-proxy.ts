// A proxy between the operator under test and the sandbox's API server that fails chosen requests the way a busy
// kube-apiserver does, with its Status bodies: an answer in place of the server's (409, 429 with Retry-After, 5xx),
// a write the server applied whose answer never arrives (504 Timeout or a reset connection: the client cannot tell
// whether it happened), and watches that end with a 410 Gone ERROR event. Each rule names the requests it hits.
// (e2e's api-fault-proxy fails whatever comes next; these tests need one kind of call at a time.)
import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, writeFile } from 'node:fs/promises';
import { parse, stringify } from 'yaml';

export type Fault =
  | { kind: 'answer'; status: 409 | 429 | 500 | 503; retryAfterSeconds?: number }
  /** Forwarded and applied upstream; the client gets a 504 Timeout instead of the answer. */
  | { kind: 'lost-answer' }
  /** Forwarded and applied upstream; the client's connection is reset. */
  | { kind: 'reset-after-apply' }
  /** A watch (with a resourceVersion) gets a 410 Gone ERROR event and ends. */
  | { kind: 'watch-gone' }
  /** Held until release(): then forwarded, unless the client gave up on it meanwhile (never reaches the server). */
  | { kind: 'hold' };

export interface FaultRule {
  method: string;
  /** Matched against the path and query, e.g. /\/rayclusters$/ or /\/rayjobs\?.*watch=true/. */
  path: RegExp;
  fault: Fault;
  /** How many matching requests to fail (default 1). */
  times?: number;
}

export interface Seen {
  method: string;
  url: string;
  at: number;
  /** The fault injected, if any. */
  fault?: Fault['kind'];
}

export interface FaultProxy {
  kubeconfigPath: string;
  inject(rule: FaultRule): void;
  /** Lets held requests go on; how many were still wanted by their client (and so forwarded). */
  release(): number;
  /** How many held requests their clients still wait for. */
  heldWanted(): number;
  /** Every request the operator sent through the proxy, in order. */
  seen: Seen[];
  close(): Promise<void>;
}

const reasons: Record<number, [string, string]> = {
  409: ['Conflict', 'Operation cannot be fulfilled: the object has been modified; please apply your changes to the latest version and try again'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  500: ['InternalError', 'Internal error occurred: injected by the operator tests\' fault proxy'],
  503: ['ServiceUnavailable', 'the server is currently unable to handle the request'],
  504: ['Timeout', 'the server was unable to return a response in the time allotted, but may still be processing the request'],
};
const statusBody = (code: number): string => {
  const [reason, message] = reasons[code] ?? ['InternalError', 'injected'];
  return JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code, ...(code === 429 && { details: { retryAfterSeconds: 1 } }) });
};

type Kubeconfig = { clusters: Array<{ cluster: { server: string } }> };

/** What the proxy forwards to, the faults still to inject, and what it saw and holds. */
interface ProxyState {
  upstream: URL;
  rules: Array<FaultRule & { left: number }>;
  seen: Seen[];
  held: Array<{ go: () => boolean; wanted: () => boolean }>;
}

/** Proxies the (plain HTTP) API server of `sourceKubeconfig`; writes the same kubeconfig pointing at the proxy. */
export async function startFaultProxy(sourceKubeconfig: string, kubeconfigPath: string): Promise<FaultProxy> {
  const config = parse(await readFile(sourceKubeconfig, 'utf8')) as Kubeconfig;
  const p: ProxyState = { upstream: new URL(config.clusters[0]?.cluster.server ?? ''), rules: [], seen: [], held: [] };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => handle(p, req, res));
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  for (const c of config.clusters) c.cluster.server = `http://127.0.0.1:${port}`;
  await writeFile(kubeconfigPath, stringify(config), { mode: 0o600 });
  return {
    kubeconfigPath,
    inject: (rule) => void p.rules.push({ ...rule, left: rule.times ?? 1 }),
    release: () => p.held.splice(0).filter((h) => h.go()).length,
    heldWanted: () => p.held.filter((h) => h.wanted()).length,
    seen: p.seen,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    }),
  };
}

function forward(p: ProxyState, req: IncomingMessage, onResponse: (up: IncomingMessage) => void, onError: () => void): ClientRequest {
  const up = httpRequest({ host: p.upstream.hostname, port: p.upstream.port, method: req.method, path: req.url, headers: req.headers }, onResponse);
  up.on('error', onError);
  req.pipe(up);
  return up;
}

function pass(p: ProxyState, req: IncomingMessage, res: ServerResponse, fail: () => void): void {
  const up = forward(p, req, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  }, fail);
  // A watch the operator closes ends upstream too.
  res.on('close', () => up.destroy());
}

/** One request: the first rule still wanted for it decides its fault; without one it passes through. */
function handle(p: ProxyState, req: IncomingMessage, res: ServerResponse): void {
  const url = req.url ?? '/';
  const rule = p.rules.find((r) => r.left > 0 && r.method === req.method && r.path.test(url));
  if (rule) rule.left -= 1;
  const fault = rule?.fault;
  p.seen.push({ method: req.method ?? 'GET', url, at: Date.now(), ...(fault && { fault: fault.kind }) });
  const fail = () => res.destroy();
  if (fault?.kind === 'answer') {
    req.resume();
    res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfterSeconds !== undefined && { 'retry-after': String(fault.retryAfterSeconds) }) });
    res.end(statusBody(fault.status));
  } else if (fault?.kind === 'lost-answer' || fault?.kind === 'reset-after-apply') {
    forward(p, req, (up) => {
      up.resume();
      up.on('end', () => {
        if (fault.kind === 'reset-after-apply') return res.destroy();
        res.writeHead(504, { 'content-type': 'application/json' });
        res.end(statusBody(504));
      });
    }, fail);
  } else if (fault?.kind === 'watch-gone') {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version: 1 (2)', reason: 'Expired', code: 410 } })}\n`);
  } else if (fault?.kind === 'hold') {
    hold(p, req, res, fail);
  } else {
    pass(p, req, res, fail);
  }
}

/** Holds the request until release(); it goes on then only if its client still waits for it. */
function hold(p: ProxyState, req: IncomingMessage, res: ServerResponse, fail: () => void): void {
  let gone = false;
  res.on('close', () => (gone = true));
  req.socket.on('close', () => (gone = true));
  const wanted = (): boolean => !(gone || res.destroyed || req.socket.destroyed);
  p.held.push({
    wanted,
    go: () => {
      if (!wanted()) return false;
      pass(p, req, res, fail);
      return true;
    },
  });
}
