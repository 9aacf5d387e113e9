import { describe, expect, it } from 'vitest';
import { planRayCluster, replicaNameFor, type ClusterAction, type Pod, type RayClusterInput, type RayClusterObservation } from '../../src/index.ts';
import { headService, pod, sampleCluster, settings, T0, type PodShape } from './fixtures.ts';

// Multi-host worker groups (numOfHosts > 1): replicas of numOfHosts Pods created, replaced and removed whole.

type Edit = (c: RayClusterInput) => void;

/** small-group with numOfHosts 2 and the given replicas (min 0, max 5). */
const hosts2 = (replicas: number, more: Edit = () => {}): Edit => (c) => {
  const g = c.spec.workerGroupSpecs![0]!;
  Object.assign(g, { numOfHosts: 2, replicas, minReplicas: 0, maxReplicas: 5 });
  more(c);
};

function observe(edit: Edit, pods: Pod[]): RayClusterObservation {
  return {
    cluster: sampleCluster(edit),
    pods,
    headServices: [headService()],
    headlessServiceExists: true,
    serveServiceExists: false,
    authSecretExists: false,
    expectations: [],
    now: T0,
  };
}

const head = pod({ name: 'h', type: 'head' });
/** Host `host` of replica `replica` (index `index`), e.g. host('a', 0, 1) = Pod `a-1` of replica small-group-a. */
const host = (replica: string, index: number, hostIndex: number, extra: Partial<PodShape> = {}) => pod({
  name: `${replica}-${hostIndex}`,
  ...extra,
  labels: {
    'ray.io/worker-group-replica-name': `small-group-${replica}`,
    'ray.io/worker-group-replica-index': String(index),
    'ray.io/replica-host-index': String(hostIndex),
  },
});
const replica = (name: string, index: number) => [host(name, index, 0), host(name, index, 1)];

/** `create #<replica index>/<host index>`, `delete <pod>`. */
function summary(actions: ClusterAction[]): string[] {
  return actions.map((a) => {
    if (a.type === 'createPod') {
      const l = a.pod.metadata.labels ?? {};
      return `create #${l['ray.io/worker-group-replica-index']}/${l['ray.io/replica-host-index']}`;
    }
    return a.type === 'deletePod' ? `delete ${a.name}` : a.type;
  });
}

