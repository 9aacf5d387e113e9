import { describe, expect, it } from 'vitest';
import { createExpectations, createIndexedCache, objectKey, type EventHandlers, type Informer, type KubeObject } from '../src/index.ts';
import { createFakeClock } from '../src/testing/index.ts';

/** An informer whose events the test drives: the cache changes first, then handlers run (as the real one). */
function fakeInformer() {
  const cache = createIndexedCache<KubeObject>();
  const handlers: Array<EventHandlers<KubeObject>> = [];
  const pod = (name: string, deleting = false): KubeObject => ({
    apiVersion: 'v1', kind: 'Pod', metadata: { namespace: 'ns', name, resourceVersion: '1', ...(deleting && { deletionTimestamp: '2026-12-03T00:00:00Z' }) },
  });
  const informer = { cache, addHandlers: (h: EventHandlers<KubeObject>) => void handlers.push(h) } as unknown as Informer<KubeObject>;
  return {
    informer,
    add: (name: string) => {
      cache.upsert(pod(name));
      for (const h of handlers) h.add?.(cache.getByName('ns', name)!);
    },
    update: (name: string) => {
      const old = cache.getByName('ns', name)!;
      cache.upsert(pod(name, true));
      for (const h of handlers) h.update?.(old, cache.getByName('ns', name)!);
    },
    remove: (name: string) => {
      const old = cache.remove(objectKey(pod(name)))!;
      for (const h of handlers) h.delete?.(old);
    },
  };
}

type Step =
  | ['expectCreate' | 'expectDelete', string, string?]
  | ['add' | 'update' | 'remove', string]
  | ['advance', number]
  | ['forget', string]
  | ['forgetObject', string]
  | ['observeCreated' | 'observeDeleted', string];

const ref = (name: string) => ({ kind: 'Pod', namespace: 'ns', name });

describe('expectations', () => {
  // Owner "c1" unless a step names another; the result lists c1's pending expectations as action:name@group.
  it.each<[string, Step[], string[]]>([
    ['a create not yet seen by the informer is pending', [['expectCreate', 'p1', 'g']], ['create:p1@g']],
    ['... until the informer adds it', [['expectCreate', 'p1', 'g'], ['add', 'p1']], []],
    ['... or the create TTL (10 s) passed', [['expectCreate', 'p1'], ['advance', 10_001]], []],
    ['... and not a moment before', [['expectCreate', 'p1'], ['advance', 10_000]], ['create:p1@']],
    ['a sighting of another object does not meet it', [['expectCreate', 'p1'], ['add', 'p2']], ['create:p1@']],
    ['a create the informer showed before it was recorded is met at once (the watch beat the response)', [['add', 'p1'], ['expectCreate', 'p1']], []],
    ['a delete waits for the informer to drop the object', [['add', 'p1'], ['expectDelete', 'p1', 'g'], ['update', 'p1']], ['delete:p1@g']],
    ['... and is met by its delete event', [['add', 'p1'], ['expectDelete', 'p1'], ['remove', 'p1']], []],
    ['... without a TTL, it waits for the cache however long', [['add', 'p1'], ['expectDelete', 'p1'], ['advance', 3_600_000]], ['delete:p1@']],
    ['a delete of an object the cache already lost is met at once', [['add', 'p1'], ['remove', 'p1'], ['expectDelete', 'p1']], []],
    ['an observed delete also meets a create never seen added (it happened)', [['expectCreate', 'p1'], ['observeDeleted', 'p1']], []],
    ['a controller that sees the object in its own read may observe it', [['expectCreate', 'p1'], ['observeCreated', 'p1']], []],
    ['seen, then deleted by someone else: nothing pending, so it is created again at once (C19)', [['expectCreate', 'p1'], ['add', 'p1'], ['remove', 'p1']], []],
    ['a later expectation on the same object replaces the earlier one', [['expectCreate', 'p1', 'a'], ['add', 'p1'], ['expectDelete', 'p1', 'b']], ['delete:p1@b']],
    ['forget drops every expectation of the owner', [['expectCreate', 'p1'], ['expectCreate', 'p2'], ['forget', 'c1']], []],
    ['forgetObject drops one', [['expectCreate', 'p1'], ['expectCreate', 'p2'], ['forgetObject', 'p1']], ['create:p2@']],
  ])('%s', (_label, steps, expected) => {
    const clock = createFakeClock();
    const expectations = createExpectations({ clock, createTtlMs: 10_000, deleteTtlMs: Infinity });
    const pods = fakeInformer();
    expectations.watch('Pod', pods.informer);
    for (const step of steps) {
      switch (step[0]) {
        case 'expectCreate': expectations.expectCreate('c1', ref(step[1]), step[2]); break;
        case 'expectDelete': expectations.expectDelete('c1', ref(step[1]), step[2]); break;
        case 'add': pods.add(step[1]); break;
        case 'update': pods.update(step[1]); break;
        case 'remove': pods.remove(step[1]); break;
        case 'advance': clock.advance(step[1]); break;
        case 'forget': expectations.forget(step[1]); break;
        case 'forgetObject': expectations.forgetObject(ref(step[1])); break;
        case 'observeCreated': expectations.observeCreated(ref(step[1])); break;
        case 'observeDeleted': expectations.observeDeleted(ref(step[1])); break;
      }
    }
    expect(expectations.pending('c1').map((e) => `${e.action}:${e.name}@${e.group}`)).toEqual(expected);
    expect(expectations.satisfied('c1')).toBe(expected.length === 0);
  });

  it('keeps owners apart: one owner met does not meet another', () => {
    const expectations = createExpectations({ clock: createFakeClock() });
    expectations.expectCreate('c1', ref('a'));
    expectations.expectCreate('c2', ref('b'));
    expectations.observeCreated(ref('a'));
    expect([expectations.satisfied('c1'), expectations.satisfied('c2')]).toEqual([true, false]);
    expect([expectations.isPending(ref('b')), expectations.isPending(ref('b'), 'delete'), expectations.isPending(ref('a'))]).toEqual([true, false, false]);
  });

  it('without a watched informer, nothing is met until observed or expired (default TTL: 5 min)', () => {
    const clock = createFakeClock();
    const expectations = createExpectations({ clock });
    expectations.expectDelete('c1', ref('gone'));
    clock.advance(299_000);
    expect(expectations.isPending(ref('gone'))).toBe(true);
    clock.advance(2_000);
    expect(expectations.isPending(ref('gone'))).toBe(false);
  });
});
