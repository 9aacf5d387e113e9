import { RayJobSchema, type RayJob, type RayJobInput } from '../../src/schema/rayjob.ts';
import type { RayClusterSpecInput } from '../../src/schema/raycluster.ts';
import type { ValidationSettings } from '../../src/validation/result.ts';

/** A RayCluster spec KubeRay's tests call "basic": one head container, one worker group with min/max set. */
export function basicClusterSpec(extra: Partial<RayClusterSpecInput> = {}): RayClusterSpecInput {
  return {
    headGroupSpec: {
      rayStartParams: {},
      template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.55.1' }] } },
    },
    workerGroupSpecs: [
      {
        groupName: 'small-group',
        replicas: 1,
        minReplicas: 1,
        maxReplicas: 3,
        rayStartParams: {},
        template: { spec: { containers: [{ name: 'ray-worker', image: 'rayproject/ray:2.55.1' }] } },
      },
    ],
    ...extra,
  };
}

/** A RayJob as the API server would hand it over (zod applies the CRD defaults). */
export function rayJob(spec: RayJobInput['spec'] = {}, name = 'my-job', extra: Partial<RayJobInput> = {}): RayJob {
  return RayJobSchema.parse({ metadata: { name, namespace: 'default' }, spec, ...extra });
}

export const gatesOn: ValidationSettings = { featureGates: { rayJobDeletionPolicy: true, sidecarSubmitterRestart: false } };
export const gatesOff: ValidationSettings = { featureGates: { rayJobDeletionPolicy: false, sidecarSubmitterRestart: false } };
