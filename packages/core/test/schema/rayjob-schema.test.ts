import { describe, expect, it } from 'vitest';
import {
  DELETION_POLICY_TYPES,
  JOB_DEPLOYMENT_STATUSES,
  JOB_FAILED_REASONS,
  JOB_STATUSES,
  RayJobSchema,
  SUBMISSION_MODES,
  isJobDeploymentTerminal,
  isJobTerminal,
} from '../../src/schema/rayjob.ts';
import {
  ACCEPTED_MANAGED_BY_VALUES,
  DEFAULT_MANAGED_BY,
  ManagedBySchema,
  RAYJOB_OPERATOR_MANAGED_BY,
  checkManagedByFlag,
  isManagedBy,
} from '@rayjob/kube-model';

const fullRayJob = {
  apiVersion: 'ray.io/v1',
  kind: 'RayJob',
  metadata: { name: 'sample', namespace: 'ns', uid: 'u1', generation: 3, labels: { a: 'b' }, managedFields: [{ manager: 'kubectl' }] },
  spec: {
    entrypoint: 'python /home/ray/samples/sample_code.py',
    runtimeEnvYAML: 'pip:\n  - requests==2.26.0\n',
    shutdownAfterJobFinishes: true,
    ttlSecondsAfterFinished: 10,
    activeDeadlineSeconds: 600,
    preRunningDeadlineSeconds: 60,
    submitterConfig: { backoffLimit: 1 },
    metadata: { owner: 'team-a' },
    entrypointNumCpus: 0.5,
    entrypointResources: '{"R1": 2}',
    deletionStrategy: { deletionRules: [{ policy: 'DeleteCluster', condition: { jobStatus: 'FAILED', ttlSeconds: 30 } }] },
    rayClusterSpec: {
      rayVersion: '2.55.1',
      headGroupSpec: {
        rayStartParams: { 'dashboard-host': '0.0.0.0' },
        template: {
          metadata: { labels: { team: 'a' } },
          spec: {
            containers: [{ name: 'ray-head', image: 'rayproject/ray:2.55.1', resources: { limits: { cpu: '1', memory: '2Gi' } }, futureField: { x: 1 } }],
            tolerations: [{ key: 'gpu', operator: 'Exists' }],
          },
        },
      },
      workerGroupSpecs: [
        { groupName: 'small', replicas: 1, minReplicas: 1, maxReplicas: 5, rayStartParams: {}, template: { spec: { containers: [{ name: 'w', image: 'img' }] } } },
      ],
    },
    submitterPodTemplate: { spec: { restartPolicy: 'Never', containers: [{ name: 'submitter', image: 'img', args: ['a'] }] } },
    futureSpecField: 'kept',
  },
  status: {
    jobId: 'sample-abcde',
    rayClusterName: 'sample-raycluster-xyz12',
    dashboardURL: 'sample-raycluster-xyz12-head-svc.ns.svc.cluster.local:8265',
    jobStatus: 'RUNNING',
    jobDeploymentStatus: 'Running',
    startTime: '2026-01-01T00:00:00Z',
    failed: 1,
    succeeded: 0,
    rayJobInfo: { startTime: '2026-01-01T00:00:05Z' },
    rayClusterStatus: {
      state: 'ready',
      desiredCPU: '2',
      desiredMemory: '4Gi',
      desiredGPU: 0,
      availableWorkerReplicas: 1,
      head: { podIP: '10.0.0.1', serviceIP: '10.96.0.10', podName: 'h', serviceName: 's' },
      conditions: [{ type: 'HeadPodReady', status: 'True', reason: 'HeadPodRunningAndReady', message: '', lastTransitionTime: '2026-01-01T00:00:03Z' }],
      lastUpdateTime: null,
      stateTransitionTimes: { ready: '2026-01-01T00:00:04Z' },
    },
  },
};

describe('RayJob schema', () => {
  it('keeps every field of a full RayJob, including fields it does not know', () => {
    expect(RayJobSchema.parse(fullRayJob)).toMatchObject(fullRayJob);
  });

  it('passes pod templates through untouched', () => {
    const parsed = RayJobSchema.parse(fullRayJob);
    expect(parsed.spec.rayClusterSpec?.headGroupSpec.template).toEqual(fullRayJob.spec.rayClusterSpec.headGroupSpec.template);
    expect(parsed.spec.submitterPodTemplate).toEqual(fullRayJob.spec.submitterPodTemplate);
  });

  it.each([
    { field: 'backoffLimit', value: 0 },
    { field: 'submissionMode', value: 'K8sJobMode' },
    { field: 'ttlSecondsAfterFinished', value: 0 },
  ])('defaults spec.$field to $value as the CRD does', ({ field, value }) => {
    const parsed = RayJobSchema.parse({ metadata: { name: 'a' }, spec: {} });
    expect((parsed.spec as Record<string, unknown>)[field]).toBe(value);
  });

  it('fills a missing spec with the defaults', () => {
    expect(RayJobSchema.parse({ metadata: {} }).spec).toEqual({ backoffLimit: 0, submissionMode: 'K8sJobMode', ttlSecondsAfterFinished: 0 });
  });

  it('defaults deletion-rule TTLs and worker-group fields (status counters are defaulted by the CRD only)', () => {
    const parsed = RayJobSchema.parse({
      metadata: {},
      spec: {
        deletionStrategy: { deletionRules: [{ policy: 'DeleteSelf', condition: { jobDeploymentStatus: 'Failed' } }] },
        rayClusterSpec: { headGroupSpec: { template: {} }, workerGroupSpecs: [{ groupName: 'g', template: {} }] },
      },
      status: {},
    });
    expect(parsed.status).toEqual({});
    expect(parsed.spec.deletionStrategy?.deletionRules?.[0]?.condition.ttlSeconds).toBe(0);
    expect(parsed.spec.rayClusterSpec?.workerGroupSpecs?.[0]).toMatchObject({
      replicas: 0,
      minReplicas: 0,
      maxReplicas: 2147483647,
      numOfHosts: 1,
      priority: 0,
    });
  });

  it.each([
    { name: 'an unknown submissionMode', spec: { submissionMode: 'Batch' } },
    { name: 'a non-integer backoffLimit', spec: { backoffLimit: 1.5 } },
    { name: 'a backoffLimit beyond int32', spec: { backoffLimit: 2 ** 31 } },
    { name: 'an unknown deletion policy', spec: { deletionStrategy: { onSuccess: { policy: 'DeleteAll' } } } },
    { name: 'a rayClusterSpec without headGroupSpec', spec: { rayClusterSpec: {} } },
  ])('rejects $name', ({ spec }) => {
    expect(RayJobSchema.safeParse({ metadata: {}, spec }).success).toBe(false);
  });

  it('rejects an unknown status.jobDeploymentStatus', () => {
    expect(RayJobSchema.safeParse({ metadata: {}, status: { jobDeploymentStatus: 'Exploded' } }).success).toBe(false);
  });
});

