// The ReplicaSet controller's sync: pods created from the template up to `replicas` (minus those created and not
// yet seen), surplus pods deleted, status written.
import { describeError, resources, type ReconcileResult } from '@rayjob/kube-runtime';
import type { Pod } from '../kube-objects/types.ts';
import { randomSuffix } from '../job-controller/pod-template.ts';
import { sameJson, type AppsState } from './apps-state.ts';
import { decideReplicaSet } from './decide-replicaset.ts';
import type { ReplicaSet } from './types.ts';
import { controllerUid, podActive } from './types.ts';

export async function syncReplicaSet(state: AppsState, namespace: string, name: string): Promise<ReconcileResult> {
  const { client, replicaSets, pods, expectations, rsEvents, random, now, log } = state;
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
