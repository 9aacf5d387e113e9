// The GCS wait line says why GCS is not healthy yet, from real failures: a closed port, a host that does not
// resolve, a dashboard answering an HTTP error. Each run is bounded by --health-timeout (exit 4, unchanged).
import { createServer } from 'node:net';
import { fastTiming, startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import { describe, expect, it } from 'vitest';
import { startInProcess } from './support/in-process.ts';

async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('the GCS wait line says why', () => {
  it.each<{ name: string; address: () => Promise<{ url: string; emulator?: RayEmulator }>; why: RegExp }>([
    { name: 'nothing listens: connection refused', address: async () => ({ url: await closedPortUrl() }), why: /\.\.\. \(connection refused\)$/m },
    { name: 'the host does not resolve: no such host', address: async () => ({ url: 'http://no-such-head.invalid:8265' }), why: /\.\.\. \(no such host no-such-head\.invalid\)$/m },
    {
      name: 'the dashboard answers 503: the HTTP status',
      address: async () => {
        const emulator = await startRayEmulator({ timing: fastTiming });
        emulator.faults.fail5xx(1_000_000, 503);
        return { url: emulator.url, emulator };
      },
      why: /\.\.\. \(HTTP 503\b.*\)$/m,
    },
  ])('$name', async ({ address, why }) => {
    const { url, emulator } = await address();
    try {
      const run = startInProcess(['--health-timeout', '300ms', '--', 'echo never'], { RAY_DASHBOARD_ADDRESS: url, RAY_JOB_SUBMISSION_ID: 'gcs-wait' });
      expect((await run.done).exitCode).toBe(4);
      expect(run.stdout()).toContain(`Waiting for Ray Dashboard GCS to become healthy at ${url} ...`);
      expect(run.stdout()).toMatch(why);
    } finally {
      await emulator?.stop();
    }
  });
});
