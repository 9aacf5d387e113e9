import { describe, expect, it } from 'vitest';
import {
  clusterSpecHash,
  groupsWithPendingExpectations,
  planRayCluster,
  type ClusterAction,
  type Pod,
  type RayCluster,
  type RayClusterInput,
  type RayClusterObservation,
  type ScaleExpectation,
  type Service,
} from '../../src/index.ts';
import { headService, pod, sampleCluster, settings, T0 } from './fixtures.ts';

type Edit = (c: RayClusterInput) => void;
const condition = (type: string, status: 'True' | 'False') => ({ type, status, reason: type, message: '', lastTransitionTime: '2026-12-01T09:00:00Z' });

function observe(edit: Edit, pods: Pod[], extra: Partial<RayClusterObservation> = {}): RayClusterObservation {
  return {
    cluster: sampleCluster(edit),
    pods,
    headServices: [headService()],
    headlessServiceExists: false,
    serveServiceExists: false,
    authSecretExists: false,
    expectations: [],
    now: T0,
    ...extra,
  };
}

/** A compact rendering of the actions: `create head`, `create worker small-group#1`, `delete w-1`, `deleteAll`. */
function summary(actions: ClusterAction[]): string[] {
  return actions.map((a) => {
    switch (a.type) {
      case 'createService': return `service ${a.role}`;
      case 'createAuthSecret': return `secret ${a.name}`;
      case 'createPod': {
        const labels = a.pod.metadata.labels ?? {};
        return labels['ray.io/node-type'] === 'head' ? 'create head' : `create ${a.group}#${labels['ray.io/worker-group-replica-index']}`;
      }
      case 'deletePod': return `delete ${a.name}`;
      case 'deleteAllPods': return a.group ? `deleteAll ${a.group}` : 'deleteAll';
      case 'annotateHeadPod': return `annotate ${a.name}`;
      case 'createRbacObject': return `${a.kind} ${a.object.metadata.name}`;
      case 'fail': return `fail ${a.event.reason}`;
    }
  });
}

const head = pod({ name: 'h', type: 'head' });
const w = (name: string, extra: Parameters<typeof pod>[0] extends infer S ? Partial<S> : never = {}) => pod({ name, ...extra });
const none: Edit = () => {};

