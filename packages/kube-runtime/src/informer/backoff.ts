// Exponential backoff with jitter, as client-go's reflector uses for list/watch failures (800 ms doubling
// to 30 s, full jitter on top, reset after a quiet period), so many informers do not retry in lockstep.
import type { Clock } from '../clock.ts';

export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  factor?: number;
  /** The delay is multiplied by 1 + jitter * random(). */
  jitter?: number;
  /** After this long without a failure the next failure starts again from initialMs. */
  resetAfterMs?: number;
  random?: () => number;
}

export interface Backoff {
  /** The wait before the next attempt after a failure. */
  next(): number;
  reset(): void;
}

export function createBackoff(clock: Clock, options: BackoffOptions = {}): Backoff {
  const initial = options.initialMs ?? 800;
  const max = options.maxMs ?? 30_000;
  const factor = options.factor ?? 2;
  const jitter = options.jitter ?? 1;
  const resetAfter = options.resetAfterMs ?? 120_000;
  const random = options.random ?? Math.random;
  let failures = 0;
  let lastFailure = -Infinity;
  return {
    next: () => {
      const now = clock.now();
      if (now - lastFailure > resetAfter) failures = 0;
      lastFailure = now;
      const base = Math.min(max, initial * factor ** failures);
      failures++;
      return Math.round(base * (1 + jitter * random()));
    },
    reset: () => {
      failures = 0;
    },
  };
}
