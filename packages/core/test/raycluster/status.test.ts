import { describe, expect, it } from 'vitest';
import {
  computeRayClusterStatus,
  headPodReadyCondition,
  rayClusterStatusChanged,
  validateRayCluster,
  autoscalerV1RestartPolicyWarning,
  type Condition,
  type Pod,
  type RayClusterInput,
  type RayClusterStatus,
  type ReconcileError,
  type Service,
} from '../../src/index.ts';
import { headService, pod, sampleCluster, settings, T0 } from './fixtures.ts';

type Edit = (c: RayClusterInput) => void;
const NOW = '2026-12-01T10:00:00Z';
const EARLIER = '2026-12-01T09:00:00Z';
const cond = (type: string, status: 'True' | 'False', reason = type, message = ''): Condition => ({ type, status, reason, message, lastTransitionTime: EARLIER });
const head = pod({ name: 'h', type: 'head', ip: '10.0.0.9' });
const w1 = pod({ name: 'w1' });

function status(edit: Edit, pods: Pod[], options: { services?: Service[]; error?: ReconcileError; gateOff?: boolean } = {}) {
  const s = options.gateOff ? { ...settings, featureGates: { ...settings.featureGates, rayClusterStatusConditions: false } } : settings;
  return computeRayClusterStatus({ cluster: sampleCluster(edit), pods, headServices: options.services ?? [headService()], reconcileError: options.error, now: T0 }, s);
}
const ok = (result: ReturnType<typeof status>): RayClusterStatus => {
  if (!result.ok) throw new Error(result.error);
  return result.status;
};
const byType = (s: RayClusterStatus) => Object.fromEntries((s.conditions ?? []).map((c) => [c.type, `${c.status}/${c.reason}${c.message ? `/${c.message}` : ''}`]));

describe('status of a healthy cluster (§9.1)', () => {
  it('ready with every field KubeRay writes', () => {
    const s = ok(status(() => {}, [head, w1]));
    expect(s).toMatchObject({
      state: 'ready',
      observedGeneration: 1,
      readyWorkerReplicas: 1,
      availableWorkerReplicas: 1,
      desiredWorkerReplicas: 1,
      minWorkerReplicas: 1,
      maxWorkerReplicas: 5,
      desiredCPU: '400m',
      desiredMemory: '5Gi',
      desiredGPU: '0',
      desiredTPU: '0',
      endpoints: { dashboard: '8265', 'gcs-server': '6379' },
      head: { podIP: '10.0.0.9', podName: 'h', serviceIP: '10.0.0.9', serviceName: 'rayjob-sample-x7k2p-head-svc' },
      lastUpdateTime: NOW,
      stateTransitionTimes: { ready: NOW },
    });
    expect(byType(s)).toEqual({
      HeadPodReady: 'True/HeadPodRunningAndReady',
      RayClusterProvisioned: 'True/AllPodRunningAndReadyFirstTime/All Ray Pods are ready for the first time',
      RayClusterSuspended: 'False/RayClusterSuspended',
      RayClusterSuspending: 'False/RayClusterSuspending',
    });
  });
  it('a ClusterIP head Service reports its IP', () => {
    expect(ok(status(() => {}, [head, w1], { services: [headService(undefined, '10.96.0.5')] })).head?.serviceIP).toBe('10.96.0.5');
  });
  it('desired resources use unclamped replicas times numOfHosts and skip suspended groups; max saturates', () => {
    const s = ok(status((c) => {
      const g = c.spec.workerGroupSpecs![0]!;
      g.replicas = 9; // max 5: desired Pods clamp, desired resources do not
      g.numOfHosts = 2;
      c.spec.workerGroupSpecs!.push({ ...structuredClone(g), groupName: 'gpu', suspend: true }, { ...structuredClone(g), groupName: 'big', maxReplicas: 2147483647, replicas: 0, minReplicas: 0 });
      c.spec.workerGroupSpecs![2]!.template.spec!.containers![0]!.resources = { limits: { 'nvidia.com/gpu': '1' } };
    }, [head]));
    expect(s).toMatchObject({ desiredWorkerReplicas: 10, minWorkerReplicas: 2, maxWorkerReplicas: 2147483647, desiredCPU: '3800m', desiredGPU: '0' });
  });
});

