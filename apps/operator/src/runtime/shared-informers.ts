import type { IndexFunc, Informer, KubeObject, Manager, ResourceType } from '@rayjob/kube-runtime';
import { cacheTransforms, type CacheTransforms } from './cached-fields.ts';

/**
 * The manager's shared informers seen through `--watch-namespace`: one informer per (resource, label selector,
 * watched namespace), as controller-runtime's cache with DefaultNamespaces. The RayCluster and RayJob controllers
 * read the same pods from one watch; the manager runs them, reports them in /readyz and stops them.
 * With `--watch-namespace a,b` each namespace gets its own informer; without it one informer sees them all.
 * Each cache keeps only the fields the controllers read (cached-fields.ts), trimmed before an object enters it.
 */
export interface SharedInformers {
  /** The informers of a resource (one per watched namespace), created on first use. Indexes apply to new ones only. */
  get<T extends KubeObject>(type: ResourceType, labelSelector?: string, indexes?: Record<string, IndexFunc<T>>): Array<Informer<T>>;
  /** The informer whose cache holds objects of `namespace`. */
  forNamespace<T extends KubeObject>(type: ResourceType, namespace: string, labelSelector?: string): Informer<T> | undefined;
}

export function createSharedInformers(manager: Pick<Manager, 'informer'>, watchNamespaces: readonly string[], transforms: CacheTransforms = cacheTransforms): SharedInformers {
  const scopes: Array<string | undefined> = watchNamespaces.length ? [...watchNamespaces] : [undefined];
  const get = <T extends KubeObject>(type: ResourceType, labelSelector?: string, indexes?: Record<string, IndexFunc<T>>): Array<Informer<T>> =>
    scopes.map((namespace) =>
      manager.informer<T>(type, {
        ...(namespace !== undefined && { namespace }),
        ...(labelSelector !== undefined && { labelSelector }),
        ...(indexes !== undefined && { indexes }),
        ...(transforms[type.plural] !== undefined && { transform: transforms[type.plural] as unknown as (obj: T) => T }),
      }),
    );
  return {
    get,
    forNamespace: <T extends KubeObject>(type: ResourceType, namespace: string, labelSelector?: string) => {
      const list = get<T>(type, labelSelector);
      if (scopes[0] === undefined) return list[0];
      const i = scopes.indexOf(namespace);
      return i < 0 ? undefined : list[i];
    },
  };
}
