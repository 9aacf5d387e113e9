// The orchestration with an injected clock: long bounds (minutes) play out in milliseconds of real time,
// still over real sockets against the emulator.
import { createRayClient } from '@rayjob/ray-client';
import { fastTiming, startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/cli/load-config.ts';
import { startRun } from '../src/run/run-submitter.ts';
import type { Clock } from '../src/run/context.ts';
import { occurrences } from './support/in-process.ts';

function virtualClock(): Clock & { slept: number[] } {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
      await new Promise((r) => setImmediate(r));
    },
  };
}

let emulator: RayEmulator;
beforeEach(async () => {
  emulator = await startRayEmulator({ timing: fastTiming });
});
afterEach(async () => {
  await emulator.stop();
});

describe('waiting for GCS, on a virtual clock', () => {
  it.each([
    { timeout: '1m', expectedLines: 30 },
    { timeout: '10m', expectedLines: 300 },
  ])('--health-timeout $timeout: one waiting line every 2 s, then exit 4 at the bound', async ({ timeout, expectedLines }) => {
    emulator.faults.fail5xx(1_000_000, 503);
    const loaded = loadConfig({
      argv: ['--health-timeout', timeout, '--', 'echo never'],
      env: { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: 'vt-1' },
      writable: () => false,
    });
    if (loaded.kind !== 'config') throw new Error('config expected');
    const client = createRayClient({ address: loaded.config.baseUrl });
    const clock = virtualClock();
    let out = '';
    const run = startRun(loaded.config, { client, clock, writers: { stdout: (t) => void (out += t), stderr: (t) => void (out += t) } });
    const result = await run.done;
    await client.close();
    expect(result.exitCode).toBe(4);
    expect(result.reason).toBe('Unreachable');
    expect(occurrences(out, 'Waiting for Ray Dashboard GCS to become healthy')).toBe(expectedLines);
    expect(clock.slept.reduce((a, b) => a + b, 0)).toBe(loaded.config.healthTimeoutMs);
    expect(emulator.requests().every((r) => r.path === '/api/gcs_healthz')).toBe(true);
  });
});

describe('an unreachable dashboard, on a virtual clock', () => {
  it('default --max-unreachable (10m): keeps retrying for 10 virtual minutes, then exits 4', async () => {
    const loaded = loadConfig({
      argv: ['--log-format', 'json', '--', 'for i in $(seq 1 2000); do echo "line $i"; sleep 0.05; done'],
      env: { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: 'vt-2' },
      writable: () => false,
    });
    if (loaded.kind !== 'config') throw new Error('config expected');
    expect(loaded.config.maxUnreachableMs).toBe(600_000);
    const client = createRayClient({ address: loaded.config.baseUrl });
    const clock = virtualClock();
    let out = '';
    let err = '';
    const run = startRun(loaded.config, { client, clock, writers: { stdout: (t) => void (out += t), stderr: (t) => void (err += t) } });
    const deadline = Date.now() + 10_000;
    while (!out.includes('line 2\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    const stoppedAt = clock.now();
    await emulator.faults.stopDashboard();
    const result = await run.done;
    await client.close();
    expect(result.exitCode).toBe(4);
    expect(clock.now() - stoppedAt).toBeGreaterThanOrEqual(600_000);
    expect(clock.now() - stoppedAt).toBeLessThan(600_000 + 30_000);
    expect(err).toContain('reconnecting');
    await emulator.faults.startDashboard();
  });
});