describe('state (§9.2)', () => {
  it.each<[string, Edit, Pod[], ReconcileError | undefined, string | undefined]>([
    ['not every Pod ready yet: no state', () => {}, [head, pod({ name: 'w1', ready: false })], undefined, undefined],
    ['Pod count below desired + 1', (c) => { c.spec.workerGroupSpecs![0]!.replicas = 2; }, [head, w1], undefined, undefined],
    ['a reconcile error blocks ready', () => {}, [head, w1], { message: 'x' }, undefined],
    ['ready is sticky: a dead worker does not move it back', (c) => { c.status = { state: 'ready' }; }, [head, pod({ name: 'w1', phase: 'Failed' })], undefined, 'ready'],
    ['suspended once spec.suspend and no Pods', (c) => { c.spec.suspend = true; c.status = { state: 'ready' }; }, [], undefined, 'suspended'],
    ['stays suspended after resume until ready holds', (c) => { c.spec.suspend = false; c.status = { state: 'suspended' }; }, [head], undefined, 'suspended'],
  ])('%s', (_label, edit, pods, error, expected) => {
    const result = status(edit, pods, { error });
    expect(ok(result).state).toBe(expected);
  });
  it('stateTransitionTimes only records a change', () => {
    expect(ok(status((c) => { c.status = { state: 'ready', stateTransitionTimes: { ready: EARLIER } }; }, [head, w1])).stateTransitionTimes).toEqual({ ready: EARLIER });
  });
});

