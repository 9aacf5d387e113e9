// Garbage collector for ownerReferences, as kube-controller-manager's: background (dependents deleted
// after the owner is gone), foreground (owner waits, with the `foregroundDeletion` finalizer, until its
// blockOwnerDeletion dependents are gone) and orphan (dependents lose the ownerReference, then the owner
// goes). Dependents whose owners no longer exist are deleted. Works only through the API write paths.
import type { ApiContext } from '../apiserver/storage/context.ts';
import { deleteObject, replaceObject, type Propagation } from '../apiserver/storage/objects.ts';
import type { ObjectRef } from '../store/owner-index.ts';
import type { KubeObject, StoreEvent } from '../store/types.ts';

export interface GarbageCollector {
  /** Resolves when no GC work is queued (tests await this instead of sleeping). */
  idle(): Promise<void>;
  stop(): void;
}

type Task = { kind: 'dependent'; ref: ObjectRef } | { kind: 'owner'; ref: ObjectRef };

const taskKey = (t: Task): string => `${t.kind}|${t.ref.bucket}|${t.ref.namespace}|${t.ref.name}`;

// structure-exception(function-lines startGarbageCollector): over the limit before #21 set it; the split is left for a follow-up of #21
export function startGarbageCollector(ctx: ApiContext): GarbageCollector {
  const queue = new Map<string, Task>();
  let scheduled = false;
  let stopped = false;
  let waiters: Array<() => void> = [];

  const get = (ref: ObjectRef): KubeObject | undefined => ctx.store.get(ref.bucket, ref.namespace, ref.name);
  const typeOf = (bucket: string) => ctx.registry.byBucket(bucket) ?? ctx.registry.all().find((t) => t.bucket === bucket);
  const refOf = (bucket: string, obj: KubeObject): ObjectRef => ({ bucket, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' });

  const enqueue = (t: Task): void => {
    queue.set(taskKey(t), t);
    if (!scheduled && !stopped) {
      scheduled = true;
      setImmediate(drain);
    }
  };

  const ownerState = (uid: string): 'absent' | 'solid' | 'waiting' => {
    const ref = ctx.owners.byUid(uid);
    const owner = ref && get(ref);
    if (!owner || owner.metadata.uid !== uid) return 'absent';
    return owner.metadata.deletionTimestamp && owner.metadata.finalizers?.includes('foregroundDeletion') ? 'waiting' : 'solid';
  };

  const remove = (ref: ObjectRef, policy: Propagation): void => {
    const rt = typeOf(ref.bucket);
    if (!rt) return;
    try {
      deleteObject(ctx, rt, ref.namespace, ref.name, { propagationPolicy: policy });
    } catch {
      // Already gone or changed under us: the next event re-queues if needed.
    }
  };

  const rewrite = (ref: ObjectRef, change: (obj: KubeObject) => void): void => {
    const rt = typeOf(ref.bucket);
    const current = get(ref);
    if (!rt || !current) return;
    const next = structuredClone(rt.fromStorage ? rt.fromStorage(current) : current);
    change(next);
    try {
      replaceObject(ctx, rt, ref.namespace, ref.name, next, { internal: true });
    } catch {
      // Conflict or gone: a later event re-queues.
    }
  };

  const processDependent = (ref: ObjectRef): void => {
    const obj = get(ref);
    const owners = obj?.metadata.ownerReferences ?? [];
    if (!obj || owners.length === 0) return;
    const states = owners.map((o) => ({ o, state: ownerState(o.uid) }));
    const solid = states.filter((s) => s.state === 'solid');
    const waiting = states.filter((s) => s.state === 'waiting');
    if (solid.length === 0) {
      if (obj.metadata.deletionTimestamp) return;
      remove(ref, waiting.length > 0 ? 'Foreground' : 'Background');
    } else if (solid.length < owners.length && states.some((s) => s.state === 'absent')) {
      const dangling = new Set(states.filter((s) => s.state === 'absent').map((s) => s.o.uid));
      rewrite(ref, (o) => {
        o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).filter((r) => !dangling.has(r.uid));
      });
    }
  };

  const dropFinalizer = (ref: ObjectRef, finalizer: string): void =>
    rewrite(ref, (o) => {
      o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    });

  const processOwner = (ref: ObjectRef): void => {
    const owner = get(ref);
    if (!owner?.metadata.deletionTimestamp) return;
    const uid = owner.metadata.uid ?? '';
    const finalizers = owner.metadata.finalizers ?? [];
    const dependents = ctx.owners.dependentsOf(uid);
    if (finalizers.includes('orphan')) {
      for (const d of dependents) {
        rewrite(d, (o) => {
          o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
          if (o.metadata.ownerReferences.length === 0) delete o.metadata.ownerReferences;
        });
      }
      dropFinalizer(ref, 'orphan');
      return;
    }
    if (finalizers.includes('foregroundDeletion')) {
      const blocking = dependents.filter((d) => {
        const obj = get(d);
        return obj?.metadata.ownerReferences?.some((r) => r.uid === uid && r.blockOwnerDeletion === true);
      });
      for (const d of dependents) if (!get(d)?.metadata.deletionTimestamp) processDependent(d);
      if (blocking.length === 0) dropFinalizer(ref, 'foregroundDeletion');
    }
  };

  function drain(): void {
    scheduled = false;
    let rounds = 0;
    while (queue.size > 0 && !stopped && rounds++ < 10_000) {
      const [key, task] = queue.entries().next().value as [string, Task];
      queue.delete(key);
      if (task.kind === 'dependent') processDependent(task.ref);
      else processOwner(task.ref);
    }
    if (queue.size === 0) {
      const w = waiters;
      waiters = [];
      for (const f of w) f();
    }
  }

  const onEvent = (event: StoreEvent): void => {
    const obj = event.object;
    const ref = refOf(event.bucket, obj);
    if (event.type === 'DELETED') {
      for (const d of ctx.owners.dependentsOf(obj.metadata.uid ?? '')) enqueue({ kind: 'dependent', ref: d });
      // A dependent going away may unblock an owner waiting in foreground deletion.
      for (const o of obj.metadata.ownerReferences ?? []) {
        const ownerRef = ctx.owners.byUid(o.uid);
        if (ownerRef) enqueue({ kind: 'owner', ref: ownerRef });
      }
      return;
    }
    if (obj.metadata.deletionTimestamp && obj.metadata.finalizers?.some((f) => f === 'orphan' || f === 'foregroundDeletion')) {
      enqueue({ kind: 'owner', ref });
    }
    if (event.type === 'ADDED' && obj.metadata.ownerReferences?.length) enqueue({ kind: 'dependent', ref });
  };
  const unsubscribe = ctx.store.subscribe(onEvent);

  return {
    idle: () =>
      queue.size === 0 && !scheduled
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiters.push(resolve);
          }),
    stop: () => {
      stopped = true;
      unsubscribe();
      for (const f of waiters) f();
    },
  };
}
