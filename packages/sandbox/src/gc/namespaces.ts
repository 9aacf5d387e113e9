// Namespace lifecycle: a deleted namespace turns Terminating, its contents are deleted (background),
// and the namespace itself is removed once nothing is left in it.
import type { ApiContext } from '../apiserver/storage/context.ts';
import { deleteObject, replaceObject } from '../apiserver/storage/objects.ts';
import type { StoreEvent } from '../store/types.ts';

const nsBucket = '/namespaces';

export function startNamespaceController(ctx: ApiContext): { stop(): void } {
  const pending = new Set<string>();
  let scheduled = false;
  let stopped = false;

  const namespacedBuckets = (): string[] => [...new Set(ctx.registry.all().filter((t) => t.namespaced).map((t) => t.bucket))];

  const sweep = (name: string): void => {
    const ns = ctx.store.get(nsBucket, '', name);
    if (!ns?.metadata.deletionTimestamp) return;
    const nsType = ctx.registry.lookup('', 'v1', 'namespaces');
    if (!nsType) return;
    if ((ns.status as { phase?: string } | undefined)?.phase !== 'Terminating') {
      try {
        replaceObject(ctx, nsType, '', name, { ...ns, status: { phase: 'Terminating' } }, { subresource: 'status', internal: true });
      } catch {
        /* retried on the next event */
      }
    }
    let remaining = 0;
    for (const bucket of namespacedBuckets()) {
      const rt = ctx.registry.byBucket(bucket) ?? ctx.registry.all().find((t) => t.bucket === bucket);
      if (!rt) continue;
      for (const obj of ctx.store.list(bucket, name)) {
        remaining++;
        if (obj.metadata.deletionTimestamp) continue;
        try {
          deleteObject(ctx, rt, name, obj.metadata.name ?? '', { propagationPolicy: 'Background' });
        } catch {
          /* gone already */
        }
      }
    }
    if (remaining === 0 || namespacedBuckets().every((b) => ctx.store.list(b, name).length === 0)) {
      if ((ns.metadata.finalizers ?? []).length === 0) ctx.store.remove(nsBucket, '', name);
    }
  };

  const schedule = (name: string): void => {
    pending.add(name);
    if (scheduled || stopped) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const names = [...pending];
      pending.clear();
      for (const n of names) sweep(n);
    });
  };

  const unsubscribe = ctx.store.subscribe((event: StoreEvent) => {
    if (event.bucket === nsBucket) {
      if (event.type !== 'DELETED' && event.object.metadata.deletionTimestamp) schedule(event.object.metadata.name ?? '');
      return;
    }
    const ns = event.object.metadata.namespace;
    if (event.type === 'DELETED' && ns && ctx.store.get(nsBucket, '', ns)?.metadata.deletionTimestamp) schedule(ns);
  });
  return {
    stop: () => {
      stopped = true;
      unsubscribe();
    },
  };
}
