// Controller expectations, as client-go's ControllerExpectations and KubeRay's ScaleExpectations: a controller
// records each create and delete it has just sent, under its owner's key; informer events observe them. While an
// owner has unmet expectations its cache does not yet show its own writes, and acting on that cache would create
// or delete a second time. An expectation not observed within its TTL expires (the object may never show up: it
// was deleted meanwhile, or a relist skipped it).
//
// Expectations are kept per object (kind/namespace/name), not as client-go's counts: our controllers know the
// names they wrote, and a sighting of one object must not satisfy the expectation of another.
import { systemClock, type Clock } from '../clock.ts';
import type { KubeObject } from '../client/types.ts';
import type { Informer } from '../informer/informer.ts';

export interface ExpectedObject {
  kind: string;
  namespace: string;
  name: string;
}

export type ExpectedAction = 'create' | 'delete';

export interface Expectation extends ExpectedObject {
  /** The owner's key (e.g. the RayCluster's namespace/name). */
  owner: string;
  action: ExpectedAction;
  /** A part of the owner the expectation holds back (KubeRay: a worker group; "" for the head). */
  group: string;
  /** When it was recorded, on the expectations' clock (ms). */
  at: number;
}

export interface ExpectationsOptions {
  clock?: Pick<Clock, 'now'>;
  /** How long a create waits to be observed. Default 5 min (client-go's ExpectationsTimeout). */
  createTtlMs?: number;
  /** How long a delete waits to be observed. Default 5 min; Infinity waits for the cache (KubeRay's deletes). */
  deleteTtlMs?: number;
}

export interface Expectations {
  /** We created `obj` for `owner`: until observed (or expired), the owner's cache lags. */
  expectCreate(owner: string, obj: ExpectedObject, group?: string): void;
  /** We deleted `obj` for `owner`: until its delete is observed (or expired), the owner's cache lags. */
  expectDelete(owner: string, obj: ExpectedObject, group?: string): void;
  /** The cache shows `obj`: its create is no longer pending (an informer add/update, or a controller's own read). */
  observeCreated(obj: ExpectedObject): void;
  /** The cache no longer shows `obj`: its delete (and any create before it) is no longer pending. */
  observeDeleted(obj: ExpectedObject): void;
  /** Observes `kind` from the informer's events; an expectation recorded after its event is met by the cache at once. */
  watch<T extends KubeObject>(kind: string, informer: Informer<T>): void;
  /** The owner's expectations still pending (expired ones are dropped). */
  pending(owner: string): Expectation[];
  /** Whether `obj` has a pending expectation (of `action`, if given). */
  isPending(obj: ExpectedObject, action?: ExpectedAction): boolean;
  /** No pending expectation for `owner`. */
  satisfied(owner: string): boolean;
  /** Drops the owner's expectations (the owner is gone, or all its objects are being replaced). */
  forget(owner: string): void;
  /** Drops the expectation on one object (we are about to delete it ourselves, so its create no longer matters). */
  forgetObject(obj: ExpectedObject): void;
}

const objectId = (o: ExpectedObject): string => `${o.kind}/${o.namespace}/${o.name}`;

export function createExpectations(options: ExpectationsOptions = {}): Expectations {
  const clock = options.clock ?? systemClock;
  const ttl = { create: options.createTtlMs ?? 300_000, delete: options.deleteTtlMs ?? 300_000 };
  const byObject = new Map<string, Expectation>();
  const byOwner = new Map<string, Set<string>>();
  /** Per kind, whether the watched caches show an object (an event that came before its expectation). */
  const inCache = new Map<string, Array<(o: ExpectedObject) => boolean>>();

  const drop = (id: string): void => {
    const e = byObject.get(id);
    if (!e) return;
    byObject.delete(id);
    const ids = byOwner.get(e.owner);
    ids?.delete(id);
    if (ids?.size === 0) byOwner.delete(e.owner);
  };
  const live = (e: Expectation): boolean => clock.now() - e.at <= ttl[e.action];
  const alreadyMet = (action: ExpectedAction, obj: ExpectedObject): boolean => {
    const lookups = inCache.get(obj.kind);
    if (!lookups) return false;
    const shown = lookups.some((has) => has(obj));
    return action === 'create' ? shown : !shown;
  };
  const expect = (action: ExpectedAction, owner: string, obj: ExpectedObject, group = ''): void => {
    const id = objectId(obj);
    drop(id);
    if (alreadyMet(action, obj)) return;
    byObject.set(id, { kind: obj.kind, namespace: obj.namespace, name: obj.name, owner, action, group, at: clock.now() });
    let ids = byOwner.get(owner);
    if (!ids) byOwner.set(owner, (ids = new Set()));
    ids.add(id);
  };
  const observeCreated = (obj: ExpectedObject): void => {
    const id = objectId(obj);
    if (byObject.get(id)?.action === 'create') drop(id);
  };
  const observeDeleted = (obj: ExpectedObject): void => drop(objectId(obj));
  const pending = (owner: string): Expectation[] => {
    const out: Expectation[] = [];
    for (const id of [...(byOwner.get(owner) ?? [])]) {
      const e = byObject.get(id);
      if (e && live(e)) out.push(e);
      else drop(id);
    }
    return out;
  };

  return {
    expectCreate: (owner, obj, group) => expect('create', owner, obj, group),
    expectDelete: (owner, obj, group) => expect('delete', owner, obj, group),
    observeCreated,
    observeDeleted,
    watch: (kind, informer) => {
      const ref = (o: KubeObject): ExpectedObject => ({ kind, namespace: o.metadata.namespace ?? '', name: o.metadata.name ?? '' });
      informer.addHandlers({
        add: (o) => observeCreated(ref(o)),
        update: (_old, o) => observeCreated(ref(o)),
        delete: (o) => observeDeleted(ref(o)),
      });
      const lookups = inCache.get(kind) ?? [];
      lookups.push((o) => informer.cache.getByName(o.namespace, o.name) !== undefined);
      inCache.set(kind, lookups);
    },
    pending,
    isPending: (obj, action) => {
      const e = byObject.get(objectId(obj));
      if (!e || (action !== undefined && e.action !== action)) return false;
      if (live(e)) return true;
      drop(objectId(obj));
      return false;
    },
    satisfied: (owner) => pending(owner).length === 0,
    forget: (owner) => {
      for (const id of [...(byOwner.get(owner) ?? [])]) drop(id);
    },
    forgetObject: (obj) => drop(objectId(obj)),
  };
}
