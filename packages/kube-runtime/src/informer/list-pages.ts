// A full list in pages of `limit`, following continue tokens. The resourceVersion of the first page is the
// snapshot every page belongs to, so the watch resumes from it.
import type { KubeResult } from '../client/errors.ts';
import { apiVersionOf, type ResourceType } from '../client/resources.ts';
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
  // List items carry no kind/apiVersion; handlers and caches want them as watch objects have them. Each item is
  // transformed as soon as it is parsed (list-items.ts), so the page's untrimmed objects die young.
  const apiVersion = apiVersionOf(type);
  const onItem = (item: KubeObject): void => {
    const typed = item as T;
    typed.apiVersion ??= apiVersion;
    typed.kind ??= type.kind;
    items.push(o.transform ? o.transform(typed) : typed);
  };
  do {
    const before = items.length;
    const page = await client.list<T>(type, {
      ...(o.namespace !== undefined && { namespace: o.namespace }),
      ...(o.labelSelector !== undefined && { labelSelector: o.labelSelector }),
      ...(o.fieldSelector !== undefined && { fieldSelector: o.fieldSelector }),
      limit: o.pageSize,
      ...(token !== undefined && { continue: token }),
      onItem,
    });
    if (!page.ok) return page;
    pages++;
    // ListOptions.onItem is optional to honour: a KubeClient that answers the page's items instead (a wrapper or a
    // test double that does not read items one by one) still lists in full (list-pages.test).
    if (items.length === before) for (const item of page.value.items ?? []) onItem(item);
    if (pages === 1) resourceVersion = page.value.metadata.resourceVersion ?? '';
    token = page.value.metadata.continue || undefined;
  } while (token !== undefined && !o.signal?.aborted);
  return { ok: true, value: { items, resourceVersion, pages } };
}
