// An informer: paginated list, then watch from the list's resourceVersion with bookmarks; on 410 it lists
// again, on any other failure it backs off with jitter and resumes. It reports "synced" only after a list
// succeeded, and tells handlers about adds, updates and deletes (a relist diffs against the cache).
import { sleep, systemClock, type Clock } from '../clock.ts';
import { createIndexedCache, type IndexedCache, type IndexFunc } from '../cache/indexed-cache.ts';
import { createStringInterner } from '../cache/intern-strings.ts';
import { keepsPlainData } from '../cache/keep-fields.ts';
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

/** One informer's settings, cache and progress; the functions below act on it. */
interface InformerState<T extends KubeObject> {
  options: InformerOptions<T>;
  clock: Clock;
  log: Logger;
  backoff: ReturnType<typeof createBackoff>;
  cache: IndexedCache<T>;
  /** What enters the cache: options.transform over the object with its short strings interned (ingestWith). */
  transform: (obj: T) => T;
  handlers: Array<EventHandlers<T>>;
  syncWaiters: Array<() => void>;
  synced: boolean;
  /** The resourceVersion the next watch resumes from. */
  rv: string;
}

/** How one watch ended: 'relist' (410), 'error' (back off), or 'ended' (rewatch). */
type WatchEnd = 'relist' | 'error' | 'ended';

/**
 * An object's way into the cache: trimmed by `transform`, and its repeated strings shared with the objects cached
 * before it. An allow-list's transform (keepsPlainData) trims first, so only the kept fields are walked (a cached
 * Pod keeps ~30% of a listed one); any other transform gets the parsed object already interned (nobody else holds
 * it, so the transform may return anything, even a proxy).
 */
function ingestWith<T extends KubeObject>(transform: ((obj: T) => T) | undefined): (obj: T) => T {
  const interner = createStringInterner();
  if (transform === undefined) return (obj) => interner.intern(obj);
  return keepsPlainData(transform) ? (obj) => interner.intern(transform(obj)) : (obj) => transform(interner.intern(obj));
}

export function createInformer<T extends KubeObject>(options: InformerOptions<T>): Informer<T> {
  const clock = options.clock ?? systemClock;
  const s: InformerState<T> = {
    options,
    clock,
    log: (options.logger ?? silentLogger).child({ informer: options.type.plural, ...(options.namespace !== undefined && { namespace: options.namespace }) }),
    backoff: createBackoff(clock, options.backoff),
    cache: createIndexedCache<T>(options.indexes),
    transform: ingestWith(options.transform),
    handlers: [],
    syncWaiters: [],
    synced: false,
    rv: '',
  };
  return {
    type: options.type,
    cache: s.cache,
    addHandlers: (h) => {
      s.handlers.push(h);
      // Late subscribers see what is already known, as with client-go's AddEventHandler.
      if (h.add) for (const obj of s.cache.list()) h.add(obj);
    },
    hasSynced: () => s.synced,
    waitForSync: (signal) =>
      new Promise((resolve) => {
        if (s.synced) return resolve(true);
        if (signal?.aborted) return resolve(false);
        s.syncWaiters.push(() => resolve(true));
        signal?.addEventListener('abort', () => resolve(s.synced), { once: true });
      }),
    lastResourceVersion: () => s.rv,
    run: (signal) => run(s, signal),
  };
}

function notify<T extends KubeObject>(s: InformerState<T>, fn: (h: EventHandlers<T>) => void): void {
  for (const h of s.handlers) {
    try {
      fn(h);
    } catch (e) {
      s.log.error({ err: e }, 'informer event handler threw');
    }
  }
}

function upsert<T extends KubeObject>(s: InformerState<T>, obj: T): void {
  const old = s.cache.upsert(obj);
  const stored = s.cache.get(objectKey(obj))!;
  if (old) notify(s, (h) => h.update?.(old, stored));
  else notify(s, (h) => h.add?.(stored));
}

function remove<T extends KubeObject>(s: InformerState<T>, obj: T): void {
  const old = s.cache.remove(objectKey(obj));
  if (old) notify(s, (h) => h.delete?.(obj));
}