describe('RayJob enumerations', () => {
  it('lists the values in KubeRay order', () => {
    expect(JOB_STATUSES).toEqual(['', 'PENDING', 'RUNNING', 'STOPPED', 'SUCCEEDED', 'FAILED']);
    expect(JOB_DEPLOYMENT_STATUSES).toHaveLength(10);
    expect(JOB_FAILED_REASONS).toContain('JobDeploymentStatusTransitionGracePeriodExceeded');
    expect(SUBMISSION_MODES).toEqual(['K8sJobMode', 'HTTPMode', 'InteractiveMode', 'SidecarMode']);
    expect(DELETION_POLICY_TYPES).toEqual(['DeleteCluster', 'DeleteWorkers', 'DeleteSelf', 'DeleteNone']);
  });

  it.each(JOB_STATUSES.map((s) => ({ s, terminal: ['STOPPED', 'SUCCEEDED', 'FAILED'].includes(s) })))(
    'isJobTerminal($s) is $terminal',
    ({ s, terminal }) => {
      expect(isJobTerminal(s)).toBe(terminal);
    },
  );

  it.each(JOB_DEPLOYMENT_STATUSES.map((s) => ({ s, terminal: s === 'Complete' || s === 'Failed' })))(
    'isJobDeploymentTerminal($s) is $terminal',
    ({ s, terminal }) => {
      expect(isJobDeploymentTerminal(s)).toBe(terminal);
    },
  );

  it('treats an absent status as not terminal', () => {
    expect(isJobTerminal(undefined)).toBe(false);
    expect(isJobDeploymentTerminal(undefined)).toBe(false);
  });
});

describe('managedBy', () => {
  it('accepts KubeRay, MultiKueue and our operator', () => {
    expect(ACCEPTED_MANAGED_BY_VALUES).toEqual(['ray.io/kuberay-operator', 'kueue.x-k8s.io/multikueue', 'rayjob.io/operator']);
    expect(DEFAULT_MANAGED_BY).toBe('ray.io/kuberay-operator');
  });

  it.each([
    { managedBy: undefined, controller: DEFAULT_MANAGED_BY, ours: true },
    { managedBy: DEFAULT_MANAGED_BY, controller: DEFAULT_MANAGED_BY, ours: true },
    { managedBy: 'kueue.x-k8s.io/multikueue', controller: DEFAULT_MANAGED_BY, ours: false },
    { managedBy: undefined, controller: RAYJOB_OPERATOR_MANAGED_BY, ours: false },
    { managedBy: RAYJOB_OPERATOR_MANAGED_BY, controller: RAYJOB_OPERATOR_MANAGED_BY, ours: true },
  ])('isManagedBy($managedBy, $controller) is $ours', ({ managedBy, controller, ours }) => {
    expect(isManagedBy(managedBy, controller)).toBe(ours);
  });

  it.each(ACCEPTED_MANAGED_BY_VALUES)('--managed-by %s is accepted', (value) => {
    expect(checkManagedByFlag(value)).toEqual({ ok: true, value });
  });

  it('--managed-by with a value the CRD rejects names the accepted values', () => {
    expect(checkManagedByFlag('my-operator')).toEqual({
      ok: false,
      message:
        '--managed-by must be one of ray.io/kuberay-operator, kueue.x-k8s.io/multikueue, rayjob.io/operator (the values the RayJob CRD accepts); got "my-operator"',
    });
  });

  it('declares the immutability and value CEL rules, listing every accepted value', () => {
    const rules = ManagedBySchema.meta()?.['x-kubernetes-validations'] as { rule: string; message: string }[];
    expect(rules[0]).toEqual({ rule: 'self == oldSelf', message: 'the managedBy field is immutable' });
    for (const value of ACCEPTED_MANAGED_BY_VALUES) {
      expect(rules[1]?.rule).toContain(`'${value}'`);
      expect(rules[1]?.message).toContain(`'${value}'`);
    }
  });
});
