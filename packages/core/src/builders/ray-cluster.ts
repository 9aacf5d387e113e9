import type { RayCluster, RayJob } from '../schema/index.ts';
import { attachOnlyMarkOf } from './attach-only-mark.ts';
import { headDashboardPort } from './dashboard.ts';
import { annotationKeys, labelKeys, ORIGINATED_FROM_RAYJOB, ownerReferenceTo } from './labels.ts';
import { ourSubmitterContainer } from './submitter-container.ts';
import type { SubmissionOptions } from './submitter-command.ts';

/** The few operator settings the RayCluster needs (core's DecisionSettings has them; builders do not import it). */
export interface RayClusterBuildSettings {
  /** Our submitter image, for SidecarMode's sidecar. */
  submitterImage: string;
  /** KubeRay's SidecarSubmitterRestart gate: the sidecar restarts OnFailure. */
  featureGates: { sidecarSubmitterRestart: boolean };
}

/**
 * The RayCluster of one attempt: a deep copy of spec.rayClusterSpec, owned by the RayJob, with the RayJob's
 * labels and annotations plus KubeRay's provenance labels. SidecarMode adds the submitter container to the
 * head pod, forces the head pod's restartPolicy to Never and tells the RayCluster controller not to recreate a
 * deleted head (a fresh head would know no jobs). `attachOnly`: the sidecar never submits (addition H).
 */
export function buildRayCluster(
  rayJob: RayJob,
  clusterName: string,
  jobId: string,
  settings: RayClusterBuildSettings,
  options: SubmissionOptions | undefined,
  attachOnly = false,
): RayCluster {
  const mode = rayJob.spec.submissionMode ?? 'K8sJobMode';
  const spec = structuredClone(rayJob.spec.rayClusterSpec);
  if (!spec) throw new Error('buildRayCluster needs spec.rayClusterSpec (validation guarantees it outside clusterSelector mode)');
  const annotations = { ...(rayJob.metadata.annotations ?? {}) };
  if (mode === 'SidecarMode') {
    annotations[annotationKeys.disableProvisionedHeadRestart] = 'true';
    const podSpec = spec.headGroupSpec.template.spec ?? { containers: [] };
    const sidecar = ourSubmitterContainer(settings.submitterImage, options ?? { entrypoint: rayJob.spec.entrypoint ?? '' }, {
      address: `http://127.0.0.1:${headDashboardPort(rayJob)}`,
      jobId,
      clusterName,
      clusterSpec: spec,
      attachOnly,
      // A replacement head's sidecar reads the mark at its start: attach-only once Ray reported the job.
      mark: attachOnlyMarkOf(rayJob, clusterName, jobId),
    });
    if (settings.featureGates.sidecarSubmitterRestart) sidecar.restartPolicy = 'OnFailure';
    podSpec.containers = [...(podSpec.containers ?? []), sidecar];
    podSpec.restartPolicy = 'Never';
    spec.headGroupSpec.template.spec = podSpec;
  }
  return {
    apiVersion: 'ray.io/v1',
    kind: 'RayCluster',
    metadata: {
      name: clusterName,
      namespace: rayJob.metadata.namespace,
      labels: {
        ...(rayJob.metadata.labels ?? {}),
        [labelKeys.originatedFromCrName]: rayJob.metadata.name ?? '',
        [labelKeys.originatedFromCrd]: ORIGINATED_FROM_RAYJOB,
        [labelKeys.jobSubmissionMode]: mode,
      },
      annotations,
      ownerReferences: [ownerReferenceTo(rayJob)],
    },
    spec,
  };
}
