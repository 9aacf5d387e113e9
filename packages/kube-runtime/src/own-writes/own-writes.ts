// Read-your-own-writes over an informer cache. A controller that has just written an object (its status, a
// finalizer) is often reconciled again before the watch brings that write back: an event of an owned object, a
// requeue. Deciding from the cached copy then decides from a state older than its own last write, and writes
// again from a resourceVersion the server has moved past: a 409, a 2 s requeue, and the same write once more.
// This remembers, per object, the copy the controller's last write returned and the resourceVersions its writes
// replaced; a read through it gets the freshest of {the cache, the own last write} (client-go's expectations for
// an object's own writes). An object's memory goes as soon as the cache shows a version none of the writes
// replaced (the watch caught up, or someone else wrote since), or the object is deleted; and at most `maxObjects`
// objects are remembered at once (forgetting one early only costs a read of the cache as it is: a 409 at worst).
import { stripManagedFields } from '../cache/indexed-cache.ts';
import { objectKey, type KubeObject } from '../client/types.ts';
import type { Informer } from '../informer/informer.ts';

export interface OwnWritesOptions {
  /** Most objects remembered at once; the least recently written is forgotten first. Default 1,000. */
  maxObjects?: number;
  /** Most replaced resourceVersions kept per object (writes the watch has not shown yet); oldest forgotten first. Default 16. */
  maxVersionsPerObject?: number;
}

export interface OwnWrites<T extends KubeObject> {
  /**
   * The copy to decide from: the object as the own last write returned it while `cached` is a version one of the
   * own writes replaced; otherwise `cached` (and the object's memory is dropped: the cache caught up).
   */
  freshest(cached: T): T;
  /**
   * A write succeeded: `sent` is the copy it was made from (read through `freshest`, so its resourceVersion is
   * one the cache may still hold), `returned` the server's answer. Nothing is remembered when a watched cache
   * already shows a newer version (the watch beat the response).
   */
  wrote(sent: T, returned: T): void;
  /** Drops the memory of one object (by namespace/name key): it is gone. */
  forget(key: string): void;
  /** Drops memory as the informer's events show the cache catching up or the object deleted. */
  watch(informer: Informer<T>): void;
  /** Objects remembered now. */
  size(): number;
}

interface Remembered<T> {
  /** resourceVersions the own writes moved past, oldest first. */
  replaced: Set<string>;
  /** The own last write's answer, as a cache holds it (without managedFields: a PUT carrying them replaces them). */
  object: T;
}

/** Whether a write's answer is the object's last state: being deleted, no finalizer left to hold it. */
const removedBy = (returned: KubeObject): boolean => Boolean(returned.metadata.deletionTimestamp) && (returned.metadata.finalizers ?? []).length === 0;

export function createOwnWrites<T extends KubeObject>(options: OwnWritesOptions = {}): OwnWrites<T> {
  const maxObjects = options.maxObjects ?? 1_000;
  const maxVersions = options.maxVersionsPerObject ?? 16;
  const byKey = new Map<string, Remembered<T>>();
  const caches: Array<(key: string) => T | undefined> = [];

  /** Whether `obj` is a version none of the own writes replaced: the cache holding it is not behind them. */
  const caughtUp = (entry: Remembered<T>, obj: T): boolean => !entry.replaced.has(obj.metadata.resourceVersion ?? '');
  const dropIfCaughtUp = (obj: T): void => {
    const key = objectKey(obj);
    const entry = byKey.get(key);
    if (entry && caughtUp(entry, obj)) byKey.delete(key);
  };

  return {
    freshest: (cached) => {
      const key = objectKey(cached);
      const entry = byKey.get(key);
      if (!entry) return cached;
      if (!caughtUp(entry, cached)) return entry.object;
      byKey.delete(key);
      return cached;
    },
    wrote: (sent, returned) => {
      const before = sent.metadata.resourceVersion;
      const after = returned.metadata.resourceVersion;
      // A write that removed an object (its last finalizer gone while it was being deleted) is answered at the
      // version it replaced (kube-apiserver 1.32): remembered all the same, so a pass before the watch's delete
      // does not read the removed finalizer back from the cache and write again (404).
      if (!before || !after || (before === after && !removedBy(returned))) return;
      const key = objectKey(returned);
      const replaced = new Set(byKey.get(key)?.replaced);
      replaced.add(before);
      if (after !== before) replaced.delete(after);
      for (const rv of replaced) {
        if (replaced.size <= maxVersions) break;
        replaced.delete(rv);
      }
      const entry = { replaced, object: stripManagedFields(returned) };
      byKey.delete(key); // re-inserted last: the Map's order is the order of the writes, oldest first
      if (caches.some((get) => {
        const shown = get(key);
        return shown !== undefined && caughtUp(entry, shown);
      })) return;
      byKey.set(key, entry);
      for (const oldest of byKey.keys()) {
        if (byKey.size <= maxObjects) break;
        byKey.delete(oldest);
      }
    },
    forget: (key) => void byKey.delete(key),
    watch: (informer) => {
      informer.addHandlers({
        add: dropIfCaughtUp,
        update: (_old, obj) => dropIfCaughtUp(obj),
        delete: (obj) => void byKey.delete(objectKey(obj)),
      });
      caches.push((key) => informer.cache.get(key));
    },
    size: () => byKey.size,
  };
}
