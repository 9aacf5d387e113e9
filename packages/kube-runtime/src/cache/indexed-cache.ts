// The informer's cache: objects by namespace/name key, with indexes by namespace, controller/owner UID and
// label pairs (plus any caller-defined ones), so reconcilers read owned objects without API calls.
// managedFields are stripped on the way in: nobody reconciles on them and they dominate memory.
import { objectKey, type KubeObject } from '../client/types.ts';

export type IndexFunc<T extends KubeObject> = (obj: T) => string[];

export interface IndexedCache<T extends KubeObject> {
  get(key: string): T | undefined;
  getByName(namespace: string | undefined, name: string): T | undefined;
  list(): T[];
  keys(): string[];
  size(): number;
  byNamespace(namespace: string): T[];
  /** Objects with an ownerReference to this UID. */
  byOwner(uid: string): T[];
  /** Objects whose labels include every pair (equality selector). */
  byLabels(selector: Record<string, string>): T[];
  byIndex(index: string, value: string): T[];
  /** Mutations, for the informer that feeds this cache. */
  upsert(obj: T): T | undefined;
  remove(key: string): T | undefined;
  replace(objs: T[]): void;
}

export const namespaceIndex = 'namespace';
export const ownerIndex = 'owner';
export const labelIndex = 'label';

const builtinIndexes: Record<string, IndexFunc<KubeObject>> = {
  [namespaceIndex]: (o) => [o.metadata.namespace ?? ''],
  [ownerIndex]: (o) => (o.metadata.ownerReferences ?? []).map((r) => r.uid),
  [labelIndex]: (o) => Object.entries(o.metadata.labels ?? {}).map(([k, v]) => `${k}=${v}`),
};

export function stripManagedFields<T extends KubeObject>(obj: T): T {
  // hasOwn, not a read: a cache whose transform already trimmed the object does not ask for a field it dropped.
  if (!Object.hasOwn(obj.metadata, 'managedFields')) return obj;
  const { managedFields: _dropped, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/**
 * The keys of one index value: a lone key as itself, a Set only from the second key on. Most values index one
 * object (an owner's UID, a cluster-name label), and a one-key Set costs ~150 bytes: the operator's heap held ~25
 * of them per RayJob (issue 27's heap snapshot at 300 RayJobs), and a pod with 4 unique index values took 1,139 B
 * of cache beside the object, now 532 B (cache-and-backoff.test.ts).
 */
type IndexKeys = string | Set<string>;

function addKey(index: Map<string, IndexKeys>, value: string, key: string): void {
  const keys = index.get(value);
  if (keys === undefined) index.set(value, key);
  else if (typeof keys !== 'string') keys.add(key);
  else if (keys !== key) index.set(value, new Set([keys, key]));
}

function deleteKey(index: Map<string, IndexKeys>, value: string, key: string): void {
  const keys = index.get(value);
  if (keys === undefined) return;
  if (typeof keys === 'string') {
    if (keys === key) index.delete(value);
    return;
  }
  keys.delete(key);
  if (keys.size <= 1) {
    const [last] = keys;
    if (last === undefined) index.delete(value);
    else index.set(value, last);
  }
}

const keyCount = (keys: IndexKeys | undefined): number => (keys === undefined ? 0 : typeof keys === 'string' ? 1 : keys.size);
const keyList = (keys: IndexKeys | undefined): string[] => (keys === undefined ? [] : typeof keys === 'string' ? [keys] : [...keys]);

export function createIndexedCache<T extends KubeObject>(extraIndexes: Record<string, IndexFunc<T>> = {}): IndexedCache<T> {
  const items = new Map<string, T>();
  const indexFuncs: Record<string, IndexFunc<T>> = { ...(builtinIndexes as Record<string, IndexFunc<T>>), ...extraIndexes };
  const indexes = new Map<string, Map<string, IndexKeys>>(Object.keys(indexFuncs).map((name) => [name, new Map()]));

  const unindex = (key: string, obj: T): void => {
    for (const [name, fn] of Object.entries(indexFuncs)) {
      const index = indexes.get(name)!;
      for (const value of fn(obj)) deleteKey(index, value, key);
    }
  };
  const addIndex = (key: string, obj: T): void => {
    for (const [name, fn] of Object.entries(indexFuncs)) {
      const index = indexes.get(name)!;
      for (const value of fn(obj)) addKey(index, value, key);
    }
  };
  const lookup = (index: string, value: string): T[] => {
    const idx = indexes.get(index);
    if (!idx) throw new Error(`cache: no index named ${index}; define it in the informer's indexes`);
    return keyList(idx.get(value)).map((k) => items.get(k)!);
  };

  return {
    get: (key) => items.get(key),
    getByName: (namespace, name) => items.get(namespace === undefined || namespace === '' ? name : `${namespace}/${name}`),
    list: () => [...items.values()],
    keys: () => [...items.keys()],
    size: () => items.size,
    byNamespace: (ns) => lookup(namespaceIndex, ns),
    byOwner: (uid) => lookup(ownerIndex, uid),
    byLabels: (selector) => {
      const pairs = Object.entries(selector);
      if (pairs.length === 0) return [...items.values()];
      // Start from the rarest pair, then filter: a selector is an intersection.
      const candidates = pairs.map(([k, v]) => keyCount(indexes.get(labelIndex)!.get(`${k}=${v}`)));
      const rarest = pairs[candidates.indexOf(Math.min(...candidates))]!;
      return lookup(labelIndex, `${rarest[0]}=${rarest[1]}`).filter((o) => pairs.every(([k, v]) => o.metadata.labels?.[k] === v));
    },
    byIndex: lookup,
    upsert: (raw) => {
      const obj = stripManagedFields(raw);
      const key = objectKey(obj);
      const old = items.get(key);
      if (old) unindex(key, old);
      items.set(key, obj);
      addIndex(key, obj);
      return old;
    },
    remove: (key) => {
      const old = items.get(key);
      if (old) {
        unindex(key, old);
        items.delete(key);
      }
      return old;
    },
    replace: (objs) => {
      items.clear();
      for (const index of indexes.values()) index.clear();
      for (const raw of objs) {
        const obj = stripManagedFields(raw);
        const key = objectKey(obj);
        items.set(key, obj);
        addIndex(key, obj);
      }
    },
  };
}
