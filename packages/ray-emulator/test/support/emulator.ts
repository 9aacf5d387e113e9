import { afterEach } from 'vitest';
import { startRayEmulator, type RayEmulator, type RayEmulatorOptions } from '../../src/index.ts';
import { fastTiming } from '../../src/timing.ts';

/** Starts an emulator with test timings; every one started in a test is stopped after it. */
const started: RayEmulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.stop()));
});

export async function emulator(options: RayEmulatorOptions = {}): Promise<RayEmulator & { ws: string }> {
  const e = await startRayEmulator({ ...options, timing: { ...fastTiming, ...options.timing } });
  started.push(e);
  return Object.assign(e, { ws: e.url.replace(/^http/, 'ws') });
}
