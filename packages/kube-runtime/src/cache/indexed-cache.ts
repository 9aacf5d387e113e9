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

export function createIndexedCache<T extends KubeObject>(extraIndexes: Record<string, IndexFunc<T>> = {}): IndexedCache<T> {
  const items = new Map<string, T>();
  const indexFuncs: Record<string, IndexFunc<T>> = { ...(builtinIndexes as Record<string, IndexFunc<T>>), ...extraIndexes };
  const indexes = new Map<string, Map<string, Set<string>>>(Object.keys(indexFuncs).map((name) => [name, new Map()]));

  const unindex = (key: string, obj: T): void => {
    for (const [name, fn] of Object.entries(indexFuncs)) {
      const index = indexes.get(name)!;
      for (const value of fn(obj)) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
    }
  };
  const addIndex = (key: string, obj: T): void => {
    for (const [name, fn] of Object.entries(indexFuncs)) {
      const index = indexes.get(name)!;
      for (const value of fn(obj)) {
        let keys = index.get(value);
        if (!keys) index.set(value, (keys = new Set()));
        keys.add(key);
      }
    }
  };
  const lookup = (index: string, value: string): T[] => {
    const idx = indexes.get(index);
    if (!idx) throw new Error(`cache: no index named ${index}; define it in the informer's indexes`);
    return [...(idx.get(value) ?? [])].map((k) => items.get(k)!);
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
      const candidates = pairs.map(([k, v]) => indexes.get(labelIndex)!.get(`${k}=${v}`)?.size ?? 0);
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
