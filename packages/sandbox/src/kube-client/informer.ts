// List-then-watch cache of one resource type. Relists when the watch ends or the server says the
// resourceVersion is too old (410), so the cache converges after API server hiccups.
import type { KubeClient, ResourceType } from './rest-client.ts';
import type { KubeObject, WatchEvent } from './types.ts';

export interface Informer<T extends KubeObject> {
  /** Resolves after the first successful list. */
  readonly synced: Promise<void>;
  get(namespace: string | undefined, name: string): T | undefined;
  list(): T[];
  stop(): void;
}

export type InformerHandler<T> = (event: { type: 'upsert' | 'delete'; object: T; previous: T | undefined }) => void;

export function objectKey(obj: KubeObject): string {
  return `${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
}

export function startInformer<T extends KubeObject>(
  client: KubeClient,
  type: ResourceType,
  onEvent: InformerHandler<T>,
  opts: { namespace?: string; labelSelector?: string; retryDelayMs?: number } = {},
): Informer<T> {
  const cache = new Map<string, T>();
  const abort = new AbortController();
  let markSynced: () => void = () => {};
  const synced = new Promise<void>((resolve) => { markSynced = resolve; });
  const retryDelayMs = opts.retryDelayMs ?? 200;

  const apply = (type: 'upsert' | 'delete', object: T): void => {
    const key = objectKey(object);
    const previous = cache.get(key);
    if (type === 'delete') cache.delete(key);
    else cache.set(key, object);
    onEvent({ type, object, previous });
  };

  const pause = (ms: number): Promise<void> => new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    abort.signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  });

  async function run(): Promise<void> {
    while (!abort.signal.aborted) {
      const listed = await client.list<T>(type, { namespace: opts.namespace, labelSelector: opts.labelSelector });
      if (abort.signal.aborted) return;
      if (!listed.ok) { await pause(retryDelayMs); continue; }
      const seen = new Set<string>();
      for (const item of listed.value.items) {
        seen.add(objectKey(item));
        const previous = cache.get(objectKey(item));
        if (previous?.metadata.resourceVersion !== item.metadata.resourceVersion) apply('upsert', item);
      }
      for (const [key, object] of [...cache]) if (!seen.has(key)) apply('delete', object);
      markSynced();
      let resourceVersion = listed.value.metadata.resourceVersion;
      let expired = false;
      await client.watch<T>(type, {
        namespace: opts.namespace,
        labelSelector: opts.labelSelector,
        resourceVersion,
        signal: abort.signal,
        onEvent: (event: WatchEvent<T>) => {
          if (event.type === 'ERROR') { expired = true; return; }
          if (event.object.metadata.resourceVersion !== undefined) resourceVersion = event.object.metadata.resourceVersion;
          if (event.type === 'BOOKMARK') return;
          apply(event.type === 'DELETED' ? 'delete' : 'upsert', event.object);
        },
      });
      if (!abort.signal.aborted && expired) continue;
      if (!abort.signal.aborted) await pause(retryDelayMs);
    }
  }

  void run();
  return {
    synced,
    get: (namespace, name) => cache.get(`${namespace ?? ''}/${name}`),
    list: () => [...cache.values()],
    stop: () => abort.abort(),
  };
}
