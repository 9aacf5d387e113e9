/** Bounded waiting: every wait in this package goes through here, so none can hang a run. */

export type PollOptions = {
  /** What is being waited for; used in the timeout error. */
  what: string;
  timeoutMs: number;
  intervalMs?: number;
  /** Errors for which waiting longer is pointless (e.g. the process exited); rethrown at once. */
  fatal?: (error: unknown) => boolean;
};

/**
 * Calls `probe` until it returns a value other than `undefined`, or the deadline passes.
 * Errors thrown by `probe` count as "not yet" (the thing may still be starting), and the
 * last one is reported on timeout.
 */
export async function pollUntil<T>(probe: () => Promise<T | undefined>, options: PollOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 200;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      if (options.fatal?.(error)) throw error;
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const cause = lastError instanceof Error ? `; last error: ${lastError.message}` : '';
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${options.what}${cause}`);
    }
    await sleep(interval);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
