export { startRayEmulator, type RayEmulator, type RayEmulatorOptions } from './emulator.ts';
export type { RayEmulatorFaults } from './emulator-faults.ts';
export { rayDefaultTiming, fastTiming, type EmulatorTiming } from './timing.ts';
export type { RecordedRequest } from './dashboard-server.ts';
