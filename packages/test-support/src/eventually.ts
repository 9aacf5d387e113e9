// Await a condition with a bound: tests poll instead of sleeping, and fail at the deadline with a named reason
// (and the last error the check threw, if any).

export interface EventuallyOptions {
  /** What is awaited, for the timeout message ("pod p1 Running"). */
  what: string;
  /** The bound; every wait has one. Default 10 s. */
  withinMs?: number;
  /** Pause between checks (the first pause, with maxEveryMs). Default 20 ms. */
  everyMs?: number;
  /**
   * With it, each pause is 1.5x the one before, up to this: a long wait that is not latency-sensitive checks a few
   * times a second instead of 20-50 times (each check is an API request on both sides: CPU that grows with the
   * wait on a loaded machine), while a condition met at once is still seen within everyMs. Default: no growth.
   */
  maxEveryMs?: number;
  /** A check that throws is tried again (default); with false the error ends the wait at once. */
  retryErrors?: boolean;
}

const terminal = Symbol('eventually.giveUp');

/**
 * Thrown from a check: the wait ends at once with this error, whatever `retryErrors` says. For a state no retry can
 * change (a RayJob that Failed while the test awaits Complete), so a test fails when it happens instead of retrying a
 * thrown error until its bound (up to 12 minutes for a real-Ray job), while transient errors (a refused request) are
 * still tried again.
 */
export const giveUp = (message: string): never => {
  throw Object.assign(new Error(message), { [terminal]: true });
};

const isGiveUp = (error: unknown): boolean => typeof error === 'object' && error !== null && terminal in error;

/** Calls `check` until it answers something other than undefined, null or false, and answers that. */
export async function eventually<T>(check: () => T | undefined | null | false | Promise<T | undefined | null | false>, options: EventuallyOptions): Promise<T> {
  const withinMs = options.withinMs ?? 10_000;
  const deadline = Date.now() + withinMs;
  let last: unknown;
  let pauseMs = options.everyMs ?? 20;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== null && value !== false) return value;
    } catch (error) {
      if (options.retryErrors === false || isGiveUp(error)) throw error;
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${withinMs} ms waiting for ${options.what}${last === undefined ? '' : `: ${String(last)}`}`);
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    if (options.maxEveryMs !== undefined) pauseMs = Math.min(options.maxEveryMs, Math.max(pauseMs, Math.ceil(pauseMs * 1.5)));
  }
}
