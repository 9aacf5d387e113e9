// The in-memory object store: one map per resource ("bucket"), one global resourceVersion counter
// (as etcd's revision), and a bounded ring of recent changes that watches resume from. Like etcd under
// kube-apiserver (which compacts every 5 minutes), changes older than a time window are compacted away, so a
// watch or paginated list from an old resourceVersion gets 410 Gone as on a real cluster.
// Compare-and-swap on resourceVersion lives here so every write path gets the same 409 semantics.
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

// structure-exception(function-lines createStore): over the limit before #21 set it; the split is left for a follow-up of #21
export function createStore(options: StoreOptions = {}): Store {
  const historySize = options.historySize ?? 100_000;
  const data = new Map<string, Map<string, KubeObject>>();
  const historyWindowMs = options.historyWindowMs ?? 5 * 60_000;
  const now = options.now ?? Date.now;
  const history: StoreEvent[] = [];
  const recordedAt: number[] = []; // recordedAt[i] is when history[i] happened
  let historyStart = 0; // index of oldest valid entry in `history` (ring implemented by trimming in chunks)
  let rv = 1;
  let compactedRv = 1; // every event with rv <= compactedRv is gone from history
  const listeners = new Set<StoreListener>();
  const bucketListeners = new Map<string, Set<StoreListener>>();

  const bucketOf = (bucket: string): Map<string, KubeObject> => {
    let m = data.get(bucket);
    if (!m) {
      m = new Map();
      data.set(bucket, m);
    }
    return m;
  };

  const dropOldest = (): void => {
    const dropped = history[historyStart];
    if (dropped) compactedRv = dropped.rv;
    historyStart++;
    // Trim the arrays in chunks so pushes stay O(1) amortised.
    if (historyStart > 4096 && historyStart * 2 > history.length) {
      history.splice(0, historyStart);
      recordedAt.splice(0, historyStart);
      historyStart = 0;
    }
  };

  /** Compacts what fell out of the time window (lazily, whenever history is read or written). */
  const compactExpired = (): void => {
    const cutoff = now() - historyWindowMs;
    while (historyStart < history.length && (recordedAt[historyStart] as number) < cutoff) dropOldest();
    // Nothing left in the window: everything up to now is compacted, as etcd's compaction to its head would.
    if (historyStart === history.length && history.length > 0) compactedRv = Math.max(compactedRv, (history[history.length - 1] as StoreEvent).rv);
  };

  const record = (type: WatchEventType, bucket: string, object: KubeObject, at: number, old?: KubeObject): void => {
    const event: StoreEvent = old ? { type, bucket, rv: at, object, old } : { type, bucket, rv: at, object };
    compactExpired();
    history.push(event);
    recordedAt.push(now());
    if (history.length - historyStart > historySize) dropOldest();
    for (const l of listeners) l(event);
    const forBucket = bucketListeners.get(bucket);
    if (forBucket) for (const l of forBucket) l(event);
  };

  const stamp = (obj: KubeObject, at: number): KubeObject => ({
    ...obj,
    metadata: { ...obj.metadata, resourceVersion: String(at) },
  });

  return {
    currentRv: () => rv,
    oldestResumableRv: () => {
      compactExpired();
      return compactedRv;
    },
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
      if (expectedRv !== undefined && expectedRv !== '' && old.metadata.resourceVersion !== expectedRv) {
        return { ok: false, error: 'Conflict' };
      }
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
      if (expectedRv !== undefined && expectedRv !== '' && old.metadata.resourceVersion !== expectedRv) {
        return { ok: false, error: 'Conflict' };
      }
      m.delete(key);
      // A delete event carries the object at a new resourceVersion, as the real server does.
      const gone = stamp(old, ++rv);
      record('DELETED', bucket, gone, rv, old);
      return { ok: true, value: gone };
    },
    eventsSince: (bucket, afterRv) => {
      compactExpired();
      if (afterRv < compactedRv) return undefined;
      const out: StoreEvent[] = [];
      // History is sorted by rv: binary search for the first event after afterRv.
      let lo = historyStart;
      let hi = history.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((history[mid] as StoreEvent).rv <= afterRv) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < history.length; i++) {
        const e = history[i] as StoreEvent;
        if (e.bucket === bucket) out.push(e);
      }
      return out;
    },
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
    compact: () => {
      compactedRv = rv;
      history.length = 0;
      recordedAt.length = 0;
      historyStart = 0;
    },
  };
}