describe('planRayCluster', () => {
  it.each<[string, Edit, Pod[], Partial<RayClusterObservation>, string[], (string | RegExp)?]>([
    ['a new cluster: head Service, head Pod, then its worker', none, [], { headServices: [] }, ['service head', 'create head', 'create small-group#0']],
    ['token auth: the Secret first', (c) => { c.spec.authOptions = { mode: 'token' }; }, [head, w('w1')], {}, ['secret rayjob-sample-x7k2p']],
    ['token auth with the Secret present: nothing', (c) => { c.spec.authOptions = { mode: 'token' }; }, [head, w('w1')], { authSecretExists: true }, []],
    ['two head Services: an error, nothing created', none, [], { headServices: [headService(), headService()] }, [], '2 head service found [rayjob-sample-x7k2p-head-svc rayjob-sample-x7k2p-head-svc]'],
    ['a multi-host group adds the headless Service and one replica of numOfHosts Pods at one index', (c) => { c.spec.workerGroupSpecs![0]!.numOfHosts = 2; }, [head], {},
      ['service headless', 'create small-group#0', 'create small-group#0']],
    ['the serve annotation adds the serve Service', (c) => {
      c.metadata.annotations = { 'ray.io/enable-serve-service': 'true' };
      c.spec.headGroupSpec.template.spec!.containers![0]!.ports!.push({ name: 'serve', containerPort: 8000 });
    }, [head, w('w1')], {}, ['service serve']],
    ['the serve annotation without a serve port: KubeRay\'s error', (c) => { c.metadata.annotations = { 'ray.io/enable-serve-service': 'true' }; }, [head], {}, [],
      "Please specify a port named 'serve' (or with the prefix 'serve-', e.g. 'serve-grpc') in the Ray head container; otherwise, the Kubernetes service for Ray Serve will not be created."],
    ['steady state: nothing', none, [head, w('w1')], {}, []],
    ['Suspending: delete every Pod', (c) => { c.status = { conditions: [condition('RayClusterSuspending', 'True')] }; }, [head, w('w1')], {}, ['deleteAll']],
    ['suspend requested, not yet Suspending: wait for the status write', (c) => { c.spec.suspend = true; }, [head, w('w1')], {}, []],
    ['Suspended: nothing', (c) => { c.status = { conditions: [condition('RayClusterSuspended', 'True')] }; }, [], {}, []],
    ['a Failed head is deleted and the pass ends with an error', none, [pod({ name: 'h', type: 'head', phase: 'Failed' }), w('w1', { phase: 'Failed' })], {}, ['delete h'],
      'The head Pod h status is Failed which is a terminal state. KubeRay will delete the Pod and create new Pods in the next reconciliation if necessary.'],
    ['a Succeeded head too', none, [pod({ name: 'h', type: 'head', phase: 'Succeeded' })], {}, ['delete h'], /status is Succeeded which is a terminal state/],
    ['a Running head whose Ray container exited under restartPolicy Never', none, [pod({ name: 'h', type: 'head', terminated: true, restartPolicy: 'Never' }), w('w1')], {}, ['delete h'],
      /ExitCode:1.*unable to restart due to its restart policy Never/],
    ['... but not under restartPolicy Always (the kubelet restarts it)', none, [pod({ name: 'h', type: 'head', terminated: true, restartPolicy: 'Always' }), w('w1')], {}, []],
    ['a lost head is recreated', none, [w('w1')], {}, ['create head']],
    ['not when provisioned and annotated disable-provisioned-head-restart (workers wait too)', (c) => {
      c.metadata.annotations = { 'ray.io/disable-provisioned-head-restart': 'true' };
      c.status = { conditions: [condition('RayClusterProvisioned', 'True')] };
      c.spec.workerGroupSpecs![0]!.replicas = 3;
    }, [w('w1')], {}, []],
    ['the annotation alone (never provisioned) still recreates', (c) => { c.metadata.annotations = { 'ray.io/disable-provisioned-head-restart': 'true' }; }, [w('w1')], {}, ['create head']],
    ['two head Pods: an error', none, [head, pod({ name: 'h2', type: 'head' })], {}, [], '2 head pods found [h h2]. Please delete extra head pods'],
    ['scale up: the lowest free replica indices', (c) => { c.spec.workerGroupSpecs![0]!.replicas = 3; }, [head, w('w1', { labels: { 'ray.io/worker-group-replica-index': '1' } })], {},
      ['create small-group#0', 'create small-group#2']],
    ['replicas above max are clamped', (c) => { c.spec.workerGroupSpecs![0]!.replicas = 9; c.spec.workerGroupSpecs![0]!.maxReplicas = 2; }, [head, w('w1')], {}, ['create small-group#0']],
    ['replicas below min are raised', (c) => { c.spec.workerGroupSpecs![0]!.replicas = 0; c.spec.workerGroupSpecs![0]!.minReplicas = 2; }, [head, w('w1')], {}, ['create small-group#0']],
    ['scale down: the first Pods by name', (c) => { c.spec.workerGroupSpecs![0]!.replicas = 1; }, [head, w('w3'), w('w1'), w('w2')], {}, ['delete w1', 'delete w2']],
    ['scale down is the autoscaler\'s when it is on', (c) => { c.spec.enableInTreeAutoscaling = true; }, [head, w('w1'), w('w2')], {}, []],
    ['workersToDelete: the listed Pod of this group goes and is replaced; unknown names are ignored', (c) => {
      c.spec.workerGroupSpecs![0]!.scaleStrategy = { workersToDelete: ['w1', 'not-ours'] };
    }, [head, w('w1', { labels: { 'ray.io/worker-group-replica-index': '0' } })], {}, ['delete w1', 'create small-group#0']],
    ['workersToDelete with replicas lowered: deleted, not replaced', (c) => {
      c.spec.workerGroupSpecs![0]!.scaleStrategy = { workersToDelete: ['w2'] };
      c.spec.workerGroupSpecs![0]!.replicas = 1;
    }, [head, w('w1'), w('w2')], {}, ['delete w2']],
    ['a failed worker is deleted, the pass ends with an error; later groups wait', (c) => {
      c.spec.workerGroupSpecs!.push({ ...structuredClone(c.spec.workerGroupSpecs![0]!), groupName: 'other' });
    }, [head, w('w1', { phase: 'Failed' })], {}, ['delete w1'], 'delete 1 unhealthy worker Pods'],
    ['a suspended group: every Pod of it deleted, every pass', (c) => { c.spec.workerGroupSpecs![0]!.suspend = true; }, [head, w('w1')], {}, ['deleteAll small-group']],
    ['a group named headgroup does not count the head Pod', (c) => { c.spec.workerGroupSpecs![0]!.groupName = 'headgroup'; }, [head], {}, ['create headgroup#0']],
  ])('%s', (_label, edit, pods, extra, expected, error) => {
    const plan = planRayCluster(observe(edit, pods, extra), settings);
    expect(summary(plan.actions)).toEqual(expected);
    if (error instanceof RegExp) expect(plan.error?.message).toMatch(error);
    else expect(plan.error?.message).toBe(error);
  });

  it('workersToDelete never deletes a Pod of another group, even under the autoscaler', () => {
    const plan = planRayCluster(observe((c) => {
      c.spec.enableInTreeAutoscaling = true;
      c.spec.workerGroupSpecs!.push({ ...structuredClone(c.spec.workerGroupSpecs![0]!), groupName: 'other' });
      c.spec.workerGroupSpecs![0]!.scaleStrategy = { workersToDelete: ['o1'] };
      c.spec.workerGroupSpecs![0]!.replicas = 0;
      c.spec.workerGroupSpecs![0]!.minReplicas = 0;
    }, [head, pod({ name: 'o1', group: 'other' })], { autoscalerRbac: { serviceAccountExists: true, roleExists: true, roleBindingExists: true } }), settings);
    expect(summary(plan.actions)).toEqual([]);
  });

  it('random deletion can be switched back on under the autoscaler', () => {
    const plan = planRayCluster(observe((c) => { c.spec.enableInTreeAutoscaling = true; }, [head, w('w1'), w('w2')]), { ...settings, enableRandomPodDelete: true });
    expect(summary(plan.actions)).toEqual(['delete w1']);
  });

  it('without the status-conditions gate, spec.suspend deletes every Pod at once', () => {
    const gateOff = { ...settings, featureGates: { ...settings.featureGates, rayClusterStatusConditions: false } };
    expect(summary(planRayCluster(observe((c) => { c.spec.suspend = true; }, [head]), gateOff).actions)).toEqual(['deleteAll']);
  });

  it('events and replica-failure markers name the object', () => {
    const plan = planRayCluster(observe(none, [pod({ name: 'h', type: 'head', phase: 'Failed' })]), settings);
    const del = plan.actions[0] as Extract<ClusterAction, { type: 'deletePod' }>;
    expect(del.success).toEqual({ type: 'Normal', reason: 'DeletedHeadPod', action: 'Delete', note: 'Deleted head Pod default/h; Pod status: Failed; Pod restart policy: ; Ray container terminated status: nil' });
    expect(del.failure).toEqual({ reason: 'FailedToDeleteHeadPod', note: 'Failed deleting head Pod default/h', marker: 'FailedDeleteHeadPod' });
    const create = planRayCluster(observe(none, [head]), settings).actions[0] as Extract<ClusterAction, { type: 'createPod' }>;
    expect(create.failure).toEqual({ reason: 'FailedToCreateWorkerPod', note: 'Failed to create worker Pod for the cluster default/rayjob-sample-x7k2p', marker: 'FailedCreateWorkerPod' });
  });
});

