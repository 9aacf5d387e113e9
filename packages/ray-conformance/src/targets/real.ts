import type { Target } from '../conformance/target.ts';
import { startRealRayHead, type RealRayHead, type RealRayHeadOptions } from '../real-head/start-real-ray-head.ts';

export type RealTarget = Target & { head: RealRayHead };

export async function startRealTarget(options: RealRayHeadOptions = {}): Promise<RealTarget> {
  const head = await startRealRayHead(options);
  return {
    kind: 'real',
    url: head.url,
    ...(options.authToken ? { authToken: options.authToken } : {}),
    head,
    faults: {
      // Resolves once the JobHead is dead, like the emulator's knob (which resolves once it is down).
      restartJobHead: async () => void (await head.faults.killJobHead()),
      killAgent: async () => void (await head.faults.killAgent()),
      stopDashboard: async () => void (await head.faults.stopDashboard()),
    },
    stop: head.stop,
  };
}
