// An allow-list of an object's fields, and the cache transform it defines: a cache keeps what its readers read
// and nothing else (a cached Pod as the API server sends it is ~5-10 KB of fields nobody looks at).

/**
 * What to keep of a value: `true` keeps it whole; a record keeps the named keys, each by its own rule (`'*'` is the
 * rule of every key not named, e.g. for label maps; `false` drops a named key that `'*'` would keep); `[rule]`
 * keeps an array, each element by `rule`.
 */
export type KeepRule = boolean | { readonly [key: string]: KeepRule } | readonly [KeepRule];

/** The rule of `key` under a record rule, or false when the record does not keep it. */
export function ruleOfKey(rule: KeepRule, key: string): KeepRule {
  if (rule === true) return true;
  if (rule === false || Array.isArray(rule)) return false;
  const record = rule as { readonly [key: string]: KeepRule };
  return Object.hasOwn(record, key) ? record[key]! : (record['*'] ?? false);
}

/** A new value holding only what `rule` keeps of `value`; primitives and `true` subtrees are shared, not copied. */
export function keepFields(value: unknown, rule: KeepRule): unknown {
  if (rule === true) return value;
  // A structured rule over a primitive (a shape nobody reads that way) keeps nothing.
  if (rule === false || value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(rule)) return Array.isArray(value) ? value.map((item) => keepFields(item, rule[0] as KeepRule)) : undefined;
  if (Array.isArray(value)) return undefined;
  const kept: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const childRule = ruleOfKey(rule, key);
    if (childRule === false) continue;
    const picked = keepFields(child, childRule);
    if (picked !== undefined) kept[key] = picked;
  }
  return kept;
}

/** Transforms made by keepFieldsTransform (see keepsPlainData). */
const plainDataTransforms = new WeakSet<object>();

/** The cache transform an allow-list defines: applied to every object before the cache stores it. */
export function keepFieldsTransform<T extends object>(rule: KeepRule): (obj: T) => T {
  const transform = (obj: T): T => keepFields(obj, rule) as T;
  plainDataTransforms.add(transform);
  return transform;
}

/**
 * Whether `transform` returns plain data made of its input's own values (keepFieldsTransform's do): what it
 * returns may then be changed in place, e.g. by the informer's string interning, after the transform dropped
 * what the cache does not keep (another transform may return anything, such as a proxy that records reads).
 */
export const keepsPlainData = (transform: unknown): boolean => typeof transform === 'function' && plainDataTransforms.has(transform);