async function relist<T extends KubeObject>(s: InformerState<T>, signal: AbortSignal): Promise<KubeError | undefined> {
  const { options, cache } = s;
  // Transformed page by page, so a full list never sits in memory untransformed.
  const listed = await listAll<T>(options.client, options.type, { namespace: options.namespace, labelSelector: options.labelSelector, fieldSelector: options.fieldSelector, pageSize: options.pageSize ?? 500, signal, transform: s.transform });
  if (!listed.ok) return listed.error;
  const seen = new Set<string>();
  for (const obj of listed.value.items) {
    seen.add(objectKey(obj));
    const old = cache.get(objectKey(obj));
    if (!old || old.metadata.resourceVersion !== obj.metadata.resourceVersion) upsert(s, obj);
  }
  for (const key of cache.keys()) if (!seen.has(key)) remove(s, cache.get(key)!);
  s.rv = listed.value.resourceVersion;
  if (!s.synced) {
    s.synced = true;
    for (const w of s.syncWaiters.splice(0)) w();
  }
  return undefined;
}

/** One watch from the last resourceVersion, applying its events; returns how it ended. */
async function watchOnce<T extends KubeObject>(s: InformerState<T>, signal: AbortSignal): Promise<WatchEnd> {
  const { options, clock, log } = s;
  const started = clock.now();
  let events = 0;
  let errorEvent: { gone: boolean; text: string } | undefined;
  const stop = new AbortController();
  const result = await options.client.watch<T>(options.type, {
    ...(options.namespace !== undefined && { namespace: options.namespace }),
    ...(options.labelSelector !== undefined && { labelSelector: options.labelSelector }),
    ...(options.fieldSelector !== undefined && { fieldSelector: options.fieldSelector }),
    resourceVersion: s.rv,
    allowBookmarks: true,
    timeoutSeconds: options.watchTimeoutSeconds ?? 300 + Math.floor(Math.random() * 300),
    idleTimeoutMs: options.watchIdleTimeoutMs ?? 120_000,
    signal: AbortSignal.any([signal, stop.signal]),
    onEvent: (event) => {
      events++;
      if (event.type === 'ERROR') {
        errorEvent = { gone: event.object.code === 410, text: `${event.object.code ?? ''} ${event.object.reason ?? ''}: ${event.object.message ?? ''}` };
        stop.abort();
        return;
      }
      const newRv = event.object.metadata?.resourceVersion;
      if (event.type === 'ADDED' || event.type === 'MODIFIED') upsert(s, s.transform(event.object));
      else if (event.type === 'DELETED') remove(s, s.transform(event.object));
      if (newRv !== undefined && newRv !== '') s.rv = newRv;
    },
  });
  if (signal.aborted) return 'ended';
  if (errorEvent?.gone) {
    log.info({ resourceVersion: s.rv, reason: errorEvent.text }, 'watch expired; relisting');
    return 'relist';
  }
  if (errorEvent !== undefined) {
    log.warn({ reason: errorEvent.text }, 'watch ended with an error event');
    return 'error';
  }
  if (!result.ok) return watchFailed(s, result.error);
  // A stream that the server closes at once, repeatedly, must not become a hot loop.
  return events === 0 && clock.now() - started < 1000 ? 'error' : 'ended';
}

function watchFailed<T extends KubeObject>(s: InformerState<T>, error: KubeError): WatchEnd {
  if (isGone(error)) return 'relist';
  // A silent stream (half-open connection, or a quiet server without bookmarks): resume at once.
  if (error.reason === 'Timeout') {
    s.log.info({ resourceVersion: s.rv }, 'watch idle; re-opening');
    return 'ended';
  }
  s.log.warn({ error: describeError(error) }, 'watch failed');
  return 'error';
}

async function run<T extends KubeObject>(s: InformerState<T>, signal: AbortSignal): Promise<void> {
  let needList = true;
  while (!signal.aborted) {
    if (needList) {
      const error = await relist(s, signal);
      if (signal.aborted) break;
      if (error) {
        const wait = Math.max(s.backoff.next(), (error.retryAfterSeconds ?? 0) * 1000);
        s.log.warn({ error: describeError(error), retryInMs: wait }, 'list failed');
        await sleep(s.clock, wait, signal);
        continue;
      }
      needList = false;
    }
    const outcome = await watchOnce(s, signal);
    if (outcome === 'relist') needList = true;
    else if (outcome === 'error') await sleep(s.clock, s.backoff.next(), signal);
  }
}
