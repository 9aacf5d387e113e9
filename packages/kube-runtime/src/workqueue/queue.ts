// client-go's rate-limited work queue: a key is handed to one worker at a time; adding a queued key again is
// a no-op; a key added while it is processed is queued again when done(); addAfter delays (the earliest
// wins); addRateLimited delays by the rate limiter. Metrics hooks follow workqueue's metric set.
import { systemClock, type Clock } from '../clock.ts';
import { noQueueMetrics, type QueueMetrics } from './queue-metrics.ts';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiters.ts';

export interface WorkQueue {
  add(key: string): void;
  addAfter(key: string, delayMs: number): void;
  addRateLimited(key: string): void;
  forget(key: string): void;
  numRequeues(key: string): number;
  /** The next key, waiting for one; undefined once shut down (and drained of queued keys). */
  get(): Promise<string | undefined>;
  done(key: string): void;
  len(): number;
  /** Keys being processed right now. */
  processing(): number;
  shutDown(): void;
  /** Stops accepting keys, then resolves when no key is being processed. */
  shutDownWithDrain(): Promise<void>;
  isShuttingDown(): boolean;
  /** Start times of the keys being processed (for the unfinished-work gauges). */
  inFlightSince(): number[];
}

export interface WorkQueueOptions {
  clock?: Clock;
  rateLimiter?: RateLimiter;
  metrics?: QueueMetrics;
}

// structure-exception(function-lines createWorkQueue): over the limit before #21 set it; the split is left for a follow-up of #21
export function createWorkQueue(options: WorkQueueOptions = {}): WorkQueue {
  const clock = options.clock ?? systemClock;
  const limiter = options.rateLimiter ?? defaultControllerRateLimiter(clock);
  const metrics = options.metrics ?? noQueueMetrics;
  const queue: string[] = [];
  const dirty = new Set<string>();
  const active = new Map<string, number>(); // key -> processing start
  const addedAt = new Map<string, number>();
  const waiting = new Map<string, { at: number; cancel: () => void }>();
  const getters: Array<(key: string | undefined) => void> = [];
  const drainers: Array<() => void> = [];
  let shuttingDown = false;

  const push = (key: string): void => {
    const getter = getters.shift();
    if (getter) return handOut(key, getter);
    queue.push(key);
    metrics.depth(queue.length);
  };
  const handOut = (key: string, to: (key: string) => void): void => {
    const now = clock.now();
    metrics.queueDuration((now - (addedAt.get(key) ?? now)) / 1000);
    addedAt.delete(key);
    dirty.delete(key);
    active.set(key, now);
    to(key);
  };
  const add = (key: string): void => {
    if (shuttingDown || dirty.has(key)) return;
    metrics.adds();
    dirty.add(key);
    addedAt.set(key, clock.now());
    if (active.has(key)) return;
    push(key);
  };
  const addAfter = (key: string, delayMs: number): void => {
    if (shuttingDown) return;
    if (delayMs <= 0) return add(key);
    const at = clock.now() + delayMs;
    const existing = waiting.get(key);
    if (existing && existing.at <= at) return;
    existing?.cancel();
    const cancel = clock.setTimer(() => {
      waiting.delete(key);
      add(key);
    }, delayMs);
    waiting.set(key, { at, cancel });
  };

  const shutDown = (): void => {
    shuttingDown = true;
    for (const w of waiting.values()) w.cancel();
    waiting.clear();
    queue.length = 0;
    metrics.depth(0);
    for (const g of getters.splice(0)) g(undefined);
  };

  return {
    add,
    addAfter,
    addRateLimited: (key) => {
      metrics.retries();
      addAfter(key, limiter.when(key));
    },
    forget: (key) => limiter.forget(key),
    numRequeues: (key) => limiter.numRequeues(key),
    get: () => {
      const key = queue.shift();
      if (key !== undefined) {
        metrics.depth(queue.length);
        return new Promise((resolve) => handOut(key, resolve));
      }
      if (shuttingDown) return Promise.resolve(undefined);
      return new Promise((resolve) => getters.push(resolve));
    },
    done: (key) => {
      const started = active.get(key);
      if (started === undefined) return;
      metrics.workDuration((clock.now() - started) / 1000);
      active.delete(key);
      if (dirty.has(key) && !shuttingDown) push(key);
      if (active.size === 0) for (const d of drainers.splice(0)) d();
    },
    len: () => queue.length,
    processing: () => active.size,
    shutDown,
    shutDownWithDrain: () => {
      shutDown();
      return active.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => drainers.push(resolve));
    },
    isShuttingDown: () => shuttingDown,
    inFlightSince: () => [...active.values()],
  };
}
