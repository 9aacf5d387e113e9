import { describe, expect, it } from 'vitest';
import { K8sJobSchema } from '../../src/schema/k8s-job.ts';
import { PodSchema } from '../../src/schema/pod.ts';
import { RayClusterSchema } from '../../src/schema/raycluster.ts';
import { ServiceSchema } from '../../src/schema/service.ts';

// The slices must read real API objects and return them unchanged (loose objects keep unknown fields).
const ownerRef = { apiVersion: 'ray.io/v1', kind: 'RayJob', name: 'j', uid: 'u', controller: true, blockOwnerDeletion: true };

const samples = [
  {
    name: 'a submitter batch/v1 Job',
    schema: K8sJobSchema,
    object: {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'j', namespace: 'ns', ownerReferences: [ownerRef], finalizers: ['batch.kubernetes.io/job-tracking'], deletionTimestamp: '2026-01-01T00:00:00Z' },
      spec: {
        backoffLimit: 2,
        podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [1] } }] },
        template: { spec: { restartPolicy: 'Never', containers: [{ name: 'ray-job-submitter', image: 'i' }] } },
        completionMode: 'NonIndexed',
      },
      status: {
        conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit', lastTransitionTime: '2026-01-01T00:00:00Z', lastProbeTime: null }],
        active: 0,
        failed: 3,
        succeeded: 0,
        uncountedTerminatedPods: {},
      },
    },
  },
  {
    name: 'a head Pod with a terminated container',
    schema: PodSchema,
    object: {
      metadata: { name: 'p', labels: { 'ray.io/node-type': 'head' }, annotations: { a: 'b' } },
      spec: { nodeName: 'n1', containers: [{ name: 'ray-head', image: 'i', ports: [{ name: 'dashboard', containerPort: 8265 }] }] },
      status: {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'False' }],
        containerStatuses: [
          {
            name: 'ray-job-submitter',
            ready: false,
            restartCount: 2,
            state: { terminated: { exitCode: 3, reason: 'Error', message: '{"kind":"rayjob.io/submitter-result"}', finishedAt: '2026-01-01T00:00:09Z' } },
            lastState: { terminated: { exitCode: 1, reason: 'Error' } },
          },
        ],
        qosClass: 'Burstable',
      },
    },
  },
  {
    name: 'a head Service',
    schema: ServiceSchema,
    object: {
      metadata: { name: 's' },
      spec: { type: 'ClusterIP', clusterIP: 'None', selector: { 'ray.io/node-type': 'head' }, ports: [{ name: 'dashboard', port: 8265, targetPort: 'dashboard' }, { port: 6379, targetPort: 6379 }] },
      status: { loadBalancer: {} },
    },
  },
  {
    name: 'a RayCluster with status',
    schema: RayClusterSchema,
    object: {
      apiVersion: 'ray.io/v1',
      kind: 'RayCluster',
      metadata: { name: 'c', ownerReferences: [ownerRef] },
      spec: {
        rayVersion: '2.55.1',
        enableInTreeAutoscaling: true,
        autoscalerOptions: { version: 'v2', upscalingMode: 'Default', resources: { limits: { cpu: '500m' } } },
        headGroupSpec: { serviceType: 'ClusterIP', rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head' }] } } },
        workerGroupSpecs: [
          { groupName: 'g', replicas: 2, minReplicas: 0, maxReplicas: 4, numOfHosts: 1, priority: 0, suspend: false, scaleStrategy: { workersToDelete: ['p1'] }, template: { spec: { containers: [{ name: 'w' }] } } },
        ],
        managedBy: 'ray.io/kuberay-operator',
        gcsFaultToleranceOptions: { redisAddress: 'redis:6379', redisPassword: { valueFrom: { secretKeyRef: { name: 's', key: 'k' } } } },
      },
      status: { state: 'ready', readyWorkerReplicas: 2, desiredWorkerReplicas: 2, minWorkerReplicas: 0, maxWorkerReplicas: 4, desiredTPU: '0', observedGeneration: 4, endpoints: { dashboard: '8265' } },
    },
  },
];

describe('Kubernetes object slices', () => {
  it.each(samples)('reads $name and returns it unchanged', ({ schema, object }) => {
    expect(schema.parse(object)).toEqual(object);
  });

  it('rejects a container status whose terminated state has no exit code', () => {
    const pod = { metadata: {}, status: { containerStatuses: [{ name: 'c', state: { terminated: { reason: 'Error' } } }] } };
    expect(PodSchema.safeParse(pod).success).toBe(false);
  });
});
