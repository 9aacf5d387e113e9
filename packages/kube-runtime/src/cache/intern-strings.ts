// One copy of each repeated string across an informer's cached objects. JSON.parse gives every object its own copy
// of every string value: kinds, apiVersions, namespaces, condition types, reasons and messages, images, label
// values. At 10,000 RayJobs those copies were ~60 MB of the operator's heap (issue 27's heap snapshot: 1.9 MB of
// duplicate short strings at 300 RayJobs). Interning makes the cached objects share them.
// Bounded: the table holds at most `maxEntries` strings of at most `maxLength` characters and starts afresh when
// full (unique strings, such as names and uids, pass through it too), so a repeated string has one copy per
// generation of the table instead of one per object.

export interface StringInterner {
  /** Replaces, in place, every short string in `value` (a freshly parsed object nobody else holds) by its shared copy. */
  intern<T>(value: T): T;
  /** Strings in the current table. */
  size(): number;
}

export function createStringInterner(maxEntries = 16_384, maxLength = 128): StringInterner {
  let table = new Map<string, string>();
  const one = (s: string): string => {
    if (s.length > maxLength) return s;
    const shared = table.get(s);
    if (shared !== undefined) return shared;
    if (table.size >= maxEntries) table = new Map();
    table.set(s, s);
    return s;
  };
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return one(value);
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      if (Object.isFrozen(value)) return value;
      for (let i = 0; i < value.length; i++) value[i] = walk(value[i]);
      return value;
    }
    const record = value as Record<string, unknown>;
    // A frozen object (a test's fixture) cannot take even an equal value.
    if (Object.isFrozen(record)) return record;
    for (const key of Object.keys(record)) record[key] = walk(record[key]);
    return record;
  };
  return { intern: <T>(value: T): T => walk(value) as T, size: () => table.size };
}
