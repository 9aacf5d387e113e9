import { describe, expect, it } from 'vitest';
import { createIndexedCache, createOwnWrites, type EventHandlers, type Informer, type KubeObject } from '../src/index.ts';

const obj = (name: string, rv: string, more: Partial<KubeObject['metadata']> = {}): KubeObject => ({
  apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata: { namespace: 'ns', name, resourceVersion: rv, ...more },
});

/** An informer whose events the test drives: the cache changes first, then handlers run (as the real one). */
function fakeInformer() {
  const cache = createIndexedCache<KubeObject>();
  const handlers: Array<EventHandlers<KubeObject>> = [];
  const informer = { cache, addHandlers: (h: EventHandlers<KubeObject>) => void handlers.push(h) } as unknown as Informer<KubeObject>;
  return {
    informer,
    show: (o: KubeObject) => {
      const old = cache.upsert(o);
      const now = cache.getByName('ns', o.metadata.name ?? '')!;
      for (const h of handlers) {
        if (old) h.update?.(old, now);
        else h.add?.(now);
      }
    },
    remove: (name: string) => {
      const old = cache.remove(`ns/${name}`)!;
      for (const h of handlers) h.delete?.(old);
    },
  };
}

type Step =
  | ['cache', string, string] // the informer shows name at resourceVersion
  | ['write', string, string, string] // a write of name sent at one resourceVersion returned another
  | ['delete', string]
  | ['forget', string];

describe('own writes over a lagging cache', () => {
  // Object "a" unless a step names another. `reads`: the resourceVersion freshest() answers for a's cached copy.
  it.each<[string, Step[], { cached: string; reads: string; remembered: number }]>([
    ['the cache lags: the own write is read', [['cache', 'a', '1'], ['write', 'a', '1', '2']], { cached: '1', reads: '2', remembered: 1 }],
    ['the cache catches up: the memory is dropped', [['cache', 'a', '1'], ['write', 'a', '1', '2'], ['cache', 'a', '2']], { cached: '2', reads: '2', remembered: 0 }],
    ['someone else wrote after us: their copy is read, the memory dropped', [['cache', 'a', '1'], ['write', 'a', '1', '2'], ['cache', 'a', '3']], { cached: '3', reads: '3', remembered: 0 }],
    ['two writes before the watch: the last is read', [['cache', 'a', '1'], ['write', 'a', '1', '2'], ['write', 'a', '2', '3']], { cached: '1', reads: '3', remembered: 1 }],
    ['... also while the watch shows the one in between', [['cache', 'a', '1'], ['write', 'a', '1', '2'], ['write', 'a', '2', '3'], ['cache', 'a', '2']], { cached: '2', reads: '3', remembered: 1 }],
    ['the watch beat the response: nothing is remembered', [['cache', 'a', '1'], ['cache', 'a', '2'], ['write', 'a', '1', '2']], { cached: '2', reads: '2', remembered: 0 }],
    ['the object is deleted: the memory is dropped', [['cache', 'a', '1'], ['write', 'a', '1', '2'], ['delete', 'a']], { cached: '1', reads: '1', remembered: 0 }],
    ['forget (the controller found it gone) drops it', [['cache', 'a', '1'], ['write', 'a', '1', '2'], ['forget', 'a']], { cached: '1', reads: '1', remembered: 0 }],
    ['a write that changed nothing (same resourceVersion) is not remembered', [['cache', 'a', '1'], ['write', 'a', '1', '1']], { cached: '1', reads: '1', remembered: 0 }],
    ['another object\'s write is not read for this one', [['cache', 'a', '1'], ['cache', 'b', '1'], ['write', 'b', '1', '2']], { cached: '1', reads: '1', remembered: 1 }],
  ])('%s', (_label, steps, expected) => {
    const writes = createOwnWrites<KubeObject>();
    const informer = fakeInformer();
    writes.watch(informer.informer);
    for (const step of steps) {
      if (step[0] === 'cache') informer.show(obj(step[1], step[2]));
      else if (step[0] === 'write') writes.wrote(obj(step[1], step[2]), obj(step[1], step[3]));
      else if (step[0] === 'delete') informer.remove(step[1]);
      else writes.forget(`ns/${step[1]}`);
    }
    expect(writes.size()).toBe(expected.remembered);
    expect(writes.freshest(obj('a', expected.cached)).metadata.resourceVersion).toBe(expected.reads);
  });

  it('without a watch, the read that finds the cache caught up drops the memory', () => {
    const writes = createOwnWrites<KubeObject>();
    writes.wrote(obj('a', '1'), obj('a', '2'));
    expect(writes.freshest(obj('a', '1')).metadata.resourceVersion).toBe('2');
    expect(writes.size()).toBe(1);
    expect(writes.freshest(obj('a', '2')).metadata.resourceVersion).toBe('2');
    expect(writes.size()).toBe(0);
  });

  it('a new object of the same name is read from the cache (its resourceVersion is none the writes replaced)', () => {
    const writes = createOwnWrites<KubeObject>();
    writes.wrote(obj('a', '1', { uid: 'old' }), obj('a', '2', { uid: 'old' }));
    expect(writes.freshest(obj('a', '9', { uid: 'new' })).metadata.uid).toBe('new');
    expect(writes.size()).toBe(0);
  });

  it('the write that removed the object (its last finalizer, while deleting) is read until the watch shows the delete, though its answer kept the version', () => {
    const writes = createOwnWrites<KubeObject>();
    const informer = fakeInformer();
    writes.watch(informer.informer);
    const deleting = { deletionTimestamp: '2026-12-06T11:58:29Z' };
    informer.show(obj('a', '7', { ...deleting, finalizers: ['ray.io/rayjob-finalizer'] }));
    // kube-apiserver 1.32 answers the removing PATCH at the version it replaced, finalizers gone (kube-reference).
    writes.wrote(obj('a', '7', { ...deleting, finalizers: ['ray.io/rayjob-finalizer'] }), obj('a', '7', deleting));
    expect(writes.freshest(informer.informer.cache.get('ns/a')!).metadata.finalizers).toBeUndefined();
    informer.remove('a');
    expect(writes.size()).toBe(0);
  });

  it('remembers the answer as a cache holds it: without managedFields (a PUT carrying them would replace them)', () => {
    const writes = createOwnWrites<KubeObject>();
    writes.wrote(obj('a', '1'), obj('a', '2', { managedFields: [{ manager: 'rayjob-controller' }] } as Partial<KubeObject['metadata']>));
    expect(Object.hasOwn(writes.freshest(obj('a', '1')).metadata, 'managedFields')).toBe(false);
  });
});

