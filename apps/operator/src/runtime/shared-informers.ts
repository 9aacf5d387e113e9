import { createInformer, type IndexFunc, type Informer, type KubeClient, type KubeObject, type Logger, type ResourceType } from '@rayjob/kube-runtime';

/**
 * One informer per (resource, label selector, watched namespace), shared by every controller of the operator,
 * as controller-runtime's manager cache: the RayCluster and RayJob controllers read the same pods from one watch.
 * With `--watch-namespace a,b` each namespace gets its own informer; without it one informer sees them all.
 */
export interface SharedInformers {
  /** The informers of a resource (one per watched namespace), created on first use. Indexes apply to new ones only. */
  get<T extends KubeObject>(type: ResourceType, labelSelector?: string, indexes?: Record<string, IndexFunc<T>>): Array<Informer<T>>;
  /** The informer whose cache holds objects of `namespace`. */
  forNamespace<T extends KubeObject>(type: ResourceType, namespace: string, labelSelector?: string): Informer<T> | undefined;
  /** Every informer created so far has listed successfully (readiness). */
  allSynced(): boolean;
  /** Runs every informer created so far until `signal` aborts. */
  run(signal: AbortSignal): Promise<void>;
}

export function createSharedInformers(client: KubeClient, watchNamespaces: readonly string[], logger: Logger): SharedInformers {
  const all = new Map<string, Array<Informer<KubeObject>>>();
  const keyOf = (type: ResourceType, labelSelector: string | undefined) => `${type.group}/${type.plural}?${labelSelector ?? ''}`;
  const scopes: Array<string | undefined> = watchNamespaces.length ? [...watchNamespaces] : [undefined];
  const running: Array<Promise<void>> = [];
  let signal: AbortSignal | undefined;

  const get = <T extends KubeObject>(type: ResourceType, labelSelector?: string, indexes?: Record<string, IndexFunc<T>>): Array<Informer<T>> => {
    const key = keyOf(type, labelSelector);
    let list = all.get(key);
    if (!list) {
      list = scopes.map((namespace) =>
        createInformer<T>({
          client,
          type,
          logger,
          ...(namespace !== undefined && { namespace }),
          ...(labelSelector !== undefined && { labelSelector }),
          ...(indexes !== undefined && { indexes }),
        }) as unknown as Informer<KubeObject>,
      );
      all.set(key, list);
      // An informer asked for after start joins the running set.
      if (signal) for (const informer of list) running.push(informer.run(signal));
    }
    return list as unknown as Array<Informer<T>>;
  };

  return {
    get,
    forNamespace: <T extends KubeObject>(type: ResourceType, namespace: string, labelSelector?: string) => {
      const list = get<T>(type, labelSelector);
      if (scopes[0] === undefined) return list[0];
      const i = scopes.indexOf(namespace);
      return i < 0 ? undefined : list[i];
    },
    allSynced: () => [...all.values()].every((list) => list.every((i) => i.hasSynced())),
    async run(s) {
      signal = s;
      for (const list of all.values()) for (const informer of list) running.push(informer.run(s));
      await new Promise<void>((resolve) => (s.aborted ? resolve() : s.addEventListener('abort', () => resolve(), { once: true })));
      await Promise.allSettled(running);
    },
  };
}
