// kube-controller-manager's serviceaccount controller: every namespace has a ServiceAccount named `default`
// (pods without serviceAccountName run as it, and their projected token authenticates as it). Keyed by
// namespace: a new namespace, or its `default` ServiceAccount deleted, makes it check again.
import { describeError, isAlreadyExists, resources, type KubeClient, type KubeObject, type Logger } from '@rayjob/kube-runtime';
import { componentLogger, componentManager, runComponent, type RunningComponent } from '../node-runtime/component.ts';

export type ServiceAccountController = RunningComponent;

export function startServiceAccountController(client: KubeClient, logger?: Logger): ServiceAccountController {
  const manager = componentManager(client, logger ?? componentLogger('serviceaccount-controller'));
  const accounts = manager.informer<KubeObject>(resources.serviceaccounts);
  const spaces = manager.informer<KubeObject>(resources.namespaces);
  const controller = manager.addController({
    name: 'serviceaccount',
    reconcile: async ({ name: namespace }) => {
      const ns = spaces.cache.getByName(undefined, namespace);
      if (ns === undefined || ns.metadata.deletionTimestamp !== undefined || accounts.cache.getByName(namespace, 'default') !== undefined) return;
      const created = await client.create(resources.serviceaccounts, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace } });
      if (!created.ok && !isAlreadyExists(created.error)) throw new Error(`create serviceaccount ${namespace}/default: ${describeError(created.error)}`);
    },
  });
  controller.watch(spaces);
  controller.watch(accounts, (account) => (account.metadata.name === 'default' ? [account.metadata.namespace ?? ''] : []));
  return runComponent(manager, [accounts, spaces]);
}
