// The Deployment controller's sync: a ReplicaSet for the current template, the rollout's scaling of new and old
// ReplicaSets (decide-deployment.ts), pruning past the history limit, the revision annotation and status.
import { describeError, resources, rfc3339, type ReconcileResult } from '@rayjob/kube-runtime';
import { sameJson, type AppsState } from './apps-state.ts';
import { deploymentStatus, planRollout, revisionOf, templatesEqual } from './decide-deployment.ts';
import type { Deployment, ReplicaSet } from './types.ts';
import { controllerUid, revisionAnnotation } from './types.ts';

export async function syncDeployment(state: AppsState, namespace: string, name: string): Promise<ReconcileResult> {
  const { client, deployments, replicaSets, pods, deployEvents, now } = state;
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
