// Real sockets on 127.0.0.1: the emulator for Ray's behaviour, and tiny raw servers for answers Ray would
// never give (wrong shapes, resets, silent peers). Everything started here is closed after each test (stop-started.ts).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { fastTiming, startRayEmulator, type RayEmulator, type RayEmulatorOptions } from '@rayjob/ray-emulator';
import { freePort } from '@rayjob/test-support';
import { createRayClient, type RayClient, type RayClientOptions } from '../../src/index.ts';

const cleanups: Array<() => Promise<void>> = [];
/** Runs (newest first) what the test registered; called after each test by the setup file stop-started.ts. */
export async function runCleanups(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

export async function emulator(options: RayEmulatorOptions = {}): Promise<RayEmulator> {
  const e = await startRayEmulator({ ...options, timing: { ...fastTiming, ...options.timing } });
  cleanups.push(() => e.stop());
  return e;
}

export function client(options: RayClientOptions): RayClient {
  const c = createRayClient(options);
  cleanups.push(() => c.close());
  return c;
}

/** A raw HTTP server with a handler, tracking its sockets so that close() never waits on keep-alive. */
export async function rawServer(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; server: Server; connections: () => number }> {
  const server = createServer(handler);
  const sockets = new Set<Socket>();
  let connections = 0;
  server.on('connection', (s) => {
    connections += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, server, connections: () => connections };
}

export function onCleanup(fn: () => Promise<void>): void {
  cleanups.push(fn);
}

/** A port with nothing listening (bound then released). */
export const deadPort = (): Promise<number> => freePort();

export async function untilStatus(c: RayClient, id: string, status: string): Promise<void> {
  const { waitFor } = await import('./wait-for.ts');
  await waitFor(async () => {
    const job = await c.getJob(id);
    return job.kind === 'ok' && job.value.status === status;
  }, { what: `${id} to be ${status}` });
}
