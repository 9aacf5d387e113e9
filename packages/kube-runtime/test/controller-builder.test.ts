// The declarative watch layer (controller-runtime's builder): which keys each informer event enqueues for `for`,
// `owns` and `watches`, and which updates the predicates drop. Informers are stand-ins that replay events.
import { describe, expect, it } from 'vitest';
import {
  annotationsChanged, anyOf, createController, deletionStarted, generationChanged, labelsChanged, mapsTo, newControllerManagedBy,
  type Controller, type EventHandlers, type Informer, type KubeObject,
} from '../src/index.ts';

function standIn() {
  const handlers: Array<EventHandlers<KubeObject>> = [];
  const informer = { addHandlers: (h: EventHandlers<KubeObject>) => void handlers.push(h), waitForSync: async () => true } as unknown as Informer<KubeObject>;
  return {
    informer,
    add: (o: KubeObject) => handlers.forEach((h) => h.add?.(o)),
    update: (old: KubeObject, o: KubeObject) => handlers.forEach((h) => h.update?.(old, o)),
    delete: (o: KubeObject) => handlers.forEach((h) => h.delete?.(o)),
  };
}

async function drain(c: Controller): Promise<string[]> {
  const keys: string[] = [];
  while (c.queue.len() > 0) {
    const k = await c.queue.get();
    if (k === undefined) break;
    keys.push(k);
    c.queue.done(k);
  }
  return keys.sort();
}

const obj = (name: string, meta: Partial<KubeObject['metadata']> = {}): KubeObject => ({ metadata: { namespace: 'ns', name, generation: 1, ...meta } });
const owned = (name: string, ownerKind: string, ownerName: string, apiVersion = 'ray.io/v1'): KubeObject =>
  obj(name, { ownerReferences: [{ apiVersion, kind: ownerKind, name: ownerName, uid: 'u', controller: true }] });

function build() {
  const parents = standIn();
  const children = standIn();
  const others = standIn();
  const controller = newControllerManagedBy({ addController: (o) => createController(o) }, { name: 't', forKind: 'RayJob', forGroup: 'ray.io', reconcile: async () => undefined })
    .for(parents.informer, generationChanged)
    .owns([children.informer])
    .watches(others.informer, mapsTo((o) => [`ns/${o.metadata.labels?.['ray.io/cluster'] ?? ''}`], () => ['ns/always']))
    .complete();
  return { controller, parents, children, others };
}

describe('controller builder', () => {
  it('for: the object\'s own key on add and delete; an update only when the predicate passes (generation changed)', async () => {
    const { controller, parents } = build();
    parents.add(obj('a'));
    parents.update(obj('b'), obj('b', { resourceVersion: '2' })); // a status write: same generation
    parents.update(obj('c'), obj('c', { generation: 2 }));
    parents.delete(obj('d'));
    expect(await drain(controller)).toEqual(['ns/a', 'ns/c', 'ns/d']);
  });

  it('owns: an owned object enqueues its controller owner of the `for` kind and group, nothing else', async () => {
    const { controller, children } = build();
    children.add(owned('x', 'RayJob', 'parent'));
    children.add(owned('y', 'RayCluster', 'not-the-kind'));
    children.add(owned('z', 'RayJob', 'other-group', 'example.com/v1'));
    children.add(obj('orphan'));
    expect(await drain(controller)).toEqual(['ns/parent']);
  });

  it('watches: the keys its map returns (mapsTo unites several maps)', async () => {
    const { controller, others } = build();
    others.add(obj('svc', { labels: { 'ray.io/cluster': 'c1' } }));
    expect(await drain(controller)).toEqual(['ns/always', 'ns/c1']);
  });

  it.each([
    { name: 'generation', old: obj('o'), next: obj('o', { generation: 2 }), pass: true },
    { name: 'labels', old: obj('o', { labels: { a: '1' } }), next: obj('o', { labels: { a: '2' } }), pass: true },
    { name: 'annotations', old: obj('o'), next: obj('o', { annotations: { a: '1' } }), pass: true },
    { name: 'deletion started', old: obj('o'), next: obj('o', { deletionTimestamp: '2026-12-06T00:00:00Z' }), pass: true },
    { name: 'status only (resourceVersion)', old: obj('o', { resourceVersion: '1' }), next: obj('o', { resourceVersion: '2' }), pass: false },
  ])('anyOf(generation, labels, annotations, deletion) on a $name change: $pass', ({ old, next, pass }) => {
    expect(anyOf(generationChanged, labelsChanged, annotationsChanged, deletionStarted)(old, next)).toBe(pass);
  });
});
