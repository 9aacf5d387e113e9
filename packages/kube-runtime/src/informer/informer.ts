// An informer: paginated list, then watch from the list's resourceVersion with bookmarks; on 410 it lists
// again, on any other failure it backs off with jitter and resumes. It reports "synced" only after a list
// succeeded, and tells handlers about adds, updates and deletes (a relist diffs against the cache).
import { sleep, systemClock, type Clock } from '../clock.ts';
import { createIndexedCache, type IndexedCache, type IndexFunc } from '../cache/indexed-cache.ts';
import { describeError, isGone, type KubeError } from '../client/errors.ts';
import type { ResourceType } from '../client/resources.ts';
import type { KubeClient } from '../client/rest-client.ts';
import { objectKey, type KubeObject } from '../client/types.ts';
import { silentLogger, type Logger } from '../log.ts';
import { createBackoff, type BackoffOptions } from './backoff.ts';
import { listAll } from './list-pages.ts';

export interface EventHandlers<T extends KubeObject> {
  add?(obj: T): void;
  update?(old: T, obj: T): void;
  delete?(obj: T): void;
}

export interface InformerOptions<T extends KubeObject> {
  client: KubeClient;
  type: ResourceType;
  /** Watch one namespace; all when undefined. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Items per list page. Default 500 (client-go's). */
  pageSize?: number;
  indexes?: Record<string, IndexFunc<T>>;
  /**
   * Applied to every listed and watched object before it enters the cache or reaches a handler (controller-runtime's
   * cache TransformFunc): keep only what the readers read, so the cache does not hold what nobody looks at. It must
   * keep metadata.name, namespace and resourceVersion, and return a new object (the input is not retained).
   */
  transform?: (obj: T) => T;
  backoff?: BackoffOptions;
  /** Server-side watch timeout; client-go picks 5-10 min at random. */
  watchTimeoutSeconds?: number;
  /** A watch silent this long (bookmarks count) is re-opened from the last resourceVersion. Default 2 min. */
  watchIdleTimeoutMs?: number;
  clock?: Clock;
  logger?: Logger;
}

export interface Informer<T extends KubeObject> {
  readonly type: ResourceType;
  readonly cache: IndexedCache<T>;
  addHandlers(handlers: EventHandlers<T>): void;
  hasSynced(): boolean;
  /** Resolves true once synced, false if `signal` aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean>;
  /** The resourceVersion the next watch resumes from. */
  lastResourceVersion(): string;
  /** Runs until `signal` aborts. */
  run(signal: AbortSignal): Promise<void>;
}

