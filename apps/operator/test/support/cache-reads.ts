// Records which fields of cached objects the operator reads. As the operator's cache transforms, but each cached
// object stays whole (every field the API server set) and is seen through a Proxy that notes every property read,
// present or not, and every enumeration (spread, Object.entries, JSON, structuredClone). The checks in
// cached-fields.test.ts compare the record with the allow-lists of src/runtime/cached-fields.ts.
import { ruleOfKey, stripManagedFields, type KeepRule, type KubeObject } from '@rayjob/kube-runtime';
import type { CacheTransforms } from '../../src/runtime/cached-fields.ts';

/** A path into an object: property names, '[]' for any array element. */
export type FieldPath = readonly string[];

interface Read {
  path: FieldPath;
  /** The value read was an object (or array), at least once. */
  object: boolean;
  /** Enumerated (spread, entries, JSON, clone): every key under it was read. */
  whole: boolean;
}

/** Keys that language machinery asks of any object (await, JSON, inspection): not a read of a field. */
const MACHINERY = new Set(['then', 'toJSON', 'constructor', 'asymmetricMatch', '$$typeof', 'nodeType', 'inspect', 'toString', 'valueOf']);

export interface CacheReads {
  transforms: CacheTransforms;
  /** Reads per resource plural. */
  reads(plural: string): Read[];
  /** Objects the transforms saw, per resource plural. */
  seen(plural: string): number;
  /** structuredClone that sees through the recording proxies (install as the global during the run). */
  restore(): void;
}

// structure-exception(function-lines recordCacheReads): landed by the #27 caches work as the 80-line limit came in; to be split by its owner
export function recordCacheReads(plurals: readonly string[]): CacheReads {
  const reads = new Map<string, Map<string, Read>>(plurals.map((p) => [p, new Map()]));
  const seen = new Map<string, number>();
  const targets = new WeakMap<object, { target: object; plural: string; path: FieldPath }>();
  const proxies = new WeakMap<object, Map<string, object>>();
  const debugged = new Set<string>();
  const debug = process.env.CACHE_READS_DEBUG;

  const note = (plural: string, path: FieldPath, whole = false, object = whole): void => {
    // CACHE_READS_DEBUG=pods:status.podIP prints who reads a field first (or enumerates it, with whole).
    if (debug === `${plural}:${path.join('.')}` && !debugged.has(debug)) {
      debugged.add(debug);
      console.log(`first read of ${debug}${whole ? ' (whole)' : ''}:`, new Error().stack?.split('\n').slice(3, 12).join('\n'));
    }
    const key = JSON.stringify(path);
    const map = reads.get(plural)!;
    const old = map.get(key);
    map.set(key, { path, whole: whole || (old?.whole ?? false), object: object || (old?.object ?? false) });
  };
  const wrap = (plural: string, target: object, path: FieldPath): object => {
    // One proxy per (object, path): identity comparisons between reads of the same field hold.
    const byPath = proxies.get(target) ?? new Map<string, object>();
    proxies.set(target, byPath);
    const pathKey = JSON.stringify(path);
    const existing = byPath.get(pathKey);
    if (existing) return existing;
    const isArray = Array.isArray(target);
    const child = (key: string): FieldPath => [...path, isArray ? '[]' : key];
    const proxy = new Proxy(target, {
      get(t, key, receiver) {
        const value = Reflect.get(t, key, receiver);
        if (typeof key === 'symbol' || MACHINERY.has(key)) return value;
        if (isArray && !/^\d+$/.test(key)) return value;
        const isObject = value !== null && typeof value === 'object';
        note(plural, child(key), false, isObject);
        return isObject ? wrap(plural, value, child(key)) : value;
      },
      has(t, key) {
        if (typeof key === 'string' && !(isArray && !/^\d+$/.test(key))) note(plural, child(key));
        return Reflect.has(t, key);
      },
      ownKeys(t) {
        note(plural, path, true);
        return Reflect.ownKeys(t);
      },
    });
    targets.set(proxy, { target, plural, path });
    byPath.set(pathKey, proxy);
    return proxy;
  };
  /** A copy without proxies; every proxied value inside counts as read whole. */
  const unwrap = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const proxied = targets.get(value);
    if (proxied) {
      note(proxied.plural, proxied.path, true);
      return unwrap(proxied.target);
    }
    if (Array.isArray(value)) return value.map(unwrap);
    if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrap(v)]));
  };
  const clone = globalThis.structuredClone;
  globalThis.structuredClone = ((value: unknown, options?: Parameters<typeof structuredClone>[1]) => clone(unwrap(value), options)) as typeof structuredClone;

  return {
    transforms: Object.fromEntries(
      plurals.map((plural) => [
        plural,
        (obj: KubeObject) => {
          seen.set(plural, (seen.get(plural) ?? 0) + 1);
          // The cache drops managedFields whatever its transform (kube-runtime's stripManagedFields).
          return wrap(plural, stripManagedFields(obj), []) as KubeObject;
        },
      ]),
    ),
    reads: (plural) => [...(reads.get(plural)?.values() ?? [])],
    seen: (plural) => seen.get(plural) ?? 0,
    restore: () => {
      globalThis.structuredClone = clone;
    },
  };
}

/** The rule `rule` gives `path` (false: the transform drops it). */
export function ruleAt(rule: KeepRule, path: FieldPath): KeepRule {
  let at = rule;
  for (const segment of path) {
    if (at === true || at === false) return at;
    if (Array.isArray(at)) {
      if (segment !== '[]') return false;
      at = at[0] as KeepRule;
    } else at = ruleOfKey(at, segment);
  }
  return at;
}

/** Every path an allow-list keeps by name, with its rule ('*' entries as the map's path plus '*'). */
export function keptPaths(rule: KeepRule, path: FieldPath = []): Array<{ path: FieldPath; rule: KeepRule }> {
  if (rule === true || rule === false) return [];
  if (Array.isArray(rule)) return keptPaths(rule[0] as KeepRule, [...path, '[]']);
  return Object.entries(rule as Record<string, KeepRule>)
    .filter(([, r]) => r !== false)
    .flatMap(([key, r]) => [{ path: [...path, key], rule: r }, ...keptPaths(r, [...path, key])]);
}
