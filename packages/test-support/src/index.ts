// Dev only (tools/check-structure.mjs keeps apps' src/ from importing it): the helpers tests share.
export { eventually, type EventuallyOptions } from './eventually.ts';
export { freePort, tcpOpen } from './ports.ts';
export { tempDir, type TempDir } from './temp-dir.ts';
