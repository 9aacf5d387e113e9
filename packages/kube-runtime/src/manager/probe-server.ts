// The HTTP endpoints a manager serves: /healthz and /readyz (each named check must pass; ?verbose lists
// them, like the API server's), and /metrics from a prom-client registry. Metrics and probes may share one
// listener or use two (KubeRay: :8080 metrics, :8082 probes).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

export type Check = () => boolean | Promise<boolean>;

export interface ProbeServer {
  /** host:port actually bound. */
  address: string;
  close(): Promise<void>;
}

export interface ProbeRoutes {
  healthz?: Map<string, Check>;
  readyz?: Map<string, Check>;
  metrics?: Registry;
}

async function runChecks(checks: Map<string, Check>, verbose: boolean, res: ServerResponse): Promise<void> {
  const lines: string[] = [];
  let ok = true;
  for (const [name, check] of checks) {
    let passed = false;
    try {
      passed = await check();
    } catch {
      passed = false;
    }
    ok &&= passed;
    lines.push(`[${passed ? '+' : '-'}]${name} ${passed ? 'ok' : 'failed'}`);
  }
  res.writeHead(ok ? 200 : 500, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  res.end(verbose || !ok ? `${lines.join('\n')}\n${ok ? 'healthz check passed' : 'healthz check failed'}\n` : 'ok');
}

export function parseBindAddress(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(':');
  if (colon < 0) throw new Error(`bind address "${address}": want host:port or :port (e.g. ":8080")`);
  const host = address.slice(0, colon).replace(/^\[|\]$/g, '');
  const port = Number(address.slice(colon + 1));
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`bind address "${address}": port must be 0-65535`);
  return { host: host === '' ? '0.0.0.0' : host, port };
}

export async function startProbeServer(bindAddress: string, routes: ProbeRoutes): Promise<ProbeServer> {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://probe');
    const verbose = url.searchParams.has('verbose');
    if (url.pathname === '/healthz' && routes.healthz) return runChecks(routes.healthz, verbose, res);
    if (url.pathname === '/readyz' && routes.readyz) return runChecks(routes.readyz, verbose, res);
    if (url.pathname === '/metrics' && routes.metrics) {
      const body = await routes.metrics.metrics();
      res.writeHead(200, { 'content-type': routes.metrics.contentType });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('404 page not found\n');
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  const { host, port } = parseBindAddress(bindAddress);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address();
  const bound = typeof addr === 'object' && addr ? `${addr.address}:${addr.port}` : bindAddress;
  return {
    address: bound,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
