// Dev only (tools/check-structure.mjs keeps apps' src/ from importing it): the helpers tests share.
export { eventually, giveUp, type EventuallyOptions } from './eventually.ts';
export { freePort, tcpOpen } from './ports.ts';
export { tempDir, type TempDir } from './temp-dir.ts';
export { acquireMachineLock, type MachineLock, type MachineLockOptions } from './machine-lock.ts';
export { holdRayStartLock, rayStartLockDir, rayStartLockWaitMs, rayStartLogPath, realRaySlotPaths, type RayStartLock } from './real-ray-locks.ts';
export { liveDescendants, type ProcessInfo } from './descendants.ts';
export { realRayEnv } from './real-ray-env.ts';
