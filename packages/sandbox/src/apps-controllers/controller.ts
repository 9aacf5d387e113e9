// Deployment and ReplicaSet controllers (kube-controller-manager's), as API clients: informers on Deployments,
// ReplicaSets and pods, one work queue per kind, decisions from decide-*.ts applied through the API. Enough for
// `helm install` of a chart to start its Deployment's pods, roll out a new template, and report status that
// `kubectl rollout status` and `helm --wait` read.
import { createEventRecorder } from '../kube-client/events.ts';
import { startInformer } from '../kube-client/informer.ts';
import type { KubeClient } from '../kube-client/rest-client.ts';
import { resources } from '../kube-client/rest-client.ts';
import { kubeTime } from '../kube-client/time.ts';
import type { Pod } from '../kube-client/types.ts';
import { startWorkQueue } from '../kube-client/work-queue.ts';
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
}

export interface AppsControllers {
  readonly synced: Promise<void>;
  stop(): Promise<void>;
}

const keyOf = (o: { metadata: { namespace?: string; name?: string } }): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
const splitKey = (key: string): [string, string] => key.split('/') as [string, string];
const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

export function startAppsControllers(options: AppsControllersOptions): AppsControllers {
  const { client } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const log = options.log ?? ((message: string) => console.error(`[apps-controllers] ${message}`));
  const rsEvents = createEventRecorder(client, 'replicaset-controller');
  const deployEvents = createEventRecorder(client, 'deployment-controller');
  const keyByUid = new Map<string, string>();
  /** Pods created but not yet seen in the cache, per ReplicaSet uid (client-go's "expectations"). */
  const expected = new Map<string, Set<string>>();

  const rsQueue = startWorkQueue(syncReplicaSet, (key, error) => log(`replicaset ${key}: ${(error as Error).message}`));
  const deployQueue = startWorkQueue(syncDeployment, (key, error) => log(`deployment ${key}: ${(error as Error).message}`));
  const deployments = startInformer<Deployment>(client, resources.deployments, ({ object }) => deployQueue.add(keyOf(object)));
  const replicaSets = startInformer<ReplicaSet>(client, resources.replicasets, ({ type, object }) => {
    if (type === 'delete') { keyByUid.delete(object.metadata.uid ?? ''); expected.delete(object.metadata.uid ?? ''); } else keyByUid.set(object.metadata.uid ?? '', keyOf(object));
    rsQueue.add(keyOf(object));
    const owner = controllerUid(object);
    const deployment = owner === undefined ? undefined : deployments.list().find((d) => d.metadata.uid === owner);
    if (deployment !== undefined) deployQueue.add(keyOf(deployment));
  });
  const pods = startInformer<Pod>(client, resources.pods, ({ object }) => {
    const owner = controllerUid(object);
    const key = owner === undefined ? undefined : keyByUid.get(owner);
    if (key !== undefined) rsQueue.add(key);
  });
  const synced = Promise.all([deployments.synced, replicaSets.synced, pods.synced]).then(() => undefined);

  async function syncReplicaSet(key: string): Promise<void> {
    await synced;
    const [namespace, name] = splitKey(key);
    const rs = replicaSets.get(namespace, name);
    if (rs === undefined || rs.metadata.deletionTimestamp !== undefined) return;
    const uid = rs.metadata.uid ?? '';
    const owned = pods.list().filter((p) => controllerUid(p) === uid);
    const pending = expected.get(uid) ?? new Set<string>();
    for (const pod of owned) pending.delete(pod.metadata.name ?? '');
    const decision = decideReplicaSet(rs, owned.filter(podActive), now());
    const ref = { ...rs, apiVersion: 'apps/v1', kind: 'ReplicaSet' };
    for (let i = pending.size; i < decision.create; i += 1) {
      const podName = `${(rs.metadata.name ?? '').slice(0, 57)}-${randomSuffix(random)}`;
      const body: Pod = {
        apiVersion: 'v1', kind: 'Pod',
        metadata: {
          name: podName, namespace, labels: { ...(rs.spec.template.metadata?.labels ?? {}) }, annotations: { ...(rs.spec.template.metadata?.annotations ?? {}) },
          ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.metadata.name ?? '', uid, controller: true, blockOwnerDeletion: true }],
        },
        spec: structuredClone(rs.spec.template.spec),
      };
      const created = await client.create<Pod>(resources.pods, { namespace }, body);
      if (created.ok) { pending.add(podName); expected.set(uid, pending); rsEvents.record(ref, 'Normal', 'SuccessfulCreate', `Created pod: ${podName}`); }
      else { rsEvents.record(ref, 'Warning', 'FailedCreate', `Error creating: ${created.message}`); log(`create pod for ${key}: ${created.status} ${created.message}`); }
    }
    for (const podName of decision.delete) {
      const removed = await client.remove(resources.pods, { namespace, name: podName });
      if (removed.ok) rsEvents.record(ref, 'Normal', 'SuccessfulDelete', `Deleted pod: ${podName}`);
    }
    if (!sameJson(decision.status, rs.status ?? {})) {
      const written = await client.replace<ReplicaSet>(resources.replicasets, { namespace, name, subresource: 'status' }, { ...rs, status: decision.status });
      if (!written.ok && written.status === 409) rsQueue.addAfter(key, 50);
      else if (!written.ok && written.status !== 404) throw new Error(`status: ${written.status} ${written.message}`);
    }
    if (decision.requeueAfterMs !== undefined) rsQueue.addAfter(key, decision.requeueAfterMs);
  }

  async function syncDeployment(key: string): Promise<void> {
    await synced;
    const [namespace, name] = splitKey(key);
    const deployment = deployments.get(namespace, name);
    if (deployment === undefined || deployment.metadata.deletionTimestamp !== undefined) return;
    const uid = deployment.metadata.uid ?? '';
    const owned = replicaSets.list().filter((rs) => controllerUid(rs) === uid && rs.metadata.deletionTimestamp === undefined);
    const oldUids = new Set(owned.filter((rs) => !templatesEqual(rs.spec.template, deployment.spec.template)).map((rs) => rs.metadata.uid ?? ''));
    const oldPods = pods.list().filter((p) => oldUids.has(controllerUid(p) ?? '') && p.metadata.deletionTimestamp === undefined && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed').length;
    const plan = planRollout(deployment, owned, oldPods);
    const ref = { ...deployment, apiVersion: 'apps/v1', kind: 'Deployment' };
    if (plan.createNew !== undefined) {
      const created = await client.create<ReplicaSet>(resources.replicasets, { namespace }, plan.createNew);
      if (created.ok) deployEvents.record(ref, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.value.metadata.name ?? ''} from 0 to ${created.value.spec.replicas ?? 0}`);
      else if (created.status !== 409) throw new Error(`create replica set: ${created.status} ${created.message}`);
    }
    for (const [rsName, replicas] of plan.scale) {
      const rs = owned.find((r) => r.metadata.name === rsName);
      const from = rs?.spec.replicas ?? 0;
      const annotations = { ...(rs?.metadata.annotations ?? {}), 'deployment.kubernetes.io/desired-replicas': String(deployment.spec.replicas ?? 1) };
      const scaled = await client.patch<ReplicaSet>(resources.replicasets, { namespace, name: rsName }, { metadata: { annotations, resourceVersion: rs?.metadata.resourceVersion }, spec: { replicas } });
      if (scaled.ok) deployEvents.record(ref, 'Normal', 'ScalingReplicaSet', `Scaled ${replicas > from ? 'up' : 'down'} replica set ${rsName} from ${from} to ${replicas}`);
      else if (scaled.status === 409) deployQueue.addAfter(key, 50);
      else if (scaled.status !== 404) throw new Error(`scale ${rsName}: ${scaled.status} ${scaled.message}`);
    }
    for (const rsName of plan.prune) await client.remove(resources.replicasets, { namespace, name: rsName });
    // The Deployment carries the revision of its current ReplicaSet (kubectl rollout history reads it).
    const current = owned.find((rs) => templatesEqual(rs.spec.template, deployment.spec.template));
    const revision = current === undefined ? undefined : String(revisionOf(current));
    if (revision !== undefined && deployment.metadata.annotations?.[revisionAnnotation] !== revision) {
      await client.patch(resources.deployments, { namespace, name }, { metadata: { annotations: { [revisionAnnotation]: revision } } });
    }
    const status = deploymentStatus(deployment, owned, kubeTime(now()));
    const comparable = (s: Deployment['status']): unknown => ({ ...s, conditions: (s?.conditions ?? []).map((c) => ({ ...c, lastUpdateTime: undefined, lastTransitionTime: undefined })) });
    if (!sameJson(comparable(status), comparable(deployment.status))) {
      const written = await client.replace<Deployment>(resources.deployments, { namespace, name, subresource: 'status' }, { ...deployment, status });
      if (!written.ok && written.status === 409) deployQueue.addAfter(key, 50);
      else if (!written.ok && written.status !== 404) throw new Error(`status: ${written.status} ${written.message}`);
    }
  }

  return {
    synced,
    async stop() {
      deployments.stop();
      replicaSets.stop();
      pods.stop();
      await rsQueue.stop();
      await deployQueue.stop();
    },
  };
}
