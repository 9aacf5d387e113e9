// The controller loop, as controller-runtime's: watched objects become namespace/name keys in a rate-limited
// work queue; workers (up to `concurrency`, one per key) call reconcile(key) once the watched caches have
// synced. An error or {requeue} re-queues with backoff, {requeueAfterMs} re-queues after that delay, and
// success forgets the key's failures.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { systemClock, type Clock } from '../clock.ts';
import { describeError, isConflict, type KubeError } from '../client/errors.ts';
import { splitKey, objectKey, type KubeObject } from '../client/types.ts';
import type { Informer } from '../informer/informer.ts';
import { newReconcileId, silentLogger, type Logger } from '../log.ts';
import { createWorkQueue, type WorkQueue } from '../workqueue/queue.ts';
import type { QueueMetrics } from '../workqueue/queue-metrics.ts';
import type { RateLimiter } from '../workqueue/rate-limiters.ts';
import { noControllerMetrics, type ControllerMetrics } from './controller-metrics.ts';

export interface Request {
  key: string;
  namespace?: string;
  name: string;
}

/**
 * What the work queue does next with the key, the one result shape from a reconcile's REST calls to the queue:
 * nothing (done: forget), `requeue` (rate-limited), `requeueAfterMs` (forget + delayed), or `error` (an error as a
 * value: logged as `Reconciler error`, counted, rate-limited re-queue, like a thrown error).
 */
export type ReconcileResult = void | { requeue?: boolean; requeueAfterMs?: number; error?: string };

/**
 * A failed API call as the work queue's answer: a conflict (409, someone wrote first) re-queues to decide again on
 * the fresh copy; anything else is an error naming `what` failed.
 */
export function reconcileResultOf(error: KubeError, what: string): ReconcileResult {
  return isConflict(error) ? { requeue: true } : { error: `${what}: ${describeError(error)}` };
}

export interface ReconcileContext {
  log: Logger;
  reconcileId: string;
  /** Aborts when the controller stops (shutdown, or leadership lost): stop writing. */
  signal: AbortSignal;
}

const terminal = Symbol('terminal reconcile error');

/** An error that retrying cannot fix (invalid spec): logged and counted, never re-queued (controller-runtime's TerminalError). */
export function terminalError(cause: unknown): Error {
  const error = new Error(cause instanceof Error ? cause.message : String(cause), { cause });
  Object.defineProperty(error, terminal, { value: true });
  return error;
}

export const isTerminalError = (error: unknown): boolean => typeof error === 'object' && error !== null && terminal in error;

export type Reconciler = (request: Request, ctx: ReconcileContext) => Promise<ReconcileResult>;

export interface ControllerOptions {
  name: string;
  reconcile: Reconciler;
  /** controller-runtime's MaxConcurrentReconciles. Default 1. */
  concurrency?: number;
  clock?: Clock;
  logger?: Logger;
  rateLimiter?: RateLimiter;
  metrics?: ControllerMetrics;
  queueMetrics?: QueueMetrics;
}

/** controller-runtime's update predicates: skip updates that cannot change a decision (adds and deletes always pass). */
export interface WatchFilter<T extends KubeObject> {
  update?: (old: T, obj: T) => boolean;
}

export interface Controller {
  readonly name: string;
  readonly queue: WorkQueue;
  /** Enqueues keys for every add/update/delete of the informer's objects (by default the object's own key). */
  watch<T extends KubeObject>(informer: Informer<T>, toKeys?: (obj: T) => string[], options?: WatchFilter<T>): void;
  enqueue(key: string): void;
  /** Waits for the watched caches, then runs workers until `signal` aborts; resolves after in-flight reconciles finish. */
  start(signal: AbortSignal): Promise<void>;
}

/** Maps an owned object to its controller owner's key, when that owner is of `kind` (and `group`, if given). */
export function ownerKeys(kind: string, group?: string): (obj: KubeObject) => string[] {
  return (obj) =>
    (obj.metadata.ownerReferences ?? [])
      .filter((r) => r.controller === true && r.kind === kind && (group === undefined || r.apiVersion.split('/')[0] === group))
      .map((r) => objectKey({ metadata: { namespace: obj.metadata.namespace, name: r.name } }));
}

/** One controller's settings, queue and watched caches; the functions below act on it. */
interface ControllerState {
  options: ControllerOptions;
  clock: Clock;
  log: Logger;
  metrics: ControllerMetrics;
  queue: WorkQueue;
  informers: Array<Informer<KubeObject>>;
  concurrency: number;
}

