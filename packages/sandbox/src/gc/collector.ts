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

const get = (ctx: ApiContext, ref: ObjectRef): KubeObject | undefined => ctx.store.get(ref.bucket, ref.namespace, ref.name);
const typeOf = (ctx: ApiContext, bucket: string) => ctx.registry.byBucket(bucket) ?? ctx.registry.all().find((t) => t.bucket === bucket);
const refOf = (bucket: string, obj: KubeObject): ObjectRef => ({ bucket, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' });

function ownerState(ctx: ApiContext, uid: string): 'absent' | 'solid' | 'waiting' {
  const ref = ctx.owners.byUid(uid);
  const owner = ref && get(ctx, ref);
  if (!owner || owner.metadata.uid !== uid) return 'absent';
  return owner.metadata.deletionTimestamp && owner.metadata.finalizers?.includes('foregroundDeletion') ? 'waiting' : 'solid';
}

function remove(ctx: ApiContext, ref: ObjectRef, policy: Propagation): void {
  const rt = typeOf(ctx, ref.bucket);
  if (!rt) return;
  try {
    deleteObject(ctx, rt, ref.namespace, ref.name, { propagationPolicy: policy });
  } catch {
    // Already gone or changed under us: the next event re-queues if needed.
  }
}

function rewrite(ctx: ApiContext, ref: ObjectRef, change: (obj: KubeObject) => void): void {
  const rt = typeOf(ctx, ref.bucket);
  const current = get(ctx, ref);
  if (!rt || !current) return;
  const next = structuredClone(rt.fromStorage ? rt.fromStorage(current) : current);
  change(next);
  try {
    replaceObject(ctx, rt, ref.namespace, ref.name, next, { internal: true });
  } catch {
    // Conflict or gone: a later event re-queues.
  }
}

const dropFinalizer = (ctx: ApiContext, ref: ObjectRef, finalizer: string): void =>
  rewrite(ctx, ref, (o) => {
    o.metadata.finalizers = (o.metadata.finalizers ?? []).filter((f) => f !== finalizer);
  });

/** A dependent whose owners are all gone (or waiting) is deleted; references to absent owners are dropped. */
function processDependent(ctx: ApiContext, ref: ObjectRef): void {
  const obj = get(ctx, ref);
  const owners = obj?.metadata.ownerReferences ?? [];
  if (!obj || owners.length === 0) return;
  const states = owners.map((o) => ({ o, state: ownerState(ctx, o.uid) }));
  const solid = states.filter((s) => s.state === 'solid');
  const waiting = states.filter((s) => s.state === 'waiting');
  if (solid.length === 0) {
    if (obj.metadata.deletionTimestamp) return;
    remove(ctx, ref, waiting.length > 0 ? 'Foreground' : 'Background');
  } else if (solid.length < owners.length && states.some((s) => s.state === 'absent')) {
    const dangling = new Set(states.filter((s) => s.state === 'absent').map((s) => s.o.uid));
    rewrite(ctx, ref, (o) => {
      o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).filter((r) => !dangling.has(r.uid));
    });
  }
}

/** An owner being deleted with the orphan or foregroundDeletion finalizer: orphan or delete its dependents first. */
function processOwner(ctx: ApiContext, ref: ObjectRef): void {
  const owner = get(ctx, ref);
  if (!owner?.metadata.deletionTimestamp) return;
  const uid = owner.metadata.uid ?? '';
  const finalizers = owner.metadata.finalizers ?? [];
  const dependents = ctx.owners.dependentsOf(uid);
  if (finalizers.includes('orphan')) {
    for (const d of dependents) {
      rewrite(ctx, d, (o) => {
        o.metadata.ownerReferences = (o.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid);
        if (o.metadata.ownerReferences.length === 0) delete o.metadata.ownerReferences;
      });
    }
    dropFinalizer(ctx, ref, 'orphan');
    return;
  }
  if (finalizers.includes('foregroundDeletion')) {
    const blocking = dependents.filter((d) => {
      const obj = get(ctx, d);
      return obj?.metadata.ownerReferences?.some((r) => r.uid === uid && r.blockOwnerDeletion === true);
    });
    for (const d of dependents) if (!get(ctx, d)?.metadata.deletionTimestamp) processDependent(ctx, d);
    if (blocking.length === 0) dropFinalizer(ctx, ref, 'foregroundDeletion');
  }
}

/** The GC work a store event makes. */
function tasksOf(ctx: ApiContext, event: StoreEvent): Task[] {
  const obj = event.object;
  const ref = refOf(event.bucket, obj);
  const tasks: Task[] = [];
  if (event.type === 'DELETED') {
    for (const d of ctx.owners.dependentsOf(obj.metadata.uid ?? '')) tasks.push({ kind: 'dependent', ref: d });
    // A dependent going away may unblock an owner waiting in foreground deletion.
    for (const o of obj.metadata.ownerReferences ?? []) {
      const ownerRef = ctx.owners.byUid(o.uid);
      if (ownerRef) tasks.push({ kind: 'owner', ref: ownerRef });
    }
    return tasks;
  }
  if (obj.metadata.deletionTimestamp && obj.metadata.finalizers?.some((f) => f === 'orphan' || f === 'foregroundDeletion')) {
    tasks.push({ kind: 'owner', ref });
  }
  if (event.type === 'ADDED' && obj.metadata.ownerReferences?.length) tasks.push({ kind: 'dependent', ref });
  return tasks;
}

export function startGarbageCollector(ctx: ApiContext): GarbageCollector {
  const queue = new Map<string, Task>();
  let scheduled = false;
  let stopped = false;
  let waiters: Array<() => void> = [];

  const enqueue = (t: Task): void => {
    queue.set(taskKey(t), t);
    if (!scheduled && !stopped) {
      scheduled = true;
      setImmediate(drain);
    }
  };

  function drain(): void {
    scheduled = false;
    let rounds = 0;
    while (queue.size > 0 && !stopped && rounds++ < 10_000) {
      const [key, task] = queue.entries().next().value as [string, Task];
      queue.delete(key);
      if (task.kind === 'dependent') processDependent(ctx, task.ref);
      else processOwner(ctx, task.ref);
    }
    if (queue.size === 0) {
      const w = waiters;
      waiters = [];
      for (const f of w) f();
    }
  }

  const unsubscribe = ctx.store.subscribe((event) => {
    for (const t of tasksOf(ctx, event)) enqueue(t);
  });

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