describe('own writes: memory bounds', () => {
  it('many objects written while the cache lags: at most maxObjects remembered, the latest writes kept; none once the cache caught up', () => {
    const writes = createOwnWrites<KubeObject>({ maxObjects: 100 });
    const informer = fakeInformer();
    writes.watch(informer.informer);
    const names = Array.from({ length: 10_000 }, (_, i) => `c${i}`);
    for (const name of names) informer.show(obj(name, '1'));
    for (const name of names) writes.wrote(obj(name, '1'), obj(name, '2'));
    expect(writes.size()).toBe(100);
    expect(writes.freshest(obj('c9999', '1')).metadata.resourceVersion).toBe('2');
    expect(writes.freshest(obj('c0', '1')).metadata.resourceVersion).toBe('1'); // forgotten: read as cached (a 409 at worst)
    for (const name of names) informer.show(obj(name, '2'));
    expect(writes.size()).toBe(0);
  });

  it('many writes of one object the watch never shows: at most maxVersionsPerObject replaced versions kept, the latest', () => {
    const writes = createOwnWrites<KubeObject>({ maxVersionsPerObject: 16 });
    for (let rv = 1; rv <= 100; rv += 1) writes.wrote(obj('a', String(rv)), obj('a', String(rv + 1)));
    expect(writes.freshest(obj('a', '85')).metadata.resourceVersion).toBe('101');
    expect(writes.size()).toBe(1);
    // Version 84 was forgotten: a cache showing it reads as caught up (and the memory goes).
    expect(writes.freshest(obj('a', '84')).metadata.resourceVersion).toBe('84');
    expect(writes.size()).toBe(0);
  });
});
