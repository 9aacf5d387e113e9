import { attachOnlyMarkOf, buildSubmitterStateConfigMap } from '../../builders/attach-only-mark.ts';
import type { Context } from '../context.ts';
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
