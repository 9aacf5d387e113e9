import type { Context, Ending } from '../context.ts';

/**
 * Suspending and Retrying: release the compute (cluster, submitter Job), then reset the attempt's fields.
 * Atomic: once entered, flipping `suspend` back cannot abort it (KubeRay). The RayJob head Service stays and is
 * re-pointed by the next attempt.
 */
export function decideRelease(ctx: Context): Ending {
  const { input, status } = ctx;
  let pending = false;
  if (!ctx.clusterSelectorMode && input.cluster) {
    pending = true;
    if (!input.cluster.metadata.deletionTimestamp) ctx.actions.push({ type: 'deleteCluster', name: input.cluster.metadata.name ?? '' });
  }
  if (ctx.mode === 'K8sJobMode' && input.submitterJob) {
    pending = true;
    if (!input.submitterJob.metadata.deletionTimestamp) ctx.actions.push({ type: 'deleteSubmitterJob', name: input.submitterJob.metadata.name ?? '' });
  }
  if (pending) {
    ctx.notes.push('The release of the compute resources has not been completed yet. Wait for the resources to be deleted before the status transitions to avoid a resource leak.');
    return { kind: 'return', requeueSeconds: input.settings.requeueSeconds };
  }
  for (const field of ['rayClusterStatus', 'rayClusterName', 'dashboardURL', 'jobId', 'message', 'reason', 'rayJobInfo', 'jobStatusCheckFailureStartTime'] as const) {
    delete status[field];
  }
  status.jobStatus = '';
  status.jobDeploymentStatus = status.jobDeploymentStatus === 'Suspending' ? 'Suspended' : '';
  return { kind: 'epilogue', requeueSeconds: 0 };
}

/** Suspended: resume on spec.suspend=false, otherwise nothing to do until the spec changes. */
export function decideSuspended(ctx: Context): Ending {
  if (ctx.rayJob.spec.suspend) return { kind: 'return', requeueSeconds: undefined };
  ctx.notes.push("The status is 'Suspended', but the suspend flag is false. Transition the status to 'New'.");
  ctx.status.jobStatus = '';
  ctx.status.jobDeploymentStatus = '';
  return { kind: 'epilogue', requeueSeconds: 0 };
}
