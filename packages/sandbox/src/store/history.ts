// The store's change history: a bounded ring of recent events, sorted by resourceVersion, that watches resume from.
// Like etcd under kube-apiserver (which compacts every 5 minutes), changes older than a time window are compacted
// away, so a watch or paginated list from an old resourceVersion gets 410 Gone as on a real cluster.
import type { StoreEvent } from './types.ts';

export interface StoreHistory {
  /** Appends one event (its rv is above every recorded one). */
  push(event: StoreEvent): void;
  /** Every event with rv <= this is gone. */
  compactedRv(): number;
  /** Events with rv > afterRv for the bucket, or undefined when history no longer reaches back that far. */
  since(bucket: string, afterRv: number): StoreEvent[] | undefined;
  /** Drops everything: the history starts again after `rv`. */
  compactTo(rv: number): void;
}

export interface StoreHistoryOptions {
  /** How many recent changes are kept. */
  size: number;
  /** Changes older than this are compacted. */
  windowMs: number;
  now: () => number;
}

export function createStoreHistory({ size, windowMs, now }: StoreHistoryOptions): StoreHistory {
  const history: StoreEvent[] = [];
  const recordedAt: number[] = []; // recordedAt[i] is when history[i] happened
  let start = 0; // index of oldest valid entry in `history` (ring implemented by trimming in chunks)
  let compactedRv = 1; // every event with rv <= compactedRv is gone from history

  const dropOldest = (): void => {
    const dropped = history[start];
    if (dropped) compactedRv = dropped.rv;
    start++;
    // Trim the arrays in chunks so pushes stay O(1) amortised.
    if (start > 4096 && start * 2 > history.length) {
      history.splice(0, start);
      recordedAt.splice(0, start);
      start = 0;
    }
  };

  /** Compacts what fell out of the time window (lazily, whenever history is read or written). */
  const compactExpired = (): void => {
    const cutoff = now() - windowMs;
    while (start < history.length && (recordedAt[start] as number) < cutoff) dropOldest();
    // Nothing left in the window: everything up to now is compacted, as etcd's compaction to its head would.
    if (start === history.length && history.length > 0) compactedRv = Math.max(compactedRv, (history[history.length - 1] as StoreEvent).rv);
  };

  /** Index of the first event after afterRv (history is sorted by rv: a binary search). */
  const firstAfter = (afterRv: number): number => {
    let lo = start;
    let hi = history.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((history[mid] as StoreEvent).rv <= afterRv) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  return {
    push: (event) => {
      compactExpired();
      history.push(event);
      recordedAt.push(now());
      if (history.length - start > size) dropOldest();
    },
    compactedRv: () => {
      compactExpired();
      return compactedRv;
    },
    since: (bucket, afterRv) => {
      compactExpired();
      if (afterRv < compactedRv) return undefined;
      const out: StoreEvent[] = [];
      for (let i = firstAfter(afterRv); i < history.length; i++) {
        const e = history[i] as StoreEvent;
        if (e.bucket === bucket) out.push(e);
      }
      return out;
    },
    compactTo: (rv) => {
      compactedRv = rv;
      history.length = 0;
      recordedAt.length = 0;
      start = 0;
    },
  };
}