// structure-exception(function-lines createInformer): over the limit before #21 set it; the split is left for a follow-up of #21
export function createInformer<T extends KubeObject>(options: InformerOptions<T>): Informer<T> {
  const { client, type } = options;
  const clock = options.clock ?? systemClock;
  const log = (options.logger ?? silentLogger).child({ informer: type.plural, ...(options.namespace !== undefined && { namespace: options.namespace }) });
  const backoff = createBackoff(clock, options.backoff);
  const cache = createIndexedCache<T>(options.indexes);
  const transform = options.transform ?? ((obj: T) => obj);
  const handlers: Array<EventHandlers<T>> = [];
  const syncWaiters: Array<() => void> = [];
  let synced = false;
  let rv = '';

  const notify = (fn: (h: EventHandlers<T>) => void): void => {
    for (const h of handlers) {
      try {
        fn(h);
      } catch (e) {
        log.error({ err: e }, 'informer event handler threw');
      }
    }
  };
  const upsert = (obj: T): void => {
    const old = cache.upsert(obj);
    const stored = cache.get(objectKey(obj))!;
    if (old) notify((h) => h.update?.(old, stored));
    else notify((h) => h.add?.(stored));
  };
  const remove = (obj: T): void => {
    const old = cache.remove(objectKey(obj));
    if (old) notify((h) => h.delete?.(obj));
  };

  const relist = async (signal: AbortSignal): Promise<KubeError | undefined> => {
    // Transformed page by page, so a full list never sits in memory untransformed.
    const listed = await listAll<T>(client, type, { namespace: options.namespace, labelSelector: options.labelSelector, fieldSelector: options.fieldSelector, pageSize: options.pageSize ?? 500, signal, transform });
    if (!listed.ok) return listed.error;
    const seen = new Set<string>();
    for (const obj of listed.value.items) {
      seen.add(objectKey(obj));
      const old = cache.get(objectKey(obj));
      if (!old || old.metadata.resourceVersion !== obj.metadata.resourceVersion) upsert(obj);
    }
    for (const key of cache.keys()) if (!seen.has(key)) remove(cache.get(key)!);
    rv = listed.value.resourceVersion;
    if (!synced) {
      synced = true;
      for (const w of syncWaiters.splice(0)) w();
    }
    return undefined;
  };

  /** One watch; returns why it ended: 'relist' (410), 'error' (back off), or 'ended' (rewatch). */
  const watchOnce = async (signal: AbortSignal): Promise<'relist' | 'error' | 'ended'> => {
    const started = clock.now();
    let events = 0;
    let gone = false;
    let errorEvent: string | undefined;
    const stop = new AbortController();
    const watchSignal = AbortSignal.any([signal, stop.signal]);
    const result = await client.watch<T>(type, {
      ...(options.namespace !== undefined && { namespace: options.namespace }),
      ...(options.labelSelector !== undefined && { labelSelector: options.labelSelector }),
      ...(options.fieldSelector !== undefined && { fieldSelector: options.fieldSelector }),
      resourceVersion: rv,
      allowBookmarks: true,
      timeoutSeconds: options.watchTimeoutSeconds ?? 300 + Math.floor(Math.random() * 300),
      idleTimeoutMs: options.watchIdleTimeoutMs ?? 120_000,
      signal: watchSignal,
      onEvent: (event) => {
        events++;
        if (event.type === 'ERROR') {
          gone = event.object.code === 410;
          errorEvent = `${event.object.code ?? ''} ${event.object.reason ?? ''}: ${event.object.message ?? ''}`;
          stop.abort();
          return;
        }
        const newRv = event.object.metadata?.resourceVersion;
        if (event.type === 'ADDED' || event.type === 'MODIFIED') upsert(transform(event.object));
        else if (event.type === 'DELETED') remove(transform(event.object));
        if (newRv !== undefined && newRv !== '') rv = newRv;
      },
    });
    if (signal.aborted) return 'ended';
    if (gone) {
      log.info({ resourceVersion: rv, reason: errorEvent }, 'watch expired; relisting');
      return 'relist';
    }
    if (errorEvent !== undefined) {
      log.warn({ reason: errorEvent }, 'watch ended with an error event');
      return 'error';
    }
    if (!result.ok) {
      if (isGone(result.error)) return 'relist';
      // A silent stream (half-open connection, or a quiet server without bookmarks): resume at once.
      if (result.error.reason === 'Timeout') {
        log.info({ resourceVersion: rv }, 'watch idle; re-opening');
        return 'ended';
      }
      log.warn({ error: describeError(result.error) }, 'watch failed');
      return 'error';
    }
    // A stream that the server closes at once, repeatedly, must not become a hot loop.
    return events === 0 && clock.now() - started < 1000 ? 'error' : 'ended';
  };

  const run = async (signal: AbortSignal): Promise<void> => {
    let needList = true;
    while (!signal.aborted) {
      if (needList) {
        const error = await relist(signal);
        if (signal.aborted) break;
        if (error) {
          const wait = Math.max(backoff.next(), (error.retryAfterSeconds ?? 0) * 1000);
          log.warn({ error: describeError(error), retryInMs: wait }, 'list failed');
          await sleep(clock, wait, signal);
          continue;
        }
        needList = false;
      }
      const outcome = await watchOnce(signal);
      if (outcome === 'relist') needList = true;
      else if (outcome === 'error') await sleep(clock, backoff.next(), signal);
    }
  };

  return {
    type,
    cache,
    addHandlers: (h) => {
      handlers.push(h);
      // Late subscribers see what is already known, as with client-go's AddEventHandler.
      if (h.add) for (const obj of cache.list()) h.add(obj);
    },
    hasSynced: () => synced,
    waitForSync: (signal) =>
      new Promise((resolve) => {
        if (synced) return resolve(true);
        if (signal?.aborted) return resolve(false);
        syncWaiters.push(() => resolve(true));
        signal?.addEventListener('abort', () => resolve(synced), { once: true });
      }),
    lastResourceVersion: () => rv,
    run,
  };
}
