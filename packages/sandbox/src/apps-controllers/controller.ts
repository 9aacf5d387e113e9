// Deployment and ReplicaSet controllers (kube-controller-manager's), as API clients on kube-runtime: informers on
// Deployments, ReplicaSets and pods, one controller per kind, decisions from decide-*.ts applied through the API. Enough for
// `helm install` of a chart to start its Deployment's pods, roll out a new template, and report status that
// `kubectl rollout status` and `helm --wait` read.
import { createExpectations, describeError, objectKey, resources, rfc3339, type KubeClient, type Logger, type ReconcileResult } from '@rayjob/kube-runtime';
import type { Pod } from '../kube-objects/types.ts';
import { componentLogger, componentManager, runComponent } from '../node-runtime/component.ts';
import { randomSuffix } from '../job-controller/pod-template.ts';
import { decideReplicaSet } from './decide-replicaset.ts';
import { deploymentStatus, planRollout, revisionOf, templatesEqual } from './decide-deployment.ts';
import type { Deployment, ReplicaSet } from './types.ts';
import { controllerUid, podActive, revisionAnnotation } from './types.ts';

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

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

// structure-exception(function-lines startAppsControllers): being split by #21 sandbox/shape work
export function startAppsControllers(options: AppsControllersOptions): AppsControllers {
  const { client } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const log = options.log ?? ((message: string) => console.error(`[apps-controllers] ${message}`));
  const manager = componentManager(client, options.logger ?? componentLogger('apps-controllers'));
  const rsEvents = manager.eventRecorder('replicaset-controller', 'core');
  const deployEvents = manager.eventRecorder('deployment-controller', 'core');
  const keyByUid = new Map<string, string>();
  /**
   * Pods created but not yet seen in the cache, per ReplicaSet uid (client-go's expectations, observed by the pod
   * informer's events): a sync before the cache catches up creates only the rest. On the wall clock (cache lag).
   */
  const expectations = createExpectations();

  const deployments = manager.informer<Deployment>(resources.deployments);
  const replicaSets = manager.informer<ReplicaSet>(resources.replicaSets);
  const pods = manager.informer<Pod>(resources.pods);
  expectations.watch('Pod', pods);
  const rsController = manager.addController({ name: 'replicaset', reconcile: ({ namespace, name }) => syncReplicaSet(namespace ?? '', name) });
  const deployController = manager.addController({ name: 'deployment', reconcile: ({ namespace, name }) => syncDeployment(namespace ?? '', name) });
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

  async function syncReplicaSet(namespace: string, name: string): Promise<ReconcileResult> {
    const key = `${namespace}/${name}`;
    const rs = replicaSets.cache.getByName(namespace, name);
    if (rs === undefined || rs.metadata.deletionTimestamp !== undefined) return;
    const uid = rs.metadata.uid ?? '';
    const owned = pods.cache.byOwner(uid).filter((p) => controllerUid(p) === uid);
    const decision = decideReplicaSet(rs, owned.filter(podActive), now());
    const ref = { ...rs, apiVersion: 'apps/v1', kind: 'ReplicaSet' };
    for (let i = expectations.pending(uid).length; i < decision.create; i += 1) {
      const podName = `${(rs.metadata.name ?? '').slice(0, 57)}-${randomSuffix(random)}`;
      const body: Pod = {
        apiVersion: 'v1', kind: 'Pod',
        metadata: {
          name: podName, namespace, labels: { ...(rs.spec.template.metadata?.labels ?? {}) }, annotations: { ...(rs.spec.template.metadata?.annotations ?? {}) },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name ?? '', uid, controller: true, blockOwnerDeletion: true }],
        },
        spec: structuredClone(rs.spec.template.spec),
      };
      const created = await client.create<Pod>(resources.pods, body);
      if (created.ok) { expectations.expectCreate(uid, { kind: 'Pod', namespace, name: podName }); rsEvents.event(ref, 'Normal', 'SuccessfulCreate', '', `Created pod: ${podName}`); }
      else { rsEvents.event(ref, 'Warning', 'FailedCreate', '', `Error creating: ${created.error.message}`); log(`create pod for ${key}: ${describeError(created.error)}`); }
    }
    for (const podName of decision.delete) {
      const removed = await client.delete(resources.pods, { namespace, name: podName });
      if (removed.ok) rsEvents.event(ref, 'Normal', 'SuccessfulDelete', '', `Deleted pod: ${podName}`);
    }
    if (!sameJson(decision.status, rs.status ?? {})) {
      const written = await client.replaceStatus<ReplicaSet>(resources.replicaSets, { ...rs, status: decision.status });
      if (!written.ok && written.error.status === 409) return { requeueAfterMs: 50 };
      if (!written.ok && written.error.status !== 404) throw new Error(`status: ${describeError(written.error)}`);
    }
    return decision.requeueAfterMs === undefined ? undefined : { requeueAfterMs: decision.requeueAfterMs };
  }

  async function syncDeployment(namespace: string, name: string): Promise<ReconcileResult> {
    const deployment = deployments.cache.getByName(namespace, name);
    if (deployment === undefined || deployment.metadata.deletionTimestamp !== undefined) return;
    const uid = deployment.metadata.uid ?? '';
    const owned = replicaSets.cache.byOwner(uid).filter((rs) => controllerUid(rs) === uid && rs.metadata.deletionTimestamp === undefined);
    const oldUids = new Set(owned.filter((rs) => !templatesEqual(rs.spec.template, deployment.spec.template)).map((rs) => rs.metadata.uid ?? ''));
    const oldPods = pods.cache.byNamespace(namespace).filter((p) => oldUids.has(controllerUid(p) ?? '') && p.metadata.deletionTimestamp === undefined && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed').length;
    const plan = planRollout(deployment, owned, oldPods);
    const ref = { ...deployment, apiVersion: 'apps/v1', kind: 'Deployment' };
    if (plan.createNew !== undefined) {
      const created = await client.create<ReplicaSet>(resources.replicaSets, plan.createNew, { namespace });
      if (created.ok) deployEvents.event(ref, 'Normal', 'ScalingReplicaSet', '', `Scaled up replica set ${created.value.metadata.name ?? ''} from 0 to ${created.value.spec.replicas ?? 0}`);
      else if (created.error.status !== 409) throw new Error(`create replica set: ${describeError(created.error)}`);
    }
    let retry = false;
    for (const [rsName, replicas] of plan.scale) {
      const rs = owned.find((r) => r.metadata.name === rsName);
      const from = rs?.spec.replicas ?? 0;
      const annotations = { ...(rs?.metadata.annotations ?? {}), 'deployment.kubernetes.io/desired-replicas': String(deployment.spec.replicas ?? 1) };
      const scaled = await client.patch<ReplicaSet>(resources.replicaSets, { namespace, name: rsName }, { metadata: { annotations, resourceVersion: rs?.metadata.resourceVersion }, spec: { replicas } });
      if (scaled.ok) deployEvents.event(ref, 'Normal', 'ScalingReplicaSet', '', `Scaled ${replicas > from ? 'up' : 'down'} replica set ${rsName} from ${from} to ${replicas}`);
      else if (scaled.error.status === 409) retry = true;
      else if (scaled.error.status !== 404) throw new Error(`scale ${rsName}: ${describeError(scaled.error)}`);
    }
    for (const rsName of plan.prune) await client.delete(resources.replicaSets, { namespace, name: rsName });
    // The Deployment carries the revision of its current ReplicaSet (kubectl rollout history reads it).
    const current = owned.find((rs) => templatesEqual(rs.spec.template, deployment.spec.template));
    const revision = current === undefined ? undefined : String(revisionOf(current));
    if (revision !== undefined && deployment.metadata.annotations?.[revisionAnnotation] !== revision) {
      await client.patch(resources.deployments, { namespace, name }, { metadata: { annotations: { [revisionAnnotation]: revision } } });
    }
    const status = deploymentStatus(deployment, owned, rfc3339(now()));
    const comparable = (s: Deployment['status']): unknown => ({ ...s, conditions: (s?.conditions ?? []).map((c) => ({ ...c, lastUpdateTime: undefined, lastTransitionTime: undefined })) });
    if (!sameJson(comparable(status), comparable(deployment.status))) {
      const written = await client.replaceStatus<Deployment>(resources.deployments, { ...deployment, status });
      if (!written.ok && written.error.status === 409) retry = true;
      else if (!written.ok && written.error.status !== 404) throw new Error(`status: ${describeError(written.error)}`);
    }
    // 409: our cache is behind; decide again once the watch caught up.
    return retry ? { requeueAfterMs: 50 } : undefined;
  }

  return runComponent(manager, [deployments, replicaSets, pods]);
}
