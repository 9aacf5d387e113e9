export { startRayEmulator, type RayEmulator, type RayEmulatorOptions, type RayEmulatorFaults } from './emulator.ts';
export { rayDefaultTiming, fastTiming, type EmulatorTiming } from './timing.ts';
export type { RecordedRequest } from './dashboard-server.ts';