export function createController(options: ControllerOptions): Controller {
  const clock = options.clock ?? systemClock;
  const c: ControllerState = {
    options,
    clock,
    log: (options.logger ?? silentLogger).child({ controller: options.name }),
    metrics: options.metrics ?? noControllerMetrics,
    queue: createWorkQueue({ clock, ...(options.rateLimiter && { rateLimiter: options.rateLimiter }), ...(options.queueMetrics && { metrics: options.queueMetrics }) }),
    informers: [],
    concurrency: Math.max(1, options.concurrency ?? 1),
  };
  return {
    name: options.name,
    queue: c.queue,
    watch: (informer, toKeys, filter) => watch(c, informer, toKeys, filter),
    enqueue: (key) => c.queue.add(key),
    start: (signal) => start(c, signal),
  };
}

function watch<T extends KubeObject>(c: ControllerState, informer: Informer<T>, toKeys?: (obj: T) => string[], filter?: WatchFilter<T>): void {
  const keysOf = toKeys ?? ((obj: T) => [objectKey(obj)]);
  const enqueueAll = (obj: T): void => {
    for (const k of keysOf(obj)) c.queue.add(k);
  };
  informer.addHandlers({
    add: enqueueAll,
    update: (old, obj) => {
      if (filter?.update && !filter.update(old, obj)) return;
      enqueueAll(obj);
    },
    delete: enqueueAll,
  });
  c.informers.push(informer as unknown as Informer<KubeObject>);
}

async function start(c: ControllerState, signal: AbortSignal): Promise<void> {
  const { queue, log } = c;
  const stop = (): void => void queue.shutDownWithDrain();
  signal.addEventListener('abort', stop, { once: true });
  for (const informer of c.informers) {
    if (!(await informer.waitForSync(signal))) break;
  }
  if (signal.aborted) {
    queue.shutDown();
    return;
  }
  log.info({ workerCount: c.concurrency }, 'Starting workers');
  await Promise.all(Array.from({ length: c.concurrency }, () => worker(c, signal)));
  await queue.shutDownWithDrain();
  log.info('All workers finished');
}

async function worker(c: ControllerState, signal: AbortSignal): Promise<void> {
  for (;;) {
    const key = await c.queue.get();
    if (key === undefined) return;
    if (signal.aborted) {
      c.queue.done(key);
      return;
    }
    await reconcileOne(c, key, signal);
    // A reconcile that reads only the cache never leaves the microtask queue, and neither does the next one: such a
    // worker would run its whole queue before any socket is read, while another controller's reconcile waits for
    // its answer (a restart's RayCluster pass over 10,000 unchanged clusters ran alone before the RayJob pass, whose
    // dashboard round trips then left the process idle). One turn of the event loop per reconcile lets answers in
    // between, so one controller's waits are filled with another's work.
    await yieldToEventLoop();
  }
}

async function reconcileOne(c: ControllerState, key: string, signal: AbortSignal): Promise<void> {
  const { queue, metrics } = c;
  const { namespace, name } = splitKey(key);
  const reconcileId = newReconcileId();
  const rlog = c.log.child({ namespace, name, reconcileID: reconcileId });
  const started = c.clock.now();
  metrics.activeWorkers(+1);
  try {
    const result = await c.options.reconcile({ key, name, ...(namespace !== undefined && { namespace }) }, { log: rlog, reconcileId, signal });
    requeueBy(c, key, result, rlog);
  } catch (error) {
    metrics.reconciled('error');
    rlog.error({ err: error }, 'Reconciler error');
    if (isTerminalError(error)) {
      metrics.terminalError();
      queue.forget(key);
    } else queue.addRateLimited(key);
  } finally {
    metrics.reconcileTime((c.clock.now() - started) / 1000);
    metrics.activeWorkers(-1);
    queue.done(key);
  }
}

/** What the queue does with the key after a reconcile that returned `result` (see ReconcileResult). */
function requeueBy(c: ControllerState, key: string, result: ReconcileResult, rlog: Logger): void {
  const { queue, metrics } = c;
  if (result && result.error !== undefined) {
    metrics.reconciled('error');
    rlog.error({ err: result.error }, 'Reconciler error');
    queue.addRateLimited(key);
  } else if (result && result.requeueAfterMs !== undefined && result.requeueAfterMs > 0) {
    queue.forget(key);
    queue.addAfter(key, result.requeueAfterMs);
    metrics.reconciled('requeue_after');
  } else if (result && result.requeue) {
    queue.addRateLimited(key);
    metrics.reconciled('requeue');
  } else {
    queue.forget(key);
    metrics.reconciled('success');
  }
}
