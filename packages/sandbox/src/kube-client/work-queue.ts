// A deduplicating work queue processed by one worker: a key enqueued while queued runs once; a key
// enqueued while running runs again afterwards. Delayed requeues keep only the earliest timer.
export interface WorkQueue {
  add(key: string): void;
  addAfter(key: string, delayMs: number): void;
  /** Resolves when nothing is queued or running (for tests and orderly stops). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function startWorkQueue(process: (key: string) => Promise<void>, onError: (key: string, error: unknown) => void = () => {}, retryDelayMs = 50): WorkQueue {
  const queued = new Set<string>();
  const timers = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  let running: Promise<void> | undefined;
  let stopped = false;
  let idleWaiters: Array<() => void> = [];
  const scheduleRetry = (key: string): void => {
    if (stopped || timers.has(key)) return;
    const timer = setTimeout(() => { timers.delete(key); queued.add(key); pump(); }, retryDelayMs);
    timers.set(key, { at: Date.now() + retryDelayMs, timer });
  };

  const pump = (): void => {
    if (running !== undefined || stopped) return;
    const next = queued.values().next();
    if (next.done === true) {
      for (const wake of idleWaiters) wake();
      idleWaiters = [];
      return;
    }
    const key = next.value;
    queued.delete(key);
    running = process(key)
      .catch((error: unknown) => {
        onError(key, error);
        // Retry after a pause: a conflict usually means the cache is about to catch up.
        scheduleRetry(key);
      })
      .finally(() => { running = undefined; setImmediate(pump); });
  };

  return {
    add(key) {
      if (stopped) return;
      queued.add(key);
      pump();
    },
    addAfter(key, delayMs) {
      if (stopped) return;
      const at = Date.now() + delayMs;
      const existing = timers.get(key);
      if (existing !== undefined && existing.at <= at) return;
      if (existing !== undefined) clearTimeout(existing.timer);
      const timer = setTimeout(() => { timers.delete(key); queued.add(key); pump(); }, Math.max(0, delayMs));
      timers.set(key, { at, timer });
    },
    idle: () => new Promise<void>((resolve) => {
      if (running === undefined && queued.size === 0) resolve();
      else idleWaiters.push(resolve);
    }),
    async stop() {
      stopped = true;
      for (const { timer } of timers.values()) clearTimeout(timer);
      timers.clear();
      queued.clear();
      await running;
    },
  };
}
