export { loadConfig, type SubmitterConfig, type LoadedConfig } from './cli/load-config.ts';
export { parseDuration, formatDuration } from './cli/durations.ts';
export { chooseAddress } from './cli/address-precedence.ts';
export { startRun, type Run, type RunDeps } from './run/run-submitter.ts';
export { createLogPrinter, type LogPrinter } from './run/follow-logs.ts';
export { createDriverWatch, type DriverWatch } from './run/watch-driver.ts';
export type { Outcome } from './exit.ts';