describe('scale expectations keep a lagging cache from doubling Pods', () => {
  // The operator passes in the pending ones (kube-runtime's expectations decide met and expired; tested there).
  const created = (group: string, podName: string): ScaleExpectation => ({ group, podName, action: 'create' });
  it.each<[string, ScaleExpectation[], string[]]>([
    ['nothing pending holds nothing', [], []],
    ['a created Pod not yet in the cache holds its group', [created('small-group', 'w9')], ['small-group']],
    ['a deleted head still in the cache holds the head ("")', [{ group: '', podName: 'h', action: 'delete' }], ['']],
    ['each group once', [created('a', 'w1'), created('a', 'w2'), created('b', 'w3')], ['a', 'b']],
  ])('%s', (_label, pending, groups) => {
    expect([...groupsWithPendingExpectations(pending)]).toEqual(groups);
  });
  it('an unmet group is skipped; the head and other groups go on', () => {
    const plan = planRayCluster(observe((c) => { c.spec.workerGroupSpecs![0]!.replicas = 2; }, [w('w1')], { expectations: [created('small-group', 'w9')] }), settings);
    expect(summary(plan.actions)).toEqual(['create head']);
    const headWait = planRayCluster(observe(none, [], { expectations: [created('', 'h9')] }), settings);
    expect(summary(headWait.actions)).toEqual(['create small-group#0']);
  });
});

