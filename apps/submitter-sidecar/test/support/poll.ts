import { eventually } from '@rayjob/test-support';

// Bounded waiting for tests (@rayjob/test-support's eventually): await a condition, never sleep blindly; an error
// from the probe ends the wait at once.
export const waitFor = <T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 10_000,
  intervalMs = 20,
): Promise<T> => eventually(probe, { what, withinMs: timeoutMs, everyMs: intervalMs, retryErrors: false });
