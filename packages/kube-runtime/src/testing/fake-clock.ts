// A manual clock for tests: timers fire only when `advance` moves time past them, in due order.
import type { Clock } from '../clock.ts';

export interface FakeClock extends Clock {
  /** Moves time forward, firing due timers in order (timers set by fired callbacks included). */
  advance(ms: number): void;
  /** How many timers are waiting. */
  pending(): number;
}

export function createFakeClock(start = 1_000_000): FakeClock {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const nextDue = (until: number): [number, { at: number; fn: () => void }] | undefined => {
    let best: [number, { at: number; fn: () => void }] | undefined;
    for (const entry of timers) {
      if (entry[1].at <= until && (best === undefined || entry[1].at < best[1].at)) best = entry;
    }
    return best;
  };
  return {
    now: () => now,
    setTimer: (fn, ms) => {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return () => timers.delete(id);
    },
    advance: (ms) => {
      const until = now + ms;
      for (let due = nextDue(until); due; due = nextDue(until)) {
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].fn();
      }
      now = until;
    },
    pending: () => timers.size,
  };
}
