// Index from an owner's uid to the objects that name it in ownerReferences, and from uid to object,
// kept current from store events; the garbage collector and DELETE use it instead of scanning.
import type { Store } from './store.ts';
import type { KubeObject } from './types.ts';

export interface ObjectRef {
  bucket: string;
  namespace: string;
  name: string;
}

export interface OwnerIndex {
  dependentsOf(uid: string): ObjectRef[];
  byUid(uid: string): ObjectRef | undefined;
  stop(): void;
}

const refKey = (r: ObjectRef): string => `${r.bucket}|${r.namespace}|${r.name}`;

export function createOwnerIndex(store: Store): OwnerIndex {
  const dependents = new Map<string, Map<string, ObjectRef>>();
  const uids = new Map<string, ObjectRef>();
  const refOf = (bucket: string, obj: KubeObject): ObjectRef => ({ bucket, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '' });
  const unindex = (bucket: string, obj: KubeObject): void => {
    const ref = refOf(bucket, obj);
    for (const o of obj.metadata.ownerReferences ?? []) {
      const m = dependents.get(o.uid);
      m?.delete(refKey(ref));
      if (m && m.size === 0) dependents.delete(o.uid);
    }
  };
  const index = (bucket: string, obj: KubeObject): void => {
    const ref = refOf(bucket, obj);
    for (const o of obj.metadata.ownerReferences ?? []) {
      let m = dependents.get(o.uid);
      if (!m) {
        m = new Map();
        dependents.set(o.uid, m);
      }
      m.set(refKey(ref), ref);
    }
  };
  const unsubscribe = store.subscribe((event) => {
    const uid = event.object.metadata.uid ?? '';
    if (event.old) unindex(event.bucket, event.old);
    if (event.type === 'DELETED') {
      unindex(event.bucket, event.object);
      uids.delete(uid);
    } else {
      index(event.bucket, event.object);
      uids.set(uid, refOf(event.bucket, event.object));
    }
  });
  return {
    dependentsOf: (uid) => [...(dependents.get(uid)?.values() ?? [])],
    byUid: (uid) => uids.get(uid),
    stop: unsubscribe,
  };
}
