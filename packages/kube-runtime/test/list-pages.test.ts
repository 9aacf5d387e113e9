import { describe, expect, it } from 'vitest';
import type { KubeClient, ListOptions } from '../src/client/rest-client.ts';
import { resources } from '../src/client/resources.ts';
import type { KubeObject } from '../src/client/types.ts';
import { listAll } from '../src/informer/list-pages.ts';

// Three pods over two pages of 2; the first page's resourceVersion is the snapshot the watch resumes from.
const pages: Array<{ items: KubeObject[]; resourceVersion: string; continue?: string }> = [
  { items: [{ metadata: { name: 'a' } }, { metadata: { name: 'b' } }], resourceVersion: '10', continue: 'next' },
  { items: [{ metadata: { name: 'c' } }], resourceVersion: '11' },
];

/** A client that answers `pages` by continue token, handing items out one by one through onItem or not at all. */
function pagedClient(honoursOnItem: boolean, seen: ListOptions[]): KubeClient {
  const list = async (_type: unknown, options: ListOptions = {}) => {
    seen.push(options);
    const page = pages[options.continue === 'next' ? 1 : 0]!;
    const items = page.items.map((i) => structuredClone(i));
    if (honoursOnItem && options.onItem) for (const item of items) options.onItem(item);
    const metadata = { resourceVersion: page.resourceVersion, ...(page.continue !== undefined && { continue: page.continue }) };
    return { ok: true, value: { metadata, items: honoursOnItem && options.onItem ? [] : items } };
  };
  return { list } as unknown as KubeClient;
}

describe('listAll: a full list in pages', () => {
  it.each([
    ['a client that hands out items one by one (the REST client)', true],
    ['a client that answers each page\'s items instead (onItem is optional to honour)', false],
  ])('%s: every item typed and transformed, pages followed, the first page\'s resourceVersion', async (_name, honoursOnItem) => {
    const seen: ListOptions[] = [];
    const result = await listAll(pagedClient(honoursOnItem, seen), resources.pods, {
      pageSize: 2,
      labelSelector: 'ray.io/cluster',
      transform: (pod) => ({ ...pod, metadata: { ...pod.metadata, labels: { trimmed: 'yes' } } }),
    });
    expect(result.ok && result.value).toEqual({
      items: ['a', 'b', 'c'].map((name) => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { trimmed: 'yes' } } })),
      resourceVersion: '10',
      pages: 2,
    });
    expect(seen.map((o) => [o.limit, o.continue, o.labelSelector])).toEqual([[2, undefined, 'ray.io/cluster'], [2, 'next', 'ray.io/cluster']]);
  });
});
