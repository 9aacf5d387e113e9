/** Post-completion cleanup (kuberay-rayjob.md §2.4.15–2.4.18 and the deletion-strategy integration tests). */
import { describe, expect, it } from 'vitest';
import { type RayCluster } from '../../src/index.ts';
import { actionTypes, at, CLUSTER, healthyCluster, inState, iso, makeCluster, run, testSettings } from './fixtures.ts';

const legacy = (onSuccess: string, onFailure: string) => ({ deletionStrategy: { onSuccess: { policy: onSuccess }, onFailure: { policy: onFailure } } });
const rules = (...r: Array<[string, Record<string, unknown>]>) => ({ deletionStrategy: { deletionRules: r.map(([policy, condition]) => ({ policy, condition })) } });
const suspendedWorkers = (): RayCluster => {
  const c = makeCluster('ready');
  for (const g of c.spec?.workerGroupSpecs ?? []) g.suspend = true;
  return c;
};

describe.each([
  // [behaviour, deployment, jobStatus, spec, now (s after end), cluster, expected actions, requeue]
  ['legacy DeleteCluster on success', 'Complete', 'SUCCEEDED', legacy('DeleteCluster', 'DeleteNone'), 0, makeCluster(), ['deleteCluster'], undefined],
  ['legacy DeleteWorkers on failure', 'Failed', 'FAILED', legacy('DeleteNone', 'DeleteWorkers'), 0, makeCluster(), ['suspendWorkerGroups'], undefined],
  ['legacy DeleteWorkers already done', 'Failed', 'FAILED', legacy('DeleteNone', 'DeleteWorkers'), 0, suspendedWorkers(), [], undefined],
  ['legacy DeleteSelf on success', 'Complete', 'SUCCEEDED', legacy('DeleteSelf', 'DeleteNone'), 0, makeCluster(), ['deleteRayJob'], undefined],
  ['legacy DeleteNone keeps everything', 'Complete', 'SUCCEEDED', legacy('DeleteNone', 'DeleteCluster'), 0, makeCluster(), [], undefined],
  ['legacy TTL ahead: requeue 2 s after it', 'Complete', 'SUCCEEDED', { ...legacy('DeleteCluster', 'DeleteNone'), ttlSecondsAfterFinished: 10 }, 4, makeCluster(), [], 8],
  ['legacy onFailure for DeadlineExceeded with jobStatus RUNNING (ours: KubeRay applies none)', 'Failed', 'RUNNING', legacy('DeleteNone', 'DeleteCluster'), 0, makeCluster(), ['deleteCluster'], undefined],
  ['legacy onSuccess for a STOPPED job (ours: KubeRay applies none)', 'Complete', 'STOPPED', legacy('DeleteCluster', 'DeleteNone'), 0, makeCluster(), ['deleteCluster'], undefined],
  ['legacy DeleteCluster with the cluster already deleting', 'Complete', 'SUCCEEDED', legacy('DeleteCluster', 'DeleteNone'), 0, makeCluster('ready', { metadata: { name: CLUSTER, deletionTimestamp: iso(1) } } as never), [], undefined],
  ['rule DeleteCluster on SUCCEEDED', 'Complete', 'SUCCEEDED', rules(['DeleteCluster', { jobStatus: 'SUCCEEDED' }]), 0, makeCluster(), ['deleteCluster'], undefined],
  ['rule on FAILED does not match SUCCEEDED', 'Complete', 'SUCCEEDED', rules(['DeleteCluster', { jobStatus: 'FAILED' }]), 0, makeCluster(), [], undefined],
  ['rule on jobDeploymentStatus Failed matches DeadlineExceeded', 'Failed', 'RUNNING', rules(['DeleteCluster', { jobDeploymentStatus: 'Failed' }]), 0, makeCluster(), ['deleteCluster'], undefined],
  ['all rules overdue: the most impactful (DeleteSelf) runs', 'Complete', 'SUCCEEDED', rules(['DeleteWorkers', { jobStatus: 'SUCCEEDED' }], ['DeleteCluster', { jobStatus: 'SUCCEEDED' }], ['DeleteSelf', { jobStatus: 'SUCCEEDED' }]), 0, makeCluster(), ['deleteRayJob'], undefined],
  ['multi-stage at 0: workers first, the cluster rule pending at 5 s', 'Complete', 'SUCCEEDED', rules(['DeleteWorkers', { jobStatus: 'SUCCEEDED', ttlSeconds: 0 }], ['DeleteCluster', { jobStatus: 'SUCCEEDED', ttlSeconds: 5 }], ['DeleteSelf', { jobStatus: 'SUCCEEDED', ttlSeconds: 10 }]), 0, makeCluster(), ['suspendWorkerGroups'], 7],
  ['multi-stage at 5 s: workers done, cluster deleted, self pending', 'Complete', 'SUCCEEDED', rules(['DeleteWorkers', { jobStatus: 'SUCCEEDED', ttlSeconds: 0 }], ['DeleteCluster', { jobStatus: 'SUCCEEDED', ttlSeconds: 5 }], ['DeleteSelf', { jobStatus: 'SUCCEEDED', ttlSeconds: 10 }]), 5, suspendedWorkers(), ['deleteCluster'], 7],
  ['multi-stage at 10 s: the RayJob is deleted', 'Complete', 'SUCCEEDED', rules(['DeleteWorkers', { jobStatus: 'SUCCEEDED', ttlSeconds: 0 }], ['DeleteCluster', { jobStatus: 'SUCCEEDED', ttlSeconds: 5 }], ['DeleteSelf', { jobStatus: 'SUCCEEDED', ttlSeconds: 10 }]), 10, undefined, ['deleteRayJob'], undefined],
  ['two overdue rules: one runs now, we come back for the other (ours: KubeRay waits for an event)', 'Complete', 'SUCCEEDED', rules(['DeleteWorkers', { jobStatus: 'SUCCEEDED' }], ['DeleteCluster', { jobStatus: 'SUCCEEDED' }]), 0, makeCluster(), ['deleteCluster'], 3],
  ['rule DeleteNone: nothing', 'Complete', 'SUCCEEDED', rules(['DeleteNone', { jobStatus: 'SUCCEEDED' }]), 0, makeCluster(), [], undefined],
] as const)('%s', (_behaviour, deployment, jobStatus, spec, after, cluster, expected, requeue) => {
  it('decides the expected cleanup', () => {
    const d = run({
      rayJob: inState(deployment, 'K8sJobMode', { jobStatus, endTime: iso(100) }, spec as Record<string, unknown>),
      ...healthyCluster(),
      cluster,
      now: at(100 + after),
    });
    expect(actionTypes(d)).toEqual(expected);
    expect(d.requeueAfterSeconds).toBe(requeue);
    expect(d.statusChanged).toBe(false);
  });
});

