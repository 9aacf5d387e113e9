// A pod cache that lags on purpose: the pod informer's watch events are held back until `catchUp`, so a controller's
// reconcile sees a cache that does not yet show the pods it has just created (what expectations are for). The
// controller's sync runs on its own state here, so each reconcile is awaited: no sleeps, no timing.
import { createInformer, resources, type KubeClient, type KubeObject, type WatchEvent } from '@rayjob/kube-runtime';
import type { Pod } from '../src/kube-objects/types.ts';

export interface LaggingPods {
  client: KubeClient;
  /** Delivers every held pod event, and passes later ones straight through. */
  catchUp(): void;
}

/** `client` with its pod watches held back until `catchUp` (lists and every other resource pass through). */
export function lagPodWatches(client: KubeClient): LaggingPods {
  let lagging = true;
  const held: Array<() => void> = [];
  const watch: KubeClient['watch'] = (type, options) => {
    if (type.plural !== 'pods' || type.group !== '') return client.watch(type, options);
    const onEvent = (event: WatchEvent<KubeObject>): void => {
      if (lagging) held.push(() => options.onEvent(event as never));
      else options.onEvent(event as never);
    };
    return client.watch(type, { ...options, onEvent });
  };
  return {
    client: { ...client, watch },
    catchUp: () => {
      lagging = false;
      for (const deliver of held.splice(0)) deliver();
    },
  };
}

export const podInformer = (client: KubeClient) => createInformer<Pod>({ client, type: resources.pods });

/** The pods in the API server (not the cache) owned by `uid`. */
export async function podsOwnedBy(client: KubeClient, namespace: string, uid: string): Promise<Pod[]> {
  const list = await client.list<Pod>(resources.pods, { namespace });
  if (!list.ok) throw new Error(list.error.message);
  return list.value.items.filter((p) => p.metadata.ownerReferences?.some((r) => r.uid === uid && r.controller === true));
}