describe('multi-host worker groups are reconciled by whole replicas', () => {
  it.each<[string, Edit, Pod[], string[], string?]>([
    ['a new group: numOfHosts Pods per replica, hosts 0..n-1 at each replica index', hosts2(2), [head], ['create #0/0', 'create #0/1', 'create #1/0', 'create #1/1']],
    ['complete healthy replicas: nothing', hosts2(2), [head, ...replica('a', 0), ...replica('b', 1)], []],
    ['a host deleted from outside: the rest of its replica goes, nothing is created this pass', hosts2(2), [head, ...replica('a', 0), host('b', 1, 1)],
      ['delete b-1'], 'cleaned up incomplete replica group small-group-b, requeueing'],
    ['Pods without a replica name (made before multi-host mode) are incomplete replicas', hosts2(1), [head, pod({ name: 'old-0' }), pod({ name: 'old-1' })],
      ['delete old-0', 'delete old-1'], 'cleaned up incomplete replica group unlabelled pod old-0, unlabelled pod old-1, requeueing'],
    ['a failed host takes its whole replica down; a new replica takes the same index in the same pass', hosts2(2),
      [head, ...replica('a', 0), host('b', 1, 0), host('b', 1, 1, { phase: 'Failed' })], ['delete b-0', 'delete b-1', 'create #1/0', 'create #1/1']],
    ['a host whose Ray container exited under restartPolicy Never, likewise', hosts2(1),
      [head, host('a', 0, 0, { terminated: true, restartPolicy: 'Never' }), host('a', 0, 1)], ['delete a-0', 'delete a-1', 'create #0/0', 'create #0/1']],
    ['workersToDelete naming one host deletes its whole replica and ends the pass', hosts2(2, (c) => {
      c.spec.workerGroupSpecs![0]!.scaleStrategy = { workersToDelete: ['b-0', 'not-ours'] };
    }), [head, ...replica('a', 0), ...replica('b', 1)], ['delete b-0', 'delete b-1'], 'deleted 2 worker Pods based on ScaleStrategy, requeueing'],
    ['scale up: whole replicas at the lowest free indices', hosts2(3), [head, ...replica('b', 1)], ['create #0/0', 'create #0/1', 'create #2/0', 'create #2/1']],
    ['scale down: whole replicas, the highest index first', hosts2(1), [head, ...replica('a', 0), ...replica('c', 2), ...replica('b', 1)],
      ['delete c-0', 'delete c-1', 'delete b-0', 'delete b-1']],
    ['scale down is the autoscaler\'s when it is on', hosts2(1, (c) => { c.spec.enableInTreeAutoscaling = true; }), [head, ...replica('a', 0), ...replica('b', 1)], []],
    ['a suspended group still goes at once', hosts2(1, (c) => { c.spec.workerGroupSpecs![0]!.suspend = true; }), [head, ...replica('a', 0)], ['deleteAllPods']],
  ])('%s', (_label, edit, pods, expected, error) => {
    const plan = planRayCluster(observe(edit, pods), settings);
    expect(summary(plan.actions)).toEqual(expected);
    expect(plan.error?.message).toBe(error);
  });

  it('the hosts of a new replica share one fresh replica name; replicas differ', () => {
    const plan = planRayCluster(observe(hosts2(2), [head, ...replica('a', 0)]), settings);
    const pods = plan.actions.flatMap((a) => (a.type === 'createPod' ? [a.pod] : []));
    const names = pods.map((p) => p.metadata.labels?.['ray.io/worker-group-replica-name']);
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^small-group-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(names[1]).toBe(names[0]);
    expect(names[0]).not.toBe('small-group-a');
    const fresh = planRayCluster(observe(hosts2(2), [head]), settings).actions.flatMap((a) => (a.type === 'createPod' ? [a.pod.metadata.labels?.['ray.io/worker-group-replica-name']] : []));
    expect(new Set(fresh).size).toBe(2);
  });

  it('a replica name already in use is never handed out again', () => {
    const first = replicaNameFor('g', 'seed', new Set());
    const second = replicaNameFor('g', 'seed', new Set([first]));
    expect(second).not.toBe(first);
    expect(second).toMatch(/^g-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  });

  it('events say which group lost the Pod and why, as KubeRay\'s', () => {
    const plan = planRayCluster(observe(hosts2(1), [head, host('a', 0, 0, { phase: 'Failed' }), host('a', 0, 1)]), settings);
    const deletes = plan.actions.filter((a): a is Extract<ClusterAction, { type: 'deletePod' }> => a.type === 'deletePod');
    expect(deletes.map((d) => d.success.note)).toEqual([
      'Deleted worker Pod default/a-0 for group small-group: The worker Pod a-0 status is Failed which is a terminal state. KubeRay will delete the Pod and create new Pods in the next reconciliation if necessary.',
      'Deleted worker Pod default/a-1 for group small-group: The worker Pod a-0 status is Failed which is a terminal state. KubeRay will delete the Pod and create new Pods in the next reconciliation if necessary.',
    ]);
    expect(deletes[1]!.failure).toEqual({
      reason: 'FailedToDeleteWorkerPod',
      note: 'Failed deleting worker Pod default/a-1 for group small-group; Pod status: Running; Pod restart policy: ; Ray container terminated status: nil',
      marker: 'FailedDeleteWorkerPod',
    });
    expect(deletes.every((d) => d.ignoreNotFound && d.success.reason === 'DeletedWorkerPod')).toBe(true);
  });

  it('without the RayMultiHostIndexing gate, Pods are reconciled one by one (numOfHosts x replicas)', () => {
    const gateOff = { ...settings, featureGates: { ...settings.featureGates, rayMultiHostIndexing: false } };
    const plan = planRayCluster(observe(hosts2(1), [head, pod({ name: 'x' })]), gateOff);
    expect(plan.actions.map((a) => a.type)).toEqual(['createPod']);
    expect(plan.actions[0]!.type === 'createPod' && plan.actions[0]!.pod.metadata.labels?.['ray.io/worker-group-replica-name']).toBe(undefined);
  });
});
