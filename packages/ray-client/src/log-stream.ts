// The log tail as an async iterator, for callers that prefer `for await`. Leaving the loop early (break,
// throw) ends the tail; `end` then resolves to { kind: 'aborted' }.
import type { TailOptions, TailResult } from './log-tail.ts';

export interface LogStream {
  chunks: AsyncIterableIterator<string>;
  /** How the tail ended; resolves after the last chunk was queued. */
  end: Promise<TailResult>;
}

export function streamFromTail(
  startTail: (options: TailOptions) => Promise<TailResult>,
  options: Omit<TailOptions, 'onChunk'>,
): LogStream {
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted) controller.abort();

  const end = startTail({
    ...options,
    signal: controller.signal,
    onChunk: (chunk) => {
      queue.push(chunk);
      wake?.();
    },
  }).then((result) => {
    finished = true;
    options.signal?.removeEventListener('abort', onOuterAbort);
    wake?.();
    return result;
  });

  const chunks: AsyncIterableIterator<string> = {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next(): Promise<IteratorResult<string>> {
      for (;;) {
        const chunk = queue.shift();
        if (chunk !== undefined) return { value: chunk, done: false };
        if (finished) return { value: undefined, done: true };
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    },
    async return(): Promise<IteratorResult<string>> {
      controller.abort();
      queue.length = 0;
      return { value: undefined, done: true };
    },
  };
  return { chunks, end };
}
