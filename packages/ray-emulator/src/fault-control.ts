// HTTP control endpoint for the faults, for use from outside the process (CLI `--faults`). Separate port on
// purpose: stopDashboard closes the dashboard port, and startDashboard must still be reachable.
//   POST /restartJobHead?downForMs=N   POST /killAgent   POST /stopDashboard   POST /startDashboard
//   POST /loseHead   POST /killSupervisor?submissionId=S   POST /killWorkerNode?nodeId=N   POST /dropLastLogChunk?enabled=true|false   POST /slowAnswers?ms=N
//   POST /fail5xx?count=N[&status=S]   POST /addWorkerNode (JSON body {"resources": {...}})   GET /jobs
//   POST /resourceDemand (JSON body {"CPU": 3}: what waiting tasks ask for)   GET /resourceDemand
import { createServer, type IncomingMessage } from 'node:http';
import type { RayEmulator } from './emulator.ts';

async function readJson(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req as AsyncIterable<Buffer>) parts.push(part);
  const text = Buffer.concat(parts).toString('utf8');
  return text === '' ? {} : JSON.parse(text);
}

export async function startFaultControl(emulator: RayEmulator, host: string, port: number) {
  const intParam = (url: URL, name: string, fallback?: number): number => {
    const raw = url.searchParams.get(name);
    if (raw === null && fallback !== undefined) return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`query parameter ${name} must be a non-negative number`);
    return value;
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://control');
    const answer = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const run = async (): Promise<unknown> => {
      const f = emulator.faults;
      if (req.method === 'GET' && url.pathname === '/jobs') return emulator.jobs();
      if (req.method === 'GET' && url.pathname === '/resourceDemand') return emulator.resourceDemand();
      if (req.method !== 'POST') throw new Error('use POST');
      switch (url.pathname) {
        case '/restartJobHead': {
          const ms = url.searchParams.get('downForMs');
          return f.restartJobHead(ms === null ? {} : { downForMs: intParam(url, 'downForMs') });
        }
        case '/killAgent': return f.killAgent();
        case '/stopDashboard': return f.stopDashboard();
        case '/startDashboard': return f.startDashboard();
        case '/loseHead': return f.loseHead();
        case '/killSupervisor': return f.killSupervisor(url.searchParams.get('submissionId') ?? '');
        case '/killWorkerNode': return f.killWorkerNode(url.searchParams.get('nodeId') ?? '');
        case '/dropLastLogChunk': return f.dropLastLogChunk(url.searchParams.get('enabled') !== 'false');
        case '/slowAnswers': return f.slowAnswers(intParam(url, 'ms'));
        case '/fail5xx': return f.fail5xx(intParam(url, 'count'), intParam(url, 'status', 500));
        case '/addWorkerNode': {
          const body = (await readJson(req)) as { resources?: Record<string, number> };
          return { nodeId: emulator.addWorkerNode(body.resources ? { resources: body.resources } : {}) };
        }
        case '/resourceDemand': {
          emulator.setResourceDemand((await readJson(req)) as Record<string, number>);
          return emulator.resourceDemand();
        }
        default: throw new Error(`unknown fault ${url.pathname}`);
      }
    };
    run().then(
      (value) => answer(200, value ?? { ok: true }),
      (error: unknown) => answer(400, { error: error instanceof Error ? error.message : String(error) }),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
