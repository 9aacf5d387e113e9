// kube-controller-manager's serviceaccount controller: every namespace has a ServiceAccount named `default`
// (pods without serviceAccountName run as it, and their projected token authenticates as it).
import { startInformer } from '../kube-client/informer.ts';
import type { KubeClient } from '../kube-client/rest-client.ts';
import { resources } from '../kube-client/rest-client.ts';
import type { KubeObject } from '../kube-client/types.ts';

export interface ServiceAccountController {
  readonly synced: Promise<void>;
  stop(): Promise<void>;
}

const namespaces = { group: '', version: 'v1', plural: 'namespaces' } as const;

export function startServiceAccountController(client: KubeClient): ServiceAccountController {
  const accounts = startInformer<KubeObject>(client, resources.serviceaccounts, ({ type, object }) => {
    // Deleted: a namespace still there gets it back, as upstream.
    if (type === 'delete' && object.metadata.name === 'default') ensure(object.metadata.namespace ?? '');
  });
  const ensure = (namespace: string): void => {
    void accounts.synced.then(async () => {
      const ns = spaces.get(undefined, namespace);
      if (ns === undefined || ns.metadata.deletionTimestamp !== undefined || accounts.get(namespace, 'default') !== undefined) return;
      await client.create(resources.serviceaccounts, { namespace }, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } });
    });
  };
  const spaces = startInformer<KubeObject>(client, namespaces, ({ type, object }) => {
    if (type === 'upsert') ensure(object.metadata.name ?? '');
  });
  return {
    synced: Promise.all([accounts.synced, spaces.synced]).then(() => undefined),
    async stop() {
      accounts.stop();
      spaces.stop();
    },
  };
}
