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

/** The queue's state; the functions below act on it. */
interface QueueState {
  clock: Clock;
  limiter: RateLimiter;
  metrics: QueueMetrics;
  queue: string[];
  dirty: Set<string>;
  /** key -> processing start */
  active: Map<string, number>;
  addedAt: Map<string, number>;
  waiting: Map<string, { at: number; cancel: () => void }>;
  getters: Array<(key: string | undefined) => void>;
  drainers: Array<() => void>;
  shuttingDown: boolean;
}

export function createWorkQueue(options: WorkQueueOptions = {}): WorkQueue {
  const clock = options.clock ?? systemClock;
  const q: QueueState = {
    clock,
    limiter: options.rateLimiter ?? defaultControllerRateLimiter(clock),
    metrics: options.metrics ?? noQueueMetrics,
    queue: [],
    dirty: new Set(),
    active: new Map(),
    addedAt: new Map(),
    waiting: new Map(),
    getters: [],
    drainers: [],
    shuttingDown: false,
  };
  return {
    add: (key) => add(q, key),
    addAfter: (key, delayMs) => addAfter(q, key, delayMs),
    addRateLimited: (key) => {
      q.metrics.retries();
      addAfter(q, key, q.limiter.when(key));
    },
    forget: (key) => q.limiter.forget(key),
    numRequeues: (key) => q.limiter.numRequeues(key),
    get: () => get(q),
    done: (key) => done(q, key),
    len: () => q.queue.length,
    processing: () => q.active.size,
    shutDown: () => shutDown(q),
    shutDownWithDrain: () => {
      shutDown(q);
      return q.active.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => q.drainers.push(resolve));
    },
    isShuttingDown: () => q.shuttingDown,
    inFlightSince: () => [...q.active.values()],
  };
}

function push(q: QueueState, key: string): void {
  const getter = q.getters.shift();
  if (getter) return handOut(q, key, getter);
  q.queue.push(key);
  q.metrics.depth(q.queue.length);
}

function handOut(q: QueueState, key: string, to: (key: string) => void): void {
  const now = q.clock.now();
  q.metrics.queueDuration((now - (q.addedAt.get(key) ?? now)) / 1000);
  q.addedAt.delete(key);
  q.dirty.delete(key);
  q.active.set(key, now);
  to(key);
}

function add(q: QueueState, key: string): void {
  if (q.shuttingDown || q.dirty.has(key)) return;
  q.metrics.adds();
  q.dirty.add(key);
  q.addedAt.set(key, q.clock.now());
  if (q.active.has(key)) return;
  push(q, key);
}

function addAfter(q: QueueState, key: string, delayMs: number): void {
  if (q.shuttingDown) return;
  if (delayMs <= 0) return add(q, key);
  const at = q.clock.now() + delayMs;
  const existing = q.waiting.get(key);
  if (existing && existing.at <= at) return;
  existing?.cancel();
  const cancel = q.clock.setTimer(() => {
    q.waiting.delete(key);
    add(q, key);
  }, delayMs);
  q.waiting.set(key, { at, cancel });
}

function get(q: QueueState): Promise<string | undefined> {
  const key = q.queue.shift();
  if (key !== undefined) {
    q.metrics.depth(q.queue.length);
    return new Promise((resolve) => handOut(q, key, resolve));
  }
  if (q.shuttingDown) return Promise.resolve(undefined);
  return new Promise((resolve) => q.getters.push(resolve));
}

function done(q: QueueState, key: string): void {
  const started = q.active.get(key);
  if (started === undefined) return;
  q.metrics.workDuration((q.clock.now() - started) / 1000);
  q.active.delete(key);
  if (q.dirty.has(key) && !q.shuttingDown) push(q, key);
  if (q.active.size === 0) for (const d of q.drainers.splice(0)) d();
}

function shutDown(q: QueueState): void {
  q.shuttingDown = true;
  for (const w of q.waiting.values()) w.cancel();
  q.waiting.clear();
  q.queue.length = 0;
  q.metrics.depth(0);
  for (const g of q.getters.splice(0)) g(undefined);
}
