// Bench-only: a plain HTTP proxy that records every request passing through it (method, path, status,
// time, and for writes the request body), including WebSocket upgrades (one record per upgrade; frames are
// piped untouched). Put it between the operator and the API server (a kubeconfig naming the proxy) or
// between the operator and a Ray dashboard (a `lookup` answering the proxy's address), and the operator's
// traffic is counted without any hook inside the operator.
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  status: number;
  at: number;
  upgrade: boolean;
  /** Request body of a write (POST/PUT/PATCH), as sent. */
  body?: string;
  /** The response body of a write, as received (for no-op detection). */
  response?: string;
  /** What `beforeWrite` returned for this request (the object before the write). */
  before?: unknown;
}

export interface CountingProxy {
  url: string;
  host: string;
  port: number;
  readonly requests: ProxiedRequest[];
  stop(): Promise<void>;
}

export interface CountingProxyOptions {
  target: { host: string; port: number };
  listen?: { host?: string; port?: number };
  /** Called before a PUT/PATCH is forwarded (e.g. to read the object it will change). */
  beforeWrite?: (method: string, path: string) => Promise<unknown>;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

const readAll = async (stream: IncomingMessage): Promise<Buffer> => {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(c as Buffer);
  return Buffer.concat(parts);
};

export async function startCountingProxy(options: CountingProxyOptions): Promise<CountingProxy> {
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => void proxyRequest(options, requests, req, res));
  server.on('upgrade', (req, client: Socket, head: Buffer) => proxyUpgrade(options, requests, sockets, req, client, head));
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const host = options.listen?.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listen?.port ?? 0, host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${host}:${port}`,
    host,
    port,
    requests,
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Forwards one request, recording it (a write with its body, the answer and what `beforeWrite` read). */
async function proxyRequest(options: CountingProxyOptions, requests: ProxiedRequest[], req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? 'GET';
  const path = req.url ?? '/';
  const write = WRITES.has(method);
  const body = write || method === 'DELETE' ? await readAll(req) : undefined;
  const before = (method === 'PUT' || method === 'PATCH') && options.beforeWrite ? await options.beforeWrite(method, path).catch(() => undefined) : undefined;
  const upstream = httpRequest({ host: options.target.host, port: options.target.port, method, path, headers: req.headers }, (up) => {
    const record: ProxiedRequest = { method, path, status: up.statusCode ?? 0, at: Date.now(), upgrade: false };
    if (write) {
      record.body = body?.toString('utf8') ?? '';
      if (before !== undefined) record.before = before;
    }
    requests.push(record);
    res.writeHead(up.statusCode ?? 502, up.headers);
    if (!write) {
      up.pipe(res);
      return;
    }
    const parts: Buffer[] = [];
    up.on('data', (c: Buffer) => {
      parts.push(c);
      res.write(c);
    });
    up.on('end', () => {
      record.response = Buffer.concat(parts).toString('utf8');
      res.end();
    });
  });
  upstream.on('error', () => {
    requests.push({ method, path, status: 502, at: Date.now(), upgrade: false });
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  res.on('close', () => upstream.destroy());
  if (body) upstream.end(body);
  else req.pipe(upstream);
}

/** An upgrade (watch over WebSocket, exec): recorded, then spliced to the target byte for byte. */
function proxyUpgrade(options: CountingProxyOptions, requests: ProxiedRequest[], sockets: Set<Socket>, req: IncomingMessage, client: Socket, head: Buffer): void {
  requests.push({ method: req.method ?? 'GET', path: req.url ?? '/', status: 101, at: Date.now(), upgrade: true });
  const upstream = connect(options.target.port, options.target.host, () => {
    const lines = [`${req.method} ${req.url} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  for (const s of [client, upstream]) {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {
      client.destroy();
      upstream.destroy();
    });
  }
}
