// What the submitter builder tests share: one RayJob's cluster and job names, the default settings, and the
// K8sJobMode submitter Job built for a spec.
import { buildSubmitterJob, defaultDecisionSettings, submissionOptions } from '../../src/index.ts';
import { makeRayJob } from '../rayjob/fixtures.ts';

export const settings = defaultDecisionSettings;
export const CLUSTER = 'rayjob-sample-x7k2p';
export const JOB_ID = 'rayjob-sample-b9q4z';

/** The submitter Job K8sJobMode builds for a RayJob with this spec, on CLUSTER with JOB_ID. */
export function submitterJobFor(spec: Record<string, unknown>, attachOnly: boolean): ReturnType<typeof buildSubmitterJob> {
  const rayJob = makeRayJob({ spec });
  const options = submissionOptions(rayJob);
  if (!options.ok) throw new Error(options.error);
  return buildSubmitterJob({
    rayJob, dashboardURL: `${CLUSTER}-head-svc.default.svc.cluster.local:8265`, jobId: JOB_ID, clusterName: CLUSTER,
    clusterSpec: rayJob.spec.rayClusterSpec, options: options.value, settings, attachOnly,
  });
}
