import { buildSubmitterStateConfigMap } from '../../builders/attach-only-mark.ts';
import { currentHeadIP, submitterHeadRecordOf } from '../../builders/submitter-head.ts';
import type { Context } from '../context.ts';

/**
 * K8sJobMode, before the attempt's first submitter Job is created: ask the executor to record the head's IP
 * (see SubmitterHeadRecord). Core cannot tell a first creation from one after a Job deleted while the operator
 * was away, so it asks at every creation from Initializing and the executor never overwrites the key: the IP
 * of the first record stands. An unknown head IP records nothing (the submitter then does not check).
 */
export function recordSubmitterHead(ctx: Context): void {
  if (ctx.mode !== 'K8sJobMode') return;
  const jobId = ctx.status.jobId ?? '';
  const clusterName = ctx.status.rayClusterName ?? '';
  if (!jobId || !clusterName) return;
  const record = submitterHeadRecordOf(ctx.rayJob, clusterName, jobId);
  if (ctx.memory.submitterHeadRecorded?.key === record.key) return;
  const headIP = currentHeadIP(ctx.input.cluster, ctx.input.headPods);
  if (!headIP) return;
  ctx.actions.push({ type: 'recordSubmitterHead', configMap: buildSubmitterStateConfigMap(ctx.rayJob, record, headIP), key: record.key, headIP });
}
