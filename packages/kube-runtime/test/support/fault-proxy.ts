// A fault-injecting HTTP proxy in front of the sandbox API server: answers the next N matching requests
// with a given status (and Retry-After), cuts open watch streams, and counts requests, so tests see how
// the runtime behaves when a real API server or a load balancer in front of it misbehaves.
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface Fault {
  status: number;
  count: number;
  retryAfter?: string;
  /** Only requests whose method+path+query matches. */
  match?: RegExp;
}

export interface FaultProxy {
  url: string;
  fail(fault: Fault): void;
  /** Destroys every open watch connection (a dropped TCP connection, no ERROR event). */
  dropWatches(): number;
  /** Keeps watch connections open but stops forwarding their bytes (a half-open connection). */
  stallWatches(): number;
  /** `${method} ${url}` of every request seen. */
  requests: string[];
  stop(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  const faults: Fault[] = [];
  const watchSockets = new Set<Socket>();
  const stalls = new Set<() => void>();
  const requests: string[] = [];
  const sockets = new Set<Socket>();
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const line = `${req.method} ${req.url}`;
    requests.push(line);
    const fault = faults.find((f) => f.count > 0 && (f.match === undefined || f.match.test(line)));
    if (fault) {
      fault.count--;
      const body = JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: fault.status, reason: fault.status === 429 ? 'TooManyRequests' : 'InternalError', message: `injected ${fault.status}` });
      res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter !== undefined && { 'retry-after': fault.retryAfter }) });
      res.end(body);
      req.resume();
      return;
    }
    const isWatch = /[?&]watch=(true|1)/.test(req.url ?? '');
    if (isWatch) watchSockets.add(req.socket);
    const up = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
      if (isWatch) {
        const stall = (): void => {
          upRes.unpipe(res);
          upRes.resume();
        };
        stalls.add(stall);
        res.on('close', () => stalls.delete(stall));
      }
    });
    up.on('error', () => res.destroy());
    res.on('close', () => {
      watchSockets.delete(req.socket);
      up.destroy();
    });
    req.pipe(up);
  };
  const server = createServer(handle);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    fail: (f) => faults.push({ ...f }),
    dropWatches: () => {
      const n = watchSockets.size;
      for (const s of watchSockets) s.destroy();
      watchSockets.clear();
      return n;
    },
    stallWatches: () => {
      const n = stalls.size;
      for (const stall of stalls) stall();
      stalls.clear();
      return n;
    },
    requests,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
