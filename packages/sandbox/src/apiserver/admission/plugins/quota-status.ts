// The resource quota controller's part the sandbox needs: each ResourceQuota's status carries `hard` (its spec)
// and `used` (what its namespace consumes now), recomputed whenever an object in a namespace with quotas changes,
// so `kubectl describe quota` and clients reading status.used see what admission enforces.
import type { StoreEvent } from '../../../store/types.ts';
import type { ApiContext } from '../../storage/context.ts';
import { replaceObject } from '../../storage/objects.ts';
import { deepEqual } from '../../registry/object-meta.ts';
import { hardOf, listJson } from './quota-usage.ts';
import { quotaUsed } from './resource-quota.ts';

const quotaBucket = '/resourcequotas';

export function startQuotaStatusController(ctx: ApiContext): { stop(): void } {
  const dirty = new Set<string>();
  let scheduled: NodeJS.Immediate | undefined;
  let stopped = false;

  const refresh = (namespace: string): void => {
    const rt = ctx.registry.lookup('', 'v1', 'resourcequotas');
    if (!rt) return;
    for (const quota of ctx.store.list(quotaBucket, namespace)) {
      const status = { hard: listJson(hardOf(quota)), used: listJson(quotaUsed(ctx, quota)) };
      if (deepEqual(quota.status, status)) continue;
      try {
        replaceObject(ctx, rt, namespace, quota.metadata.name ?? '', { ...quota, status }, { subresource: 'status', internal: true });
      } catch {
        /* changed meanwhile: the write that changed it schedules another pass */
      }
    }
  };

  const flush = (): void => {
    scheduled = undefined;
    if (stopped) return;
    const namespaces = [...dirty];
    dirty.clear();
    for (const ns of namespaces) refresh(ns);
  };

  const unsubscribe = ctx.store.subscribe((event: StoreEvent) => {
    const ns = event.object.metadata.namespace;
    if (ns === undefined || ns === '') return;
    // The controller's own status writes change nothing further.
    if (event.bucket === quotaBucket && event.type === 'MODIFIED' && deepEqual(event.object.spec, event.old?.spec)) return;
    if (ctx.store.list(quotaBucket, ns).length === 0) return;
    dirty.add(ns);
    scheduled ??= setImmediate(flush);
  });

  return {
    stop: () => {
      stopped = true;
      unsubscribe();
      if (scheduled) clearImmediate(scheduled);
    },
  };
}
