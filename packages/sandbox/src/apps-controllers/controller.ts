// Deployment and ReplicaSet controllers (kube-controller-manager's), as API clients on kube-runtime: informers on
// Deployments, ReplicaSets and pods, one controller per kind, decisions from decide-*.ts applied through the API. Enough for
// `helm install` of a chart to start its Deployment's pods, roll out a new template, and report status that
// `kubectl rollout status` and `helm --wait` read. This file wires the informers to the two work queues; the
// syncs are sync-replicaset.ts and sync-deployment.ts.
import { createExpectations, objectKey, resources, type KubeClient, type Logger } from '@rayjob/kube-runtime';
import type { Pod } from '../kube-objects/types.ts';
import { componentLogger, componentManager, runComponent } from '../node-runtime/component.ts';
import type { AppsState } from './apps-state.ts';
import { syncDeployment } from './sync-deployment.ts';
import { syncReplicaSet } from './sync-replicaset.ts';
import type { Deployment, ReplicaSet } from './types.ts';
import { controllerUid } from './types.ts';

export interface AppsControllersOptions {
  client: KubeClient;
  now?: () => number;
  random?: () => number;
  log?: (message: string) => void;
  logger?: Logger;
}

export interface AppsControllers {
  readonly synced: Promise<void>;
  stop(): Promise<void>;
}

export function startAppsControllers(options: AppsControllersOptions): AppsControllers {
  const { client } = options;
  const manager = componentManager(client, options.logger ?? componentLogger('apps-controllers'));
  const state: AppsState = {
    client,
    now: options.now ?? Date.now,
    random: options.random ?? Math.random,
    log: options.log ?? ((message: string) => console.error(`[apps-controllers] ${message}`)),
    rsEvents: manager.eventRecorder('replicaset-controller', { api: 'core' }),
    deployEvents: manager.eventRecorder('deployment-controller', { api: 'core' }),
    deployments: manager.informer<Deployment>(resources.deployments),
    replicaSets: manager.informer<ReplicaSet>(resources.replicaSets),
    pods: manager.informer<Pod>(resources.pods),
    expectations: createExpectations(),
  };
  const { deployments, replicaSets, pods, expectations } = state;
  const keyByUid = new Map<string, string>();
  expectations.watch('Pod', pods);
  const rsController = manager.addController({ name: 'replicaset', reconcile: ({ namespace, name }) => syncReplicaSet(state, namespace ?? '', name) });
  const deployController = manager.addController({ name: 'deployment', reconcile: ({ namespace, name }) => syncDeployment(state, namespace ?? '', name) });
  const deploymentOf = (rs: ReplicaSet): string[] => {
    const owner = controllerUid(rs);
    const deployment = owner === undefined ? undefined : deployments.cache.byNamespace(rs.metadata.namespace ?? '').find((d) => d.metadata.uid === owner);
    return deployment === undefined ? [] : [objectKey(deployment)];
  };
  replicaSets.addHandlers({
    add: (rs) => void keyByUid.set(rs.metadata.uid ?? '', objectKey(rs)),
    update: (_old, rs) => void keyByUid.set(rs.metadata.uid ?? '', objectKey(rs)),
    delete: (rs) => { keyByUid.delete(rs.metadata.uid ?? ''); expectations.forget(rs.metadata.uid ?? ''); },
  });
  const replicaSetOf = (pod: Pod): string[] => {
    const owner = controllerUid(pod);
    const key = owner === undefined ? undefined : keyByUid.get(owner);
    return key === undefined ? [] : [key];
  };
  // Each controller waits for all three caches: both read every kind.
  rsController.watch(replicaSets);
  rsController.watch(pods, replicaSetOf);
  rsController.watch(deployments, () => []);
  deployController.watch(deployments);
  deployController.watch(replicaSets, deploymentOf);
  deployController.watch(pods, () => []);

  return runComponent(manager, [deployments, replicaSets, pods]);
}
