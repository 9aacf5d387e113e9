// A declarative watch layer over createController, as controller-runtime's builder reads in SetupWithManager:
// the kind a controller is `for` (its own objects, by key), the kinds it `owns` (mapped to their controller
// owner of that kind), and other kinds it `watches` with a map to the keys they concern; update predicates
// (generationChanged, labelsChanged, ...) drop updates that cannot change a decision. Adds and deletes always pass.
import { objectKey, type KubeObject } from '../client/types.ts';
import type { Informer } from '../informer/informer.ts';
import { ownerKeys, type Controller, type ControllerOptions } from './controller.ts';

/** Whether an update of an object can change a decision (controller-runtime's predicate.Funcs.Update). */
export type UpdatePredicate<T extends KubeObject = KubeObject> = (old: T, obj: T) => boolean;

/** GenerationChangedPredicate: spec changes (metadata.generation) of objects that have a generation. */
export const generationChanged: UpdatePredicate = (old, obj) =>
  obj.metadata.generation === undefined || old.metadata.generation !== obj.metadata.generation;

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a ?? {}) === JSON.stringify(b ?? {});
/** LabelChangedPredicate. */
export const labelsChanged: UpdatePredicate = (old, obj) => !sameJson(old.metadata.labels, obj.metadata.labels);
/** AnnotationChangedPredicate. */
export const annotationsChanged: UpdatePredicate = (old, obj) => !sameJson(old.metadata.annotations, obj.metadata.annotations);
/** A deletion started (a finalizer holds the object): not every API server bumps the generation for it. */
export const deletionStarted: UpdatePredicate = (old, obj) => !old.metadata.deletionTimestamp && obj.metadata.deletionTimestamp !== undefined;

/** predicate.Or: the update passes when any of `predicates` passes. */
export function anyOf<T extends KubeObject>(...predicates: Array<UpdatePredicate<T>>): UpdatePredicate<T> {
  return (old, obj) => predicates.some((p) => p(old, obj));
}

/** handler.EnqueueRequestsFromMapFunc over several maps: the union of the keys each returns. */
export function mapsTo<T extends KubeObject>(...maps: Array<(obj: T) => string[]>): (obj: T) => string[] {
  return (obj) => [...new Set(maps.flatMap((m) => m(obj)))];
}

type Informers<T extends KubeObject> = Informer<T> | ReadonlyArray<Informer<T>>;

export interface ControllerBuilder {
  /** The controller's own kind: each object's add/update/delete enqueues its key (all predicates must pass). */
  for<T extends KubeObject>(informers: Informers<T>, ...predicates: Array<UpdatePredicate<T>>): ControllerBuilder;
  /** Objects this controller creates: enqueue their controller owner of the `for` kind. */
  owns<T extends KubeObject>(informers: Informers<T>, ...predicates: Array<UpdatePredicate<T>>): ControllerBuilder;
  /** Any other kind: enqueue the keys `toKeys` maps an object to. */
  watches<T extends KubeObject>(informers: Informers<T>, toKeys: (obj: T) => string[], ...predicates: Array<UpdatePredicate<T>>): ControllerBuilder;
  /** The controller, registered with the manager, its watches wired (call once, before the manager starts). */
  complete(): Controller;
}

export interface BuilderTarget {
  addController(options: Omit<ControllerOptions, 'clock' | 'metrics' | 'queueMetrics' | 'logger'>): Controller;
}

/**
 * controller-runtime's `ctrl.NewControllerManagedBy(mgr)`: `forKind`/`forGroup` name the kind the controller is
 * for, so `owns` can map owned objects to it.
 */
export function newControllerManagedBy(
  manager: BuilderTarget,
  options: Omit<ControllerOptions, 'clock' | 'metrics' | 'queueMetrics' | 'logger'> & { forKind: string; forGroup?: string },
): ControllerBuilder {
  const { forKind, forGroup, ...controllerOptions } = options;
  const watches: Array<(c: Controller) => void> = [];
  const add = <T extends KubeObject>(informers: Informers<T>, toKeys: ((obj: T) => string[]) | undefined, predicates: Array<UpdatePredicate<T>>) => {
    const list: ReadonlyArray<Informer<T>> = Array.isArray(informers) ? informers : [informers as Informer<T>];
    const update = predicates.length ? { update: (old: T, obj: T) => predicates.every((p) => p(old, obj)) } : undefined;
    watches.push((c) => { for (const informer of list) c.watch(informer, toKeys ?? ((o: T) => [objectKey(o)]), update); });
  };
  const builder: ControllerBuilder = {
    for: (informers, ...predicates) => (add(informers, undefined, predicates), builder),
    owns: (informers, ...predicates) => (add(informers, ownerKeys(forKind, forGroup), predicates), builder),
    watches: (informers, toKeys, ...predicates) => (add(informers, toKeys, predicates), builder),
    complete: () => {
      const controller = manager.addController(controllerOptions);
      for (const wire of watches) wire(controller);
      return controller;
    },
  };
  return builder;
}