describe('cleanup switches', () => {
  it('a deletionStrategy is ignored when the RayJobDeletionPolicy gate is off; shutdownAfterJobFinishes applies', () => {
    const d = run({
      rayJob: inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED', endTime: iso(100) }, { ...legacy('DeleteNone', 'DeleteNone'), shutdownAfterJobFinishes: true }),
      ...healthyCluster(),
      settings: { ...testSettings, featureGates: { rayJobDeletionPolicy: false, sidecarSubmitterRestart: false } },
      now: at(100),
    });
    expect(actionTypes(d)).toEqual(['deleteCluster']);
  });
  it('clusterSelector mode applies DeleteSelf rules (ours: KubeRay skips all cleanup there)', () => {
    const d = run({
      rayJob: inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED', endTime: iso(100) }, { ...rules(['DeleteSelf', { jobStatus: 'SUCCEEDED' }]), clusterSelector: { 'ray.io/cluster': CLUSTER }, rayClusterSpec: undefined }),
      ...healthyCluster(),
      now: at(100),
    });
    expect(actionTypes(d)).toEqual(['deleteRayJob']);
  });
  it('a missing endTime counts as now instead of crashing (KubeRay would panic)', () => {
    const d = run({ rayJob: inState('Complete', 'K8sJobMode', { jobStatus: 'SUCCEEDED' }, { shutdownAfterJobFinishes: true, ttlSecondsAfterFinished: 5 }), ...healthyCluster(), now: at(100) });
    expect(d.requeueAfterSeconds).toBe(7);
  });
});
