// One request's signal: aborted when its time is up (a TimeoutError, as AbortSignal.timeout's reason) or when any
// of the given signals aborts (with that signal's reason, as AbortSignal.any does), and released by the caller
// once the request is over (its timer cleared, its listeners removed). AbortSignal.any over a long-lived signal
// (the lease fence every API server write and dashboard call carries) and an AbortSignal.timeout cost ~130 µs per
// request on the bench machine and left weak references for the GC to trace until each timeout fired 30 s later (a
// resync makes ~10,000 requests of each kind); this costs ~5 µs and leaves nothing behind. Its own package because
// both clients use it (kube-runtime's REST client and ray-client's dashboard transport) and neither may load the
// other: the submitter uses ray-client and must not load kube-runtime.

export interface DeadlineSignal {
  readonly signal: AbortSignal;
  /** The request is over: the timer and the listeners go (the signal stays as it is). */
  release(): void;
}

export function deadlineSignal(timeoutMs: number, signals: ReadonlyArray<AbortSignal | undefined>): DeadlineSignal {
  const controller = new AbortController();
  const sources = signals.filter((s): s is AbortSignal => s !== undefined);
  const aborted = sources.find((s) => s.aborted);
  if (aborted) {
    controller.abort(aborted.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const release = (): void => {
    clearTimeout(timer);
    for (const s of sources) s.removeEventListener('abort', onAbort);
  };
  const onAbort = (event: Event): void => {
    release();
    controller.abort((event.target as AbortSignal).reason);
  };
  const timer = setTimeout(() => {
    release();
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  // As AbortSignal.timeout's: a pending request's deadline does not keep the process alive.
  timer.unref();
  for (const s of sources) s.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, release };
}