describe('conditions (§9.3)', () => {
  it.each<[string, Edit, Pod[], ReconcileError | undefined, Record<string, string>]>([
    ['no head Pod', () => {}, [w1], undefined, { HeadPodReady: 'False/HeadPodNotFound/Head Pod not found', RayClusterProvisioned: 'False/RayClusterPodsProvisioning/RayCluster Pods are being provisioned for first time' }],
    ['a failed Pod create sets ReplicaFailure with the API error', () => {}, [head], { message: 'quota exceeded', marker: 'FailedCreateWorkerPod' },
      { ReplicaFailure: 'True/FailedCreateWorkerPod/FailedCreateWorkerPod\nquota exceeded' }],
    ['an error-free pass removes ReplicaFailure', (c) => { c.status = { conditions: [cond('ReplicaFailure', 'True', 'FailedCreateHeadPod', 'x')] }; }, [head, w1], undefined, { ReplicaFailure: 'absent' }],
    ['another error keeps it', (c) => { c.status = { conditions: [cond('ReplicaFailure', 'True', 'FailedCreateHeadPod', 'x')] }; }, [head, w1], { message: 'other' },
      { ReplicaFailure: 'True/FailedCreateHeadPod/x' }],
    ['Provisioned is not re-evaluated once True', (c) => { c.status = { conditions: [cond('RayClusterProvisioned', 'True', 'AllPodRunningAndReadyFirstTime', 'm')] }; }, [head, pod({ name: 'w1', ready: false })], undefined,
      { RayClusterProvisioned: 'True/AllPodRunningAndReadyFirstTime/m' }],
    ['Provisioned ignores the Pod count', (c) => { c.spec.workerGroupSpecs![0]!.replicas = 3; }, [head], undefined, { RayClusterProvisioned: 'True/AllPodRunningAndReadyFirstTime/All Ray Pods are ready for the first time' }],
    ['suspend requested: Suspending', (c) => { c.spec.suspend = true; }, [head, w1], undefined, { RayClusterSuspending: 'True/RayClusterSuspending', RayClusterSuspended: 'False/RayClusterSuspended' }],
    ['Suspending with Pods left: unchanged', (c) => { c.spec.suspend = true; c.status = { conditions: [cond('RayClusterSuspending', 'True')] }; }, [w1], undefined, { RayClusterSuspending: 'True/RayClusterSuspending' }],
    ['Suspending with no Pods left: Suspended', (c) => {
      c.spec.suspend = true;
      c.status = { conditions: [cond('RayClusterSuspending', 'True'), cond('RayClusterProvisioned', 'True', 'AllPodRunningAndReadyFirstTime', 'm')] };
    }, [], undefined, {
      RayClusterSuspending: 'False/RayClusterSuspending', RayClusterSuspended: 'True/RayClusterSuspended', RayClusterProvisioned: 'False/RayClusterPodsProvisioning/RayCluster has been suspended',
    }],
    ['resume needs suspend: false', (c) => { c.spec.suspend = false; c.status = { conditions: [cond('RayClusterSuspended', 'True')] }; }, [], undefined, { RayClusterSuspended: 'False/RayClusterSuspended' }],
    ['an absent suspend keeps Suspended', (c) => { c.status = { conditions: [cond('RayClusterSuspended', 'True')] }; }, [], undefined, { RayClusterSuspended: 'True/RayClusterSuspended' }],
  ])('%s', (_label, edit, pods, error, expected) => {
    const conditions = byType(ok(status(edit, pods, { error })));
    for (const [type, value] of Object.entries(expected)) expect(conditions[type] ?? 'absent').toBe(value);
  });
  it('lastTransitionTime moves only with the status', () => {
    const s = ok(status((c) => { c.status = { conditions: [cond('RayClusterSuspended', 'False'), cond('HeadPodReady', 'False', 'HeadPodNotFound', 'Head Pod not found')] }; }, [head, w1]));
    const at = Object.fromEntries((s.conditions ?? []).map((c) => [c.type, c.lastTransitionTime]));
    expect(at).toMatchObject({ RayClusterSuspended: EARLIER, HeadPodReady: NOW });
  });
  it('without the status-conditions gate: no conditions', () => {
    expect(ok(status(() => {}, [head, w1], { gateOff: true })).conditions).toBeUndefined();
  });
  it.each<[string, Pod['status'], string]>([
    ['no Ready condition', { phase: 'Pending' }, 'False/Unknown'],
    ['ContainersNotReady: the waiting container explains', {
      phase: 'Running',
      conditions: [{ type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [ray-head]' }],
      containerStatuses: [{ name: 'ray-head', state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s' } } }],
    }, 'False/CrashLoopBackOff/containers with unready status: [ray-head]; ray-head: back-off 10s'],
  ])('HeadPodReady: %s', (_label, podStatus, expected) => {
    const c = headPodReadyCondition({ metadata: { name: 'h' }, status: podStatus });
    expect(`${c.status}/${c.reason}${c.message ? `/${c.message}` : ''}`).toBe(expected);
  });
});

describe('no status is computed (§9.1 last line)', () => {
  it.each<[string, Pod[], Service[], string]>([
    ['head Service not in the cache yet', [head], [], 'unable to find head service. cluster name rayjob-sample-x7k2p'],
    ['two head Services', [head], [headService(), headService()], 'found multiple head services. cluster name rayjob-sample-x7k2p'],
    ['an empty clusterIP', [head], [headService(undefined, '')], 'head service IP is empty. cluster name rayjob-sample-x7k2p'],
    ['two head Pods', [head, pod({ name: 'h2', type: 'head' })], [headService()], 'found 2 head Pods for RayCluster default/rayjob-sample-x7k2p'],
  ])('%s', (_label, pods, services, error) => {
    expect(status(() => {}, pods, { services })).toEqual({ ok: false, error });
  });
});

describe('write rule (§9.4)', () => {
  it('only state, reason, replica counts, endpoints, head and conditions count', () => {
    const before = ok(status(() => {}, [head, w1]));
    expect(rayClusterStatusChanged(before, { ...before, lastUpdateTime: 'later', desiredCPU: '9' })).toBe(false);
    expect(rayClusterStatusChanged(before, { ...before, readyWorkerReplicas: 0 })).toBe(true);
    expect(rayClusterStatusChanged(undefined, before)).toBe(true);
    expect(rayClusterStatusChanged(before, { ...before, head: { serviceName: before.head?.serviceName, serviceIP: before.head?.serviceIP, podName: before.head?.podName, podIP: before.head?.podIP } })).toBe(false);
  });

  // B5: a head pod's start alone (its IP appearing, HeadPodReady False with a "still starting" reason) is written
  // with the next change that is news, so a cluster coming up is written on its first pass and once ready.
  const starting = (reason: string, podIP = '', more: Partial<RayClusterStatus> = {}): RayClusterStatus => ({
    head: { podName: 'h', podIP, serviceIP: podIP, serviceName: 'svc' },
    conditions: [cond('HeadPodReady', 'False', reason), cond('RayClusterProvisioned', 'False', 'RayClusterPodsProvisioning')],
    ...more,
  });
  it.each<[string, RayClusterStatus | undefined, RayClusterStatus, boolean]>([
    ['the first status', undefined, starting('Unknown'), true],
    ['the head pod IP appearing', starting('Unknown'), starting('Unknown', '10.0.0.9'), false],
    ['HeadPodReady Unknown -> ContainerCreating with the IP', starting('Unknown'), starting('ContainerCreating', '10.0.0.9'), false],
    ['HeadPodReady ContainerCreating -> ContainersNotReady', starting('ContainerCreating', '10.0.0.9'), starting('ContainersNotReady', '10.0.0.9'), false],
    ['HeadPodReady PodInitializing, its message changing', starting('PodInitializing', '10.0.0.9'), { ...starting('PodInitializing', '10.0.0.9'), conditions: [cond('HeadPodReady', 'False', 'PodInitializing', 'init: 1/2'), cond('RayClusterProvisioned', 'False', 'RayClusterPodsProvisioning')] }, false],
    ['a failure reason (ImagePullBackOff)', starting('ContainerCreating', '10.0.0.9'), starting('ImagePullBackOff', '10.0.0.9'), true],
    ['HeadPodReady turning True', starting('ContainersNotReady', '10.0.0.9'), { ...starting('ContainersNotReady', '10.0.0.9'), conditions: [cond('HeadPodReady', 'True', 'HeadPodRunningAndReady'), cond('RayClusterProvisioned', 'False', 'RayClusterPodsProvisioning')] }, true],
    ['the state turning ready', starting('ContainersNotReady', '10.0.0.9'), starting('ContainersNotReady', '10.0.0.9', { state: 'ready' }), true],
    ['another condition changing with the IP', starting('Unknown'), { ...starting('Unknown', '10.0.0.9'), conditions: [cond('HeadPodReady', 'False', 'Unknown'), cond('RayClusterProvisioned', 'True', 'AllPodRunningAndReadyFirstTime')] }, true],
    ['a worker becoming available with the IP', starting('Unknown'), starting('Unknown', '10.0.0.9', { availableWorkerReplicas: 1 }), true],
    ['a new head pod', starting('ContainersNotReady', '10.0.0.9'), { ...starting('Unknown'), head: { podName: 'h2', podIP: '', serviceIP: '', serviceName: 'svc' } }, true],
    ['the head pod IP changing', starting('ContainersNotReady', '10.0.0.9'), starting('ContainersNotReady', '10.0.0.10'), true],
    ['the head pod IP going away', starting('ContainersNotReady', '10.0.0.9'), starting('ContainersNotReady'), true],
    ['no head pod named yet', { ...starting('Unknown'), head: { podName: '', podIP: '', serviceIP: '', serviceName: 'svc' } }, starting('Unknown'), true],
  ])('%s: written %s', (_label, before, after, written) => {
    expect(rayClusterStatusChanged(before, after)).toBe(written);
  });
});

describe('RayCluster validation (§12)', () => {
  it.each<[string, Edit, string | undefined]>([
    ['a valid cluster', () => {}, undefined],
    ['a long name', (c) => { c.metadata.name = 'a'.repeat(54); }, `InvalidRayClusterMetadata: The RayCluster metadata is invalid default/${'a'.repeat(54)}: RayCluster name should be no more than 53 characters`],
    ['not a DNS-1035 label', (c) => { c.metadata.name = '1abc'; }, 'InvalidRayClusterMetadata: The RayCluster metadata is invalid default/1abc: RayCluster name should be a valid DNS1035 label: [a DNS-1035 label must consist of lower case alphanumeric characters or \'-\', start with an alphabetic character, and end with an alphanumeric character (e.g. \'my-name\',  or \'abc-123\', regex used for validation is \'[a-z]([-a-z0-9]*[a-z0-9])?\')]'],
    ['min above max', (c) => { c.spec.workerGroupSpecs![0]!.minReplicas = 9; }, 'InvalidRayClusterSpec: The RayCluster spec is invalid default/rayjob-sample-x7k2p: worker group small-group has minReplicas 9 greater than maxReplicas 5'],
    ['upgradeStrategy on a RayJob cluster', (c) => { c.spec.upgradeStrategy = { type: 'Recreate' }; }, 'InvalidRayClusterSpec: The RayCluster UpgradeStrategy is invalid default/rayjob-sample-x7k2p: upgradeStrategy cannot be set when RayCluster is created by RayJob'],
      ['autoscaling with a suspended group', (c) => { c.spec.enableInTreeAutoscaling = true; c.spec.workerGroupSpecs![0]!.suspend = true; },
      'InvalidRayClusterSpec: The RayCluster spec is invalid default/rayjob-sample-x7k2p: worker group small-group cannot be suspended with Autoscaler enabled'],
    ['autoscaler v2 with a worker restartPolicy OnFailure', (c) => { c.spec.enableInTreeAutoscaling = true; c.spec.autoscalerOptions = { version: 'v2' }; c.spec.workerGroupSpecs![0]!.template.spec!.restartPolicy = 'OnFailure'; },
      'InvalidRayClusterSpec: The RayCluster spec is invalid default/rayjob-sample-x7k2p: restartPolicy for worker group small-group should be Never or unset when using autoscaler V2'],
    ['idleTimeoutSeconds without autoscaler v2', (c) => { c.spec.enableInTreeAutoscaling = true; c.spec.workerGroupSpecs![0]!.idleTimeoutSeconds = 30; },
      "InvalidRayClusterSpec: The RayCluster spec is invalid default/rayjob-sample-x7k2p: worker group small-group: idleTimeoutSeconds is set, but autoscaler v2 is not enabled. Please set .spec.autoscalerOptions.version to 'v2' (or set RAY_enable_autoscaler_v2 environment variable to 'true' in the head pod if using KubeRay < 1.4.0)"],
    ['RAY_enable_autoscaler_v2 without autoscaling', (c) => { c.spec.headGroupSpec.template.spec!.containers![0]!.env = [{ name: 'RAY_enable_autoscaler_v2', value: '1' }]; },
      "InvalidRayClusterSpec: The RayCluster spec is invalid default/rayjob-sample-x7k2p: environment variable RAY_enable_autoscaler_v2 cannot be set to '1' when enableInTreeAutoscaling is false. Please set enableInTreeAutoscaling: true to use autoscaler v2"],
    ['Suspending and Suspended both true', (c) => { c.status = { conditions: [cond('RayClusterSuspending', 'True'), cond('RayClusterSuspended', 'True')] }; },
      'InvalidRayClusterStatus: The RayCluster status is invalid default/rayjob-sample-x7k2p, invalid RayCluster State: rayv1.RayClusterSuspending and rayv1.RayClusterSuspended conditions should not be both true'],
  ])('%s', (_label, edit, expected) => {
    const event = validateRayCluster(sampleCluster(edit), { featureGates: { rayJobDeletionPolicy: true, sidecarSubmitterRestart: false } });
    expect(event ? `${event.reason}: ${event.note}` : undefined).toBe(expected);
    if (event) expect(event).toMatchObject({ type: 'Warning', action: 'Validate' });
  });

  it.each<[string, Edit, string | undefined]>([
    ['autoscaler v1 with worker restartPolicy Always: a warning naming the groups, the pass goes on', (c) => {
      c.spec.enableInTreeAutoscaling = true;
      c.spec.autoscalerOptions = { version: 'v1' };
      c.spec.workerGroupSpecs!.push({ ...structuredClone(c.spec.workerGroupSpecs![0]!), groupName: 'b' });
      for (const g of c.spec.workerGroupSpecs!) g.template.spec!.restartPolicy = 'Always';
    }, 'InvalidRayClusterSpec: RayCluster spec warning default/rayjob-sample-x7k2p: restartPolicy for worker groups [small-group, b] should be Never or unset when using autoscaler V1'],
    ['v1 by default (no version): no warning, as KubeRay', (c) => { c.spec.enableInTreeAutoscaling = true; c.spec.workerGroupSpecs![0]!.template.spec!.restartPolicy = 'Always'; }, undefined],
    ['v1 with restartPolicy Never: no warning', (c) => { c.spec.enableInTreeAutoscaling = true; c.spec.autoscalerOptions = { version: 'v1' }; c.spec.workerGroupSpecs![0]!.template.spec!.restartPolicy = 'Never'; }, undefined],
  ])('%s', (_label, edit, expected) => {
    const cluster = sampleCluster(edit);
    expect(validateRayCluster(cluster, { featureGates: { rayJobDeletionPolicy: true, sidecarSubmitterRestart: false } })).toBeUndefined();
    const event = autoscalerV1RestartPolicyWarning(cluster);
    expect(event ? `${event.reason}: ${event.note}` : undefined).toBe(expected);
  });
});
