import { describe, expect, it } from 'vitest';
import { deadlineSignal } from '../src/deadline-signal.ts';

// What AbortSignal.any([AbortSignal.timeout(ms), fence, caller]) did for a request, without its per-request cost.
describe('a request deadline signal', () => {
  it('aborts with a TimeoutError once its time is up', async () => {
    const d = deadlineSignal(20, []);
    await new Promise((resolve) => d.signal.addEventListener('abort', resolve, { once: true }));
    expect((d.signal.reason as Error).name).toBe('TimeoutError');
  });

  it("aborts with a caller's reason, already aborted or later", () => {
    const before = new AbortController();
    before.abort(new Error('fenced'));
    expect((deadlineSignal(10_000, [undefined, before.signal]).signal.reason as Error).message).toBe('fenced');
    const later = new AbortController();
    const d = deadlineSignal(10_000, [later.signal]);
    expect(d.signal.aborted).toBe(false);
    later.abort(new Error('lease lost'));
    expect((d.signal.reason as Error).message).toBe('lease lost');
    d.release();
  });

  it('once released, neither the time nor a caller aborts it (nothing is left on a long-lived signal)', async () => {
    const fence = new AbortController();
    const d = deadlineSignal(20, [fence.signal]);
    d.release();
    await new Promise((r) => setTimeout(r, 60));
    fence.abort();
    expect(d.signal.aborted).toBe(false);
  });
});
