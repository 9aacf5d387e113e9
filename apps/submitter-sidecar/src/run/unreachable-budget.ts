// --max-unreachable: how long the dashboard may fail to answer (refused, reset, timeout, 5xx) before the
// submitter gives up with exit 4. Any good answer resets it; the clock starts at the first failure of a streak.

export interface UnreachableBudget {
  answered(): void;
  /** Records a failure; 'exhausted' once failures have lasted the whole budget. */
  failed(): 'retry' | 'exhausted';
  failingForMs(): number;
}

export function createUnreachableBudget(maxMs: number, now: () => number): UnreachableBudget {
  let since: number | undefined;
  return {
    answered() {
      since = undefined;
    },
    failed() {
      since ??= now();
      return now() - since >= maxMs ? 'exhausted' : 'retry';
    },
    failingForMs: () => (since === undefined ? 0 : now() - since),
  };
}

/** Exponential backoff with a cap; reset after progress. */
export function createBackoff(minMs: number, maxMs: number) {
  let next = minMs;
  return {
    next(): number {
      const current = next;
      next = Math.min(maxMs, next * 2);
      return current;
    },
    reset(): void {
      next = minMs;
    },
  };
}
