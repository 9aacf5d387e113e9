// Socket plumbing of the emulated dashboard: one node:http server (re-creatable on the same port for the
// stop/start faults), WebSocket upgrades for log tails, and tracking of every socket so that "dashboard
// down" cuts connections without a close frame, as a dying process does.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { TailHub } from './log-tail-server.ts';
import { jobNotFound, aiohttp404, aiohttp500 } from './ray-texts.ts';
import { browserFilter, tokenAuth, type FaultGate, type GateRefusal } from './request-gate.ts';
import { parseJobPath, route, type DashboardState, type Reply } from './routes.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  upgrade: boolean;
}

const maxBodyBytes = 200 * 1024 * 1024;

type DashboardDeps = {
  state: DashboardState;
  tails: TailHub;
  gate: FaultGate;
  authToken: string | undefined;
  record: (request: RecordedRequest) => void;
};

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function refusalFor(deps: DashboardDeps, method: string, url: URL, req: IncomingMessage): GateRefusal | undefined {
  return deps.gate.takeFailure(url.pathname) ?? browserFilter(method, req.headers, deps.state.features.browserAllowList) ?? tokenAuth(url.pathname, req.headers, deps.authToken);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req as AsyncIterable<Buffer>) {
    size += part.length;
    if (size > maxBodyBytes) return undefined;
    parts.push(part);
  }
  return Buffer.concat(parts).toString('utf8');
}

function send(res: ServerResponse, method: string, reply: Reply): void {
  res.writeHead(reply.status, { 'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.body) });
  res.end(method === 'HEAD' ? undefined : reply.body);
}

/** One HTTP request: record it, read the body, wait out an injected delay, apply the gates, then route. */
async function onRequest(deps: DashboardDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://emulator');
  deps.record({ method, path: req.url ?? '/', headers: { ...req.headers }, upgrade: false });
  const body = await readBody(req);
  if (body === undefined) return send(res, method, { status: 413, contentType: 'text/plain; charset=utf-8', body: 'Request Entity Too Large' });
  if (deps.gate.delayMs() > 0) await sleep(deps.gate.delayMs());
  if (res.destroyed) return;
  const refusal = refusalFor(deps, method, url, req);
  if (refusal) return send(res, method, { ...refusal, contentType: 'text/plain; charset=utf-8' });
  send(res, method, route(deps.state, method, url, body));
}

function refuseUpgrade(socket: Duplex, status: number, body: string): void {
  const reason = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed' }[status] ?? 'Internal Server Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** One WebSocket upgrade: only a job's `/logs/tail` is accepted, and it is handed to the tail hub. */
async function onUpgrade(deps: DashboardDeps, wss: WebSocketServer, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
  socket.on('error', () => undefined);
  const method = req.method ?? 'GET';
  const url = new URL(req.url ?? '/', 'http://emulator');
  deps.record({ method, path: req.url ?? '/', headers: { ...req.headers }, upgrade: true });
  if (deps.gate.delayMs() > 0) await sleep(deps.gate.delayMs());
  if (socket.destroyed) return;
  const refusal = refusalFor(deps, method, url, req);
  if (refusal) return refuseUpgrade(socket, refusal.status, refusal.body);
  const jobPath = parseJobPath(url.pathname);
  if (!jobPath || jobPath.rest !== '/logs/tail') return refuseUpgrade(socket, 404, aiohttp404);
  if (deps.state.jobHeadDown()) return refuseUpgrade(socket, 500, aiohttp500);
  const job = deps.state.jobs.get(jobPath.id);
  if (!job) return refuseUpgrade(socket, 404, jobNotFound(jobPath.id));
  const offered = String(req.headers['sec-websocket-extensions'] ?? '');
  const deflate = /permessage-deflate/i.test(offered);
  const agentDown = deps.state.driverAgentDown(job.driverNodeId);
  wss.handleUpgrade(req, socket, head, (ws) => deps.tails.attach(job.submissionId, ws, deflate, agentDown));
}

/** A fresh node:http server wired to the handlers, adding every socket it accepts to `sockets`. */
function newServer(deps: DashboardDeps, wss: WebSocketServer, sockets: Set<Duplex>): Server {
  const s = createServer((req, res) => {
    onRequest(deps, req, res).catch(() => {
      if (!res.headersSent) send(res, 'GET', { status: 500, contentType: 'text/plain; charset=utf-8', body: aiohttp500 });
      else res.destroy();
    });
  });
  s.keepAliveTimeout = 5_000;
  s.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  s.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    onUpgrade(deps, wss, req, socket, head).catch(() => socket.destroy());
  });
  return s;
}

export function createDashboardServer(deps: DashboardDeps) {
  const sockets = new Set<Duplex>();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: true, maxPayload: 1024 * 1024 });
  let server: Server | undefined;

  return {
    listen(host: string, port: number): Promise<number> {
      const s = newServer(deps, wss, sockets);
      server = s;
      return new Promise((resolve, reject) => {
        s.once('error', reject);
        s.listen(port, host, () => {
          s.off('error', reject);
          const address = s.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      });
    },
    /** Stops listening and cuts every connection (tails see 1006: no close frame). */
    async close(): Promise<void> {
      const s = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    /** Cuts every connection but keeps listening (a head that died and came back at once). */
    cutConnections(): void {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    listening: () => server !== undefined,
    closeWebSocketServer: () => new Promise<void>((resolve) => wss.close(() => resolve())),
  };
}

export type DashboardServer = ReturnType<typeof createDashboardServer>;
