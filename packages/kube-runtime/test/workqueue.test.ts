import { describe, expect, it } from 'vitest';
import { bucketLimiter, createWorkQueue, itemExponentialLimiter, maxOfLimiters } from '../src/index.ts';
import { createFakeClock } from '../src/testing/index.ts';

const settle = () => new Promise((r) => setImmediate(r));

describe('work queue (client-go semantics)', () => {
  it('de-duplicates a key added several times before a worker takes it', async () => {
    const q = createWorkQueue({ clock: createFakeClock() });
    q.add('a');
    q.add('a');
    q.add('b');
    expect(q.len()).toBe(2);
    expect(await q.get()).toBe('a');
    expect(await q.get()).toBe('b');
  });

  it('hands a key to one worker at a time and runs it again after done() when added during processing', async () => {
    const q = createWorkQueue({ clock: createFakeClock() });
    q.add('a');
    const first = await q.get();
    q.add('a'); // arrives while 'a' is processed
    let second: string | undefined;
    void q.get().then((k) => (second = k));
    await settle();
    expect(second).toBeUndefined(); // not handed out while in flight
    q.done(first!);
    await settle();
    expect(second).toBe('a');
  });

  it('delays addAfter until the clock passes, and the earliest of two delays wins', async () => {
    const clock = createFakeClock();
    const q = createWorkQueue({ clock });
    q.addAfter('a', 1000);
    q.addAfter('a', 200);
    q.addAfter('a', 5000);
    clock.advance(199);
    expect(q.len()).toBe(0);
    clock.advance(1);
    expect(q.len()).toBe(1);
    clock.advance(10_000);
    expect(q.len()).toBe(1);
  });

  it('backs a failing key off exponentially per key, and forget() resets it', () => {
    const limiter = itemExponentialLimiter(5, 1000);
    expect([1, 2, 3, 4, 5].map(() => limiter.when('a'))).toEqual([5, 10, 20, 40, 80]);
    expect(limiter.when('b')).toBe(5);
    expect(limiter.numRequeues('a')).toBe(5);
    limiter.forget('a');
    expect(limiter.when('a')).toBe(5);
    for (let i = 0; i < 20; i++) limiter.when('c');
    expect(limiter.when('c')).toBe(1000);
  });

  it('limits the overall rate with a token bucket (burst, then qps)', () => {
    const clock = createFakeClock();
    const bucket = bucketLimiter(clock, 10, 3);
    expect([bucket.when('a'), bucket.when('b'), bucket.when('c')]).toEqual([0, 0, 0]);
    expect(bucket.when('d')).toBe(100);
    expect(bucket.when('e')).toBe(200);
    clock.advance(1000); // refill 10 tokens (capped at 3) minus the two borrowed
    expect(bucket.when('f')).toBe(0);
  });

  it('uses the slower of per-key backoff and the bucket', () => {
    const clock = createFakeClock();
    const limiter = maxOfLimiters(itemExponentialLimiter(5, 1000), bucketLimiter(clock, 1, 1));
    expect(limiter.when('a')).toBe(5);
    expect(limiter.when('b')).toBe(1000);
  });

  it('re-queues a rate-limited key after its backoff and counts retries', async () => {
    const clock = createFakeClock();
    const retries: number[] = [];
    const q = createWorkQueue({ clock, rateLimiter: itemExponentialLimiter(100, 10_000), metrics: { depth: () => undefined, adds: () => undefined, retries: () => retries.push(1), queueDuration: () => undefined, workDuration: () => undefined } });
    q.addRateLimited('a');
    q.addRateLimited('a');
    expect(q.numRequeues('a')).toBe(2);
    clock.advance(99);
    expect(q.len()).toBe(0);
    clock.advance(1);
    expect(q.len()).toBe(1);
    expect(retries).toHaveLength(2);
  });

  it('shutDownWithDrain waits for in-flight keys, ends waiting workers and drops queued keys', async () => {
    const q = createWorkQueue({ clock: createFakeClock() });
    q.add('a');
    q.add('b');
    const a = await q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    expect(await q.get()).toBeUndefined();
    q.add('c');
    await settle();
    expect(drained).toBe(false);
    q.done(a!);
    await drain;
    expect(drained).toBe(true);
    expect(q.len()).toBe(0);
  });

  it('reports queue and work durations on the injected clock', async () => {
    const clock = createFakeClock();
    const seen: Record<string, number[]> = { queue: [], work: [] };
    const q = createWorkQueue({ clock, metrics: { depth: () => undefined, adds: () => undefined, retries: () => undefined, queueDuration: (s) => seen.queue!.push(s), workDuration: (s) => seen.work!.push(s) } });
    q.add('a');
    clock.advance(1500);
    const key = await q.get();
    clock.advance(250);
    expect(q.inFlightSince()).toHaveLength(1);
    q.done(key!);
    expect(seen).toEqual({ queue: [1.5], work: [0.25] });
  });
});
