// A full list in pages of `limit`, following continue tokens. The resourceVersion of the first page is the
// snapshot every page belongs to, so the watch resumes from it.
import type { KubeResult } from '../client/errors.ts';
import type { ResourceType } from '../client/resources.ts';
import type { KubeClient } from '../client/rest-client.ts';
import type { KubeObject } from '../client/types.ts';

export interface ListAllOptions<T extends KubeObject = KubeObject> {
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  pageSize: number;
  signal?: AbortSignal;
  /** Applied to each item as its page arrives (the informer's cache transform). */
  transform?: ((item: T) => T) | undefined;
}

export async function listAll<T extends KubeObject>(client: KubeClient, type: ResourceType, o: ListAllOptions<T>): Promise<KubeResult<{ items: T[]; resourceVersion: string; pages: number }>> {
  const items: T[] = [];
  let token: string | undefined;
  let resourceVersion = '';
  let pages = 0;
  do {
    const page = await client.list<T>(type, {
      ...(o.namespace !== undefined && { namespace: o.namespace }),
      ...(o.labelSelector !== undefined && { labelSelector: o.labelSelector }),
      ...(o.fieldSelector !== undefined && { fieldSelector: o.fieldSelector }),
      limit: o.pageSize,
      ...(token !== undefined && { continue: token }),
    });
    if (!page.ok) return page;
    pages++;
    // list items carry no kind/apiVersion; handlers and caches want them like watch objects have.
    const kind = page.value.kind?.replace(/List$/, '');
    for (const item of page.value.items) {
      const typed = { ...item, apiVersion: item.apiVersion ?? page.value.apiVersion, kind: item.kind ?? kind } as T;
      items.push(o.transform ? o.transform(typed) : typed);
    }
    if (pages === 1) resourceVersion = page.value.metadata.resourceVersion ?? '';
    token = page.value.metadata.continue || undefined;
  } while (token !== undefined && !o.signal?.aborted);
  return { ok: true, value: { items, resourceVersion, pages } };
}
