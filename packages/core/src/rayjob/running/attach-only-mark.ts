import { attachOnlyMarkOf, buildSubmitterStateConfigMap } from '../../builders/attach-only-mark.ts';
import type { Context } from '../context.ts';
import { observeSubmitter } from '../submitter-state.ts';
import { rayStatusRecorded } from './recreate-submitter.ts';

/**
 * Addition H: once a Ray status was recorded for this attempt's job, ask the executor to write the attach-only
 * mark that the first submitter Job (K8sJobMode) and the head's sidecar (SidecarMode) read at every container
 * start, until the executor reports it written. HTTPMode and InteractiveMode have no submitter pod.
 */
export function markSubmittersAttachOnly(ctx: Context): void {
  if (ctx.mode !== 'K8sJobMode' && ctx.mode !== 'SidecarMode') return;
  const jobId = ctx.status.jobId ?? '';
  const clusterName = ctx.status.rayClusterName ?? '';
  if (!jobId || !rayStatusRecorded(ctx)) return;
  const mark = attachOnlyMarkOf(ctx.rayJob, clusterName, jobId);
  if (ctx.memory.attachOnlyMarked?.key === mark.key) return;
  ctx.actions.push({ type: 'markSubmittersAttachOnly', configMap: buildSubmitterStateConfigMap(ctx.rayJob, mark), key: mark.key });
}

/**
 * Under a terminal RayJob, only while the K8sJobMode submitter Job is still active: the Job controller may yet
 * retry its pod (a mark that failed to be written in Running is written now). A finished Job starts no pod, and
 * SidecarMode's head is never recreated, so terminal RayJobs cost no call after an operator restart.
 */
export function markSubmittersAttachOnlyWhileActive(ctx: Context): void {
  if (ctx.mode !== 'K8sJobMode') return;
  const submitter = observeSubmitter(ctx);
  if (submitter.exists && !submitter.missing && submitter.finishedAt === undefined) markSubmittersAttachOnly(ctx);
}
