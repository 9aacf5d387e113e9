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

/** What the recording proxies noted, and the proxies themselves; the functions below act on it. */
interface Recorder {
  reads: Map<string, Map<string, Read>>;
  targets: WeakMap<object, { target: object; plural: string; path: FieldPath }>;
  proxies: WeakMap<object, Map<string, object>>;
  debugged: Set<string>;
  debug: string | undefined;
}

export function recordCacheReads(plurals: readonly string[]): CacheReads {
  const r: Recorder = { reads: new Map(plurals.map((p) => [p, new Map()])), targets: new WeakMap(), proxies: new WeakMap(), debugged: new Set(), debug: process.env.CACHE_READS_DEBUG };
  const seen = new Map<string, number>();
  const clone = globalThis.structuredClone;
  globalThis.structuredClone = ((value: unknown, options?: Parameters<typeof structuredClone>[1]) => clone(unwrap(r, value), options)) as typeof structuredClone;
  return {
    transforms: Object.fromEntries(
      plurals.map((plural) => [
        plural,
        (obj: KubeObject) => {
          seen.set(plural, (seen.get(plural) ?? 0) + 1);
          // The cache drops managedFields whatever its transform (kube-runtime's stripManagedFields).
          return wrap(r, plural, stripManagedFields(obj), []) as KubeObject;
        },
      ]),
    ),
    reads: (plural) => [...(r.reads.get(plural)?.values() ?? [])],
    seen: (plural) => seen.get(plural) ?? 0,
    restore: () => {
      globalThis.structuredClone = clone;
    },
  };
}

function note(r: Recorder, plural: string, path: FieldPath, whole = false, object = whole): void {
  // CACHE_READS_DEBUG=pods:status.podIP prints who reads a field first (or enumerates it, with whole).
  if (r.debug === `${plural}:${path.join('.')}` && !r.debugged.has(r.debug)) {
    r.debugged.add(r.debug);
    console.log(`first read of ${r.debug}${whole ? ' (whole)' : ''}:`, new Error().stack?.split('\n').slice(3, 12).join('\n'));
  }
  const key = JSON.stringify(path);
  const map = r.reads.get(plural)!;
  const old = map.get(key);
  map.set(key, { path, whole: whole || (old?.whole ?? false), object: object || (old?.object ?? false) });
}

function wrap(r: Recorder, plural: string, target: object, path: FieldPath): object {
  // One proxy per (object, path): identity comparisons between reads of the same field hold.
  const byPath = r.proxies.get(target) ?? new Map<string, object>();
  r.proxies.set(target, byPath);
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
      note(r, plural, child(key), false, isObject);
      return isObject ? wrap(r, plural, value, child(key)) : value;
    },
    has(t, key) {
      if (typeof key === 'string' && !(isArray && !/^\d+$/.test(key))) note(r, plural, child(key));
      return Reflect.has(t, key);
    },
    ownKeys(t) {
      note(r, plural, path, true);
      return Reflect.ownKeys(t);
    },
  });
  r.targets.set(proxy, { target, plural, path });
  byPath.set(pathKey, proxy);
  return proxy;
}

/** A copy without proxies; every proxied value inside counts as read whole. */
function unwrap(r: Recorder, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const proxied = r.targets.get(value);
  if (proxied) {
    note(r, proxied.plural, proxied.path, true);
    return unwrap(r, proxied.target);
  }
  if (Array.isArray(value)) return value.map((v) => unwrap(r, v));
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, unwrap(r, v)]));
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
