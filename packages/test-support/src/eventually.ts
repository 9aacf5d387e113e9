// Await a condition with a bound: tests poll instead of sleeping, and fail at the deadline with a named reason
// (and the last error the check threw, if any).

export interface EventuallyOptions {
  /** What is awaited, for the timeout message ("pod p1 Running"). */
  what: string;
  /** The bound; every wait has one. Default 10 s. */
  withinMs?: number;
  /** Pause between checks. Default 20 ms. */
  everyMs?: number;
  /** A check that throws is tried again (default); with false the error ends the wait at once. */
  retryErrors?: boolean;
}

/** Calls `check` until it answers something other than undefined, null or false, and answers that. */
export async function eventually<T>(check: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: EventuallyOptions): Promise<T> {
  const withinMs = options.withinMs ?? 10_000;
  const deadline = Date.now() + withinMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      if (options.retryErrors === false) throw error;
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${withinMs} ms waiting for ${options.what}${last === undefined ? '' : `: ${String(last)}`}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 20));
  }
}
