import { RayClusterSchema, type Pod, type RayCluster, type RayClusterInput, type Service } from '../../src/index.ts';
import { defaultRayClusterSettings, type RayClusterSettings } from '../../src/builders/raycluster/settings.ts';

/** The cluster of reference §4.6: the RayJob sample's RayCluster, rayVersion 2.52.0. */
export function sampleCluster(overrides: (c: RayClusterInput) => void = () => {}): RayCluster {
  const input: RayClusterInput = {
    apiVersion: 'ray.io/v1',
    kind: 'RayCluster',
    metadata: { name: 'rayjob-sample-x7k2p', namespace: 'default', uid: 'uid-1', generation: 1, labels: { 'ray.io/originated-from-crd': 'RayJob' } },
    spec: {
      rayVersion: '2.52.0',
      headGroupSpec: {
        rayStartParams: {},
        template: {
          spec: {
            containers: [
              {
                name: 'ray-head',
                image: 'rayproject/ray:2.52.0',
                ports: [
                  { containerPort: 6379, name: 'gcs-server' },
                  { containerPort: 8265, name: 'dashboard' },
                  { containerPort: 10001, name: 'client' },
                ],
                resources: { limits: { cpu: '1', memory: '5Gi' }, requests: { cpu: '200m', memory: '5Gi' } },
              },
            ],
          },
        },
      },
      workerGroupSpecs: [
        {
          groupName: 'small-group',
          replicas: 1,
          minReplicas: 1,
          maxReplicas: 5,
          rayStartParams: {},
          template: {
            spec: {
              containers: [
                { name: 'ray-worker', image: 'rayproject/ray:2.52.0', resources: { limits: { cpu: '1' }, requests: { cpu: '200m' } } },
              ],
            },
          },
        },
      ],
    },
  };
  overrides(input);
  return RayClusterSchema.parse(input);
}

export const settings: RayClusterSettings = defaultRayClusterSettings;
export const T0 = new Date('2026-12-01T10:00:00Z');

export interface PodShape {
  name: string;
  type?: 'head' | 'worker';
  group?: string;
  phase?: string;
  ready?: boolean;
  restartPolicy?: string;
  terminated?: boolean;
  ip?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** A Pod as the cache would show it. */
export function pod(shape: PodShape, clusterName = 'rayjob-sample-x7k2p'): Pod {
  const type = shape.type ?? 'worker';
  const container = type === 'head' ? 'ray-head' : 'ray-worker';
  return {
    metadata: {
      name: shape.name,
      namespace: 'default',
      labels: {
        'ray.io/cluster': clusterName,
        'ray.io/node-type': type,
        'ray.io/group': shape.group ?? (type === 'head' ? 'headgroup' : 'small-group'),
        ...(shape.labels ?? {}),
      },
      ...(shape.annotations ? { annotations: shape.annotations } : {}),
    },
    spec: { containers: [{ name: container }], ...(shape.restartPolicy ? { restartPolicy: shape.restartPolicy } : {}) },
    status: {
      phase: shape.phase ?? 'Running',
      podIP: shape.ip ?? '10.0.0.1',
      conditions: [{ type: 'Ready', status: (shape.ready ?? true) ? 'True' : 'False' }],
      containerStatuses: [
        { name: container, state: shape.terminated ? { terminated: { exitCode: 1, reason: 'Error' } } : { running: {} } },
      ],
    },
  };
}

export function headService(clusterName = 'rayjob-sample-x7k2p', clusterIP = 'None'): Service {
  return {
    metadata: {
      name: `${clusterName}-head-svc`,
      namespace: 'default',
      labels: { 'ray.io/cluster': clusterName, 'ray.io/node-type': 'head', 'ray.io/identifier': `${clusterName}-head` },
    },
    spec: {
      clusterIP,
      ports: [
        { name: 'dashboard', port: 8265, targetPort: 8265 },
        { name: 'gcs-server', port: 6379, targetPort: 6379 },
        { port: 9999, targetPort: 9999 },
      ],
    },
  };
}
