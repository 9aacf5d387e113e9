import { startRayEmulator, type RayEmulator, type RayEmulatorOptions } from '../../src/index.ts';
import { fastTiming } from '../../src/timing.ts';

/** Emulators started by the running test; stopped after it by the setup file stop-started.ts. */
const started: RayEmulator[] = [];
export async function stopStarted(): Promise<void> {
  await Promise.all(started.splice(0).map((e) => e.stop()));
}

/** Starts an emulator with test timings; every one started in a test is stopped after it. */

export async function emulator(options: RayEmulatorOptions = {}): Promise<RayEmulator & { ws: string }> {
  const e = await startRayEmulator({ ...options, timing: { ...fastTiming, ...options.timing } });
  started.push(e);
  return Object.assign(e, { ws: e.url.replace(/^http/, 'ws') });
}
