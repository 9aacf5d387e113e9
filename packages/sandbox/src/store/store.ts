// The in-memory object store: one map per resource ("bucket"), one global resourceVersion counter
// (as etcd's revision), and a bounded, time-compacted history of recent changes that watches resume from
// (history.ts).
// Compare-and-swap on resourceVersion lives here so every write path gets the same 409 semantics.
import { createStoreHistory } from './history.ts';
import type { KubeObject, StoreEvent, WatchEventType } from './types.ts';

export type StoreResult<T> =
  | { ok: true; value: T }
  | { ok: false; error: 'NotFound' | 'AlreadyExists' | 'Conflict' };

export type StoreListener = (event: StoreEvent) => void;

export interface Store {
  /** The newest resourceVersion handed out (string form is what clients see). */
  currentRv(): number;
  /** Oldest resourceVersion a watch can still resume from (exclusive lower bound of history). */
  oldestResumableRv(): number;
  get(bucket: string, namespace: string, name: string): KubeObject | undefined;
  list(bucket: string, namespace?: string): KubeObject[];
  count(bucket?: string): number;
  buckets(): string[];
  create(bucket: string, obj: KubeObject): StoreResult<KubeObject>;
  /** Replace; when expectedRv is given and differs from the stored one, Conflict. */
  update(bucket: string, obj: KubeObject, expectedRv?: string): StoreResult<KubeObject>;
  remove(bucket: string, namespace: string, name: string, expectedRv?: string): StoreResult<KubeObject>;
  /** Events with rv > afterRv for the bucket, or undefined when history no longer reaches back that far. */
  eventsSince(bucket: string, afterRv: number): StoreEvent[] | undefined;
  /** Listen to changes; with a bucket only that bucket's (so watch fan-out costs O(watchers of that bucket)). */
  subscribe(listener: StoreListener, bucket?: string): () => void;
  /** Drop history (tests and fault injection use this to force 410 Gone). */
  compact(): void;
}

export interface StoreOptions {
  /** How many recent changes watches can resume from. */
  historySize?: number;
  /** Changes older than this are compacted (default 5 minutes, kube-apiserver's compaction interval). */
  historyWindowMs?: number;
  /** Clock for the compaction window (tests inject one). */
  now?: () => number;
}

const keyOf = (namespace: string, name: string): string => `${namespace}/${name}`;

/** Listeners of every change, and of one bucket's (so watch fan-out costs O(watchers of that bucket)). */
function createListeners(): { subscribe: Store['subscribe']; emit(event: StoreEvent): void } {
  const listeners = new Set<StoreListener>();
  const bucketListeners = new Map<string, Set<StoreListener>>();
  return {
    subscribe: (listener, bucket) => {
      if (bucket === undefined) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      }
      let set = bucketListeners.get(bucket);
      if (!set) {
        set = new Set();
        bucketListeners.set(bucket, set);
      }
      const s = set;
      s.add(listener);
      return () => s.delete(listener);
    },
    emit: (event) => {
      for (const l of listeners) l(event);
      const forBucket = bucketListeners.get(event.bucket);
      if (forBucket) for (const l of forBucket) l(event);
    },
  };
}

const stamp = (obj: KubeObject, at: number): KubeObject => ({
  ...obj,
  metadata: { ...obj.metadata, resourceVersion: String(at) },
});

const staleRv = (old: KubeObject, expectedRv: string | undefined): boolean =>
  expectedRv !== undefined && expectedRv !== '' && old.metadata.resourceVersion !== expectedRv;

export function createStore(options: StoreOptions = {}): Store {
  const data = new Map<string, Map<string, KubeObject>>();
  const history = createStoreHistory({ size: options.historySize ?? 100_000, windowMs: options.historyWindowMs ?? 5 * 60_000, now: options.now ?? Date.now });
  const listeners = createListeners();
  let rv = 1;

  const bucketOf = (bucket: string): Map<string, KubeObject> => {
    let m = data.get(bucket);
    if (!m) {
      m = new Map();
      data.set(bucket, m);
    }
    return m;
  };

  const record = (type: WatchEventType, bucket: string, object: KubeObject, at: number, old?: KubeObject): void => {
    const event: StoreEvent = old ? { type, bucket, rv: at, object, old } : { type, bucket, rv: at, object };
    history.push(event);
    listeners.emit(event);
  };

  return {
    currentRv: () => rv,
    oldestResumableRv: () => history.compactedRv(),
    get: (bucket, namespace, name) => data.get(bucket)?.get(keyOf(namespace, name)),
    list: (bucket, namespace) => {
      const m = data.get(bucket);
      if (!m) return [];
      const all = [...m.values()];
      return namespace === undefined ? all : all.filter((o) => (o.metadata.namespace ?? '') === namespace);
    },
    count: (bucket) =>
      bucket === undefined ? [...data.values()].reduce((n, m) => n + m.size, 0) : (data.get(bucket)?.size ?? 0),
    buckets: () => [...data.keys()],
    create: (bucket, obj) => {
      const m = bucketOf(bucket);
      const key = keyOf(obj.metadata.namespace ?? '', obj.metadata.name ?? '');
      if (m.has(key)) return { ok: false, error: 'AlreadyExists' };
      const stored = stamp(obj, ++rv);
      m.set(key, stored);
      record('ADDED', bucket, stored, rv);
      return { ok: true, value: stored };
    },
    update: (bucket, obj, expectedRv) => {
      const m = bucketOf(bucket);
      const key = keyOf(obj.metadata.namespace ?? '', obj.metadata.name ?? '');
      const old = m.get(key);
      if (!old) return { ok: false, error: 'NotFound' };
      if (staleRv(old, expectedRv)) return { ok: false, error: 'Conflict' };
      const stored = stamp(obj, ++rv);
      m.set(key, stored);
      record('MODIFIED', bucket, stored, rv, old);
      return { ok: true, value: stored };
    },
    remove: (bucket, namespace, name, expectedRv) => {
      const m = bucketOf(bucket);
      const key = keyOf(namespace, name);
      const old = m.get(key);
      if (!old) return { ok: false, error: 'NotFound' };
      if (staleRv(old, expectedRv)) return { ok: false, error: 'Conflict' };
      m.delete(key);
      // A delete event carries the object at a new resourceVersion, as the real server does.
      const gone = stamp(old, ++rv);
      record('DELETED', bucket, gone, rv, old);
      return { ok: true, value: gone };
    },
    eventsSince: (bucket, afterRv) => history.since(bucket, afterRv),
    subscribe: listeners.subscribe,
    compact: () => history.compactTo(rv),
  };
}
