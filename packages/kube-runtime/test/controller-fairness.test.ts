import { describe, expect, it } from 'vitest';
import { createController } from '../src/index.ts';

// Two controllers in one process: one whose reconciles read only the cache (no I/O: a restart's pass over
// unchanged objects) and one whose reconciles wait for an answer (a dashboard round trip). The waiting one must
// not wait for the other's whole queue.
describe('controller workers', () => {
  it('let other work run between reconciles, so a cache-only queue does not hold up a controller waiting for I/O', async () => {
    const stop = new AbortController();
    let cacheOnlyDone = 0;
    const cacheOnly = createController({ name: 'cache-only', reconcile: async () => void cacheOnlyDone++ });
    const seenWhenWaitingDone: number[] = [];
    const waiting = createController({
      name: 'waiting',
      reconcile: async () => {
        // An answer arrives on a later turn of the event loop, as a socket's does.
        await new Promise<void>((resolve) => setImmediate(resolve));
        seenWhenWaitingDone.push(cacheOnlyDone);
      },
    });
    for (let i = 0; i < 2000; i++) cacheOnly.enqueue(`default/c${i}`);
    for (let i = 0; i < 3; i++) waiting.enqueue(`default/w${i}`);
    const running = [cacheOnly.start(stop.signal), waiting.start(stop.signal)];
    const deadline = Date.now() + 10_000;
    while ((cacheOnlyDone < 2000 || seenWhenWaitingDone.length < 3) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await Promise.all(running);
    expect(cacheOnlyDone).toBe(2000);
    expect(seenWhenWaitingDone).toHaveLength(3);
    // Before: all 2,000 cache-only reconciles ran (one unbroken microtask chain) before the first answer was read.
    expect(Math.max(...seenWhenWaitingDone)).toBeLessThan(100);
  });
});
