import { describe, expect, it } from 'vitest';
import { parseListItems } from '../src/client/list-items.ts';

/** What a list read item by item gives: the items in order, and the rest of the answer. */
function readItemByItem(text: string): { items: unknown[]; rest: Record<string, unknown> } {
  const items: unknown[] = [];
  const rest = parseListItems(text, (item) => items.push(item));
  return { items, rest };
}

const tricky = { metadata: { name: 'a', annotations: { note: 'braces } ] { [ , : and "quotes" and \\ backslash \\" and \u2603 and \n' } }, data: { '}': '{', 'x\\': '\\' } };

describe('a List answer read item by item', () => {
  it.each([
    ['an API server list', { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '42', continue: 'abc' }, items: [{ metadata: { name: 'p1' } }, { metadata: { name: 'p2' } }] }],
    ['strings holding braces, brackets, commas, escaped quotes and backslashes', { kind: 'ConfigMapList', metadata: {}, items: [tricky, { ...tricky, extra: ['\\', '"', 1, true, null, -1.5e3] }] }],
    ['items before the metadata', { items: [{ a: 1 }], metadata: { resourceVersion: '7' }, kind: 'JobList' }],
    ['no items', { kind: 'JobList', metadata: { resourceVersion: '1' }, items: [] }],
    ['items null', { kind: 'JobList', metadata: { resourceVersion: '1' }, items: null }],
    ['items absent', { kind: 'JobList', metadata: { resourceVersion: '1' } }],
    ['items that are not objects', { items: [1, 'two', [3], null, false] }],
  ])('gives what JSON.parse gives: %s', (_name, list) => {
    for (const text of [JSON.stringify(list), JSON.stringify(list, null, 2)]) {
      const { items, rest } = readItemByItem(text);
      const whole = JSON.parse(text) as { items?: unknown[] | null };
      expect(items).toEqual(whole.items ?? []);
      expect(rest).toEqual({ ...whole, ...(Array.isArray(whole.items) && { items: [] }) });
    }
  });

  it('hands each item over before the next is read', () => {
    const seen: string[] = [];
    parseListItems(JSON.stringify({ items: [{ n: 1 }, { n: 2 }], metadata: {} }), (item) => seen.push(`item ${(item as { n: number }).n}`));
    expect(seen).toEqual(['item 1', 'item 2']);
  });

  it.each([
    ['a truncated item', '{"kind":"PodList","items":[{"metadata":{"name":"p1"}},{"metadata":'],
    ['an unterminated string', '{"kind":"PodList","items":[{"metadata":{"name":"p1}}]}'],
    ['a missing comma between items', '{"items":[{"a":1} {"a":2}]}'],
    ['garbage after the items', '{"items":[{"a":1}], nope}'],
    ['a bad item', '{"items":[{"a":01}]}'],
  ])('rejects malformed JSON as JSON.parse does: %s', (_name, text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(() => readItemByItem(text)).toThrow(SyntaxError);
  });
});
