import { eventually } from '@rayjob/test-support';

// Bounded polling (@rayjob/test-support's eventually): tests await conditions instead of sleeping, and fail with a
// named reason at the deadline; an error from the probe ends the wait at once.
export const waitFor = <T>(
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  options: { what: string; timeoutMs?: number; intervalMs?: number },
): Promise<T> => eventually(probe, { what: options.what, withinMs: options.timeoutMs ?? 5_000, everyMs: options.intervalMs ?? 10, retryErrors: false });
