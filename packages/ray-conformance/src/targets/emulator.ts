import { startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import type { Target } from '../conformance/target.ts';

export type EmulatorTarget = Target & { emulator: RayEmulator };

/** The emulator with Ray's own timings, so that both targets see events in the same order. */
export async function startEmulatorTarget(options: { authToken?: string } = {}): Promise<EmulatorTarget> {
  const emulator = await startRayEmulator({
    host: '127.0.0.1',
    port: 0,
    rayVersion: '2.58.0',
    ...(options.authToken ? { authToken: options.authToken } : {}),
  });
  return {
    kind: 'emulator',
    url: emulator.url,
    ...(options.authToken ? { authToken: options.authToken } : {}),
    emulator,
    faults: {
      restartJobHead: () => emulator.faults.restartJobHead(),
      killAgent: () => emulator.faults.killAgent(),
      stopDashboard: () => emulator.faults.stopDashboard(),
    },
    stop: () => emulator.stop(),
  };
}
