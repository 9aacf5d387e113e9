// client-go's rate limiters: per-item exponential failure backoff, an overall token bucket, and the max of
// both (controller-runtime's default: 5 ms doubling to 1000 s per key, 10 qps with a burst of 100 overall).
import type { Clock } from '../clock.ts';

export interface RateLimiter {
  /** How long `key` waits before its next attempt (and counts this failure). */
  when(key: string): number;
  /** Forget `key`'s failures (it succeeded). */
  forget(key: string): void;
  numRequeues(key: string): number;
}

export function itemExponentialLimiter(baseMs = 5, maxMs = 1_000_000): RateLimiter {
  const failures = new Map<string, number>();
  return {
    when: (key) => {
      const n = failures.get(key) ?? 0;
      failures.set(key, n + 1);
      return Math.min(maxMs, baseMs * 2 ** n);
    },
    forget: (key) => void failures.delete(key),
    numRequeues: (key) => failures.get(key) ?? 0,
  };
}

/** A token bucket of `burst` tokens refilled at `qps`; each call reserves a token, possibly in the future. */
export function bucketLimiter(clock: Clock, qps = 10, burst = 100): RateLimiter {
  let tokens = burst;
  let last = clock.now();
  return {
    when: () => {
      const now = clock.now();
      tokens = Math.min(burst, tokens + ((now - last) / 1000) * qps);
      last = now;
      tokens -= 1;
      return tokens >= 0 ? 0 : Math.ceil((-tokens / qps) * 1000);
    },
    forget: () => undefined,
    numRequeues: () => 0,
  };
}

export function maxOfLimiters(...limiters: RateLimiter[]): RateLimiter {
  return {
    when: (key) => Math.max(...limiters.map((l) => l.when(key))),
    forget: (key) => limiters.forEach((l) => l.forget(key)),
    numRequeues: (key) => Math.max(...limiters.map((l) => l.numRequeues(key))),
  };
}

export interface DefaultLimiterOptions {
  baseDelayMs?: number;
  maxDelayMs?: number;
  qps?: number;
  burst?: number;
}

export function defaultControllerRateLimiter(clock: Clock, o: DefaultLimiterOptions = {}): RateLimiter {
  return maxOfLimiters(itemExponentialLimiter(o.baseDelayMs ?? 5, o.maxDelayMs ?? 1_000_000), bucketLimiter(clock, o.qps ?? 10, o.burst ?? 100));
}