describe('upgradeStrategy Recreate', () => {
  const recreate = (c: RayClusterInput) => { c.spec.upgradeStrategy = { type: 'Recreate' }; };
  const hashOf = (cluster: RayCluster) => clusterSpecHash(cluster.spec);
  const headWith = (annotations: Record<string, string>) => pod({ name: 'h', type: 'head', annotations });
  it.each<[string, (c: RayCluster) => Record<string, string>, string[]]>([
    ['same hash: nothing', (c) => ({ 'ray.io/upgrade-strategy-recreate-hash': hashOf(c), 'ray.io/kuberay-version': 'nightly' }), []],
    ['changed spec: every Pod goes', () => ({ 'ray.io/upgrade-strategy-recreate-hash': 'old', 'ray.io/kuberay-version': 'nightly' }), ['deleteAll']],
    ['another operator version: adopt, no recreate', () => ({ 'ray.io/upgrade-strategy-recreate-hash': 'old', 'ray.io/kuberay-version': 'v1.5.0' }), ['annotate h']],
    ['no hash recorded: nothing', () => ({}), []],
  ])('%s', (_label, annotations, expected) => {
    const obs = observe(recreate, [w('w1')]);
    obs.pods = [headWith(annotations(obs.cluster)), w('w1')];
    const plan = planRayCluster(obs, settings);
    expect(summary(plan.actions)).toEqual(expected);
  });
});

export type { Service };

describe('the autoscaler\'s ServiceAccount, Role and RoleBinding (§6.3)', () => {
  const autoscaling: Edit = (c) => { c.spec.enableInTreeAutoscaling = true; };
  const own: Edit = (c) => { autoscaling(c); c.spec.headGroupSpec.template.spec!.serviceAccountName = 'team-sa'; };
  const seen = (sa: boolean, role: boolean, rb: boolean) => ({ autoscalerRbac: { serviceAccountExists: sa, roleExists: role, roleBindingExists: rb } });
  it.each<[string, Edit, Partial<RayClusterObservation>, string[], string?]>([
    ['created first, before the head Service and Pods, when missing', autoscaling, { ...seen(false, false, false), headServices: [] },
      ['ServiceAccount rayjob-sample-x7k2p', 'Role rayjob-sample-x7k2p', 'RoleBinding rayjob-sample-x7k2p', 'service head', 'create head', 'create small-group#0']],
    ['only what is missing', autoscaling, seen(true, false, true), ['Role rayjob-sample-x7k2p', 'create head', 'create small-group#0']],
    ['nothing when all exist', autoscaling, seen(true, true, true), ['create head', 'create small-group#0']],
    ['a ServiceAccount the head template names is the user\'s: missing, the pass stops with KubeRay\'s event', own, seen(false, false, false),
      ['fail AutoscalerServiceAccountNotFound'], 'serviceaccounts "team-sa" not found'],
    ['a ServiceAccount the head template names and that exists: only Role and RoleBinding', own, seen(true, false, false),
      ['Role rayjob-sample-x7k2p', 'RoleBinding rayjob-sample-x7k2p', 'create head', 'create small-group#0']],
    ['no autoscaling: none of them', none, seen(false, false, false), ['create head', 'create small-group#0']],
  ])('%s', (_label, edit, extra, expected, error) => {
    const plan = planRayCluster(observe(edit, [], extra), settings);
    expect(summary(plan.actions)).toEqual(expected);
    const failure = plan.actions.find((a) => a.type === 'fail');
    if (error) expect(failure?.message).toBe(error);
    if (failure) {
      expect(failure.event.note).toBe('Failed to reconcile RayCluster default/rayjob-sample-x7k2p. If users specify ServiceAccountName for the head Pod, they need to create a ServiceAccount themselves. However, ServiceAccount team-sa is not found. Please create one. See the PR description of https://github.com/ray-project/kuberay/pull/1128 for more details.');
    }
  });

  it('events: KubeRay\'s reasons and notes', () => {
    const plan = planRayCluster(observe(autoscaling, [], seen(false, false, false)), settings);
    const rbac = plan.actions.filter((a) => a.type === 'createRbacObject');
    expect(rbac.map((a) => [a.success.reason, a.success.note, a.failure.reason, a.failure.note])).toEqual([
      ['CreatedServiceAccount', 'Created service account default/rayjob-sample-x7k2p', 'FailedToCreateServiceAccount', 'Failed creating service account default/rayjob-sample-x7k2p'],
      ['CreatedRole', 'Created role default/rayjob-sample-x7k2p', 'FailedToCreateRole', 'Failed creating role default/rayjob-sample-x7k2p'],
      ['CreatedRoleBinding', 'Created role binding default/rayjob-sample-x7k2p', 'FailedToCreateRoleBinding', 'Failed creating role binding default/rayjob-sample-x7k2p'],
    ]);
  });
});
