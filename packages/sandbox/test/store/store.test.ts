// The object store: global resourceVersion, compare-and-swap, bounded history, per-bucket fan-out.
import { describe, expect, it } from 'vitest';
import { parseFieldSelector, parseLabelSelector } from '../../src/store/selectors.ts';
import { createStore } from '../../src/store/store.ts';
import type { KubeObject } from '../../src/store/types.ts';

const obj = (name: string, labels: Record<string, string> = {}): KubeObject => ({ metadata: { name, namespace: 'ns', labels } });

describe('store', () => {
  it('hands out one increasing resourceVersion across buckets', () => {
    const s = createStore();
    const a = s.create('a', obj('x'));
    const b = s.create('b', obj('x'));
    expect(a.ok && b.ok && Number(b.value.metadata.resourceVersion) - Number(a.value.metadata.resourceVersion)).toBe(1);
  });

  it.each([
    ['matching resourceVersion', true],
    ['stale resourceVersion', false],
  ])('update with %s', (_what, fresh) => {
    const s = createStore();
    const created = s.create('a', obj('x'));
    if (!created.ok) throw new Error('create failed');
    s.update('a', { ...created.value, data: 1 });
    const expected = fresh ? String(s.currentRv()) : created.value.metadata.resourceVersion;
    expect(s.update('a', { ...created.value, data: 2 }, expected).ok).toBe(fresh);
  });

  it('keeps a bounded history and reports when a resourceVersion is too old', () => {
    const s = createStore({ historySize: 3 });
    const start = s.currentRv();
    for (let i = 0; i < 5; i++) s.create('a', obj(`o${i}`));
    expect(s.eventsSince('a', start)).toBeUndefined();
    expect(s.eventsSince('a', s.currentRv() - 2)?.map((e) => e.object.metadata.name)).toEqual(['o3', 'o4']);
  });

  it('delivers events only to listeners of that bucket', () => {
    const s = createStore();
    const seen: string[] = [];
    s.subscribe((e) => seen.push(`a:${e.object.metadata.name}`), 'a');
    s.subscribe((e) => seen.push(`*:${e.object.metadata.name}`));
    s.create('a', obj('x'));
    s.create('b', obj('y'));
    expect(seen).toEqual(['*:x', 'a:x', '*:y']);
  });
});

describe('selectors', () => {
  it.each([
    ['a=1,b!=2', { a: '1', b: '3' }, true],
    ['a in (1,2),c', { a: '2', c: '' }, true],
    ['a notin (1)', {}, true],
    ['!a', { a: '1' }, false],
  ])('label selector %s on %j -> %s', (sel, labels, expected) => {
    const p = parseLabelSelector(sel);
    expect(p.ok && p.match(obj('x', labels))).toBe(expected);
  });

  it('rejects a malformed label selector with a message', () => {
    const p = parseLabelSelector('a b c');
    expect(p.ok).toBe(false);
  });

  it.each([
    ['metadata.name=x', true],
    ['metadata.name!=x', false],
    ['metadata.namespace==ns,metadata.name=x', true],
  ])('field selector %s -> %s', (sel, expected) => {
    const p = parseFieldSelector(sel);
    expect(p.ok && p.match(obj('x'))).toBe(expected);
  });
});
