import { buildSubmitterJob } from '../../builders/submitter-job.ts';
import { submissionOptions } from '../../builders/submitter-command.ts';
import type { Context } from '../context.ts';
import { emit } from '../context.ts';
import { eventNotes } from '../messages.ts';

/**
 * Whether a Ray status was ever recorded for this attempt's job (the CR's copy or operator memory). From then
 * on, any submitter we create only attaches: it must never submit to a head that no longer knows the job.
 */
export function rayStatusRecorded(ctx: Context): boolean {
  const jobId = ctx.status.jobId ?? '';
  return !!ctx.status.jobStatus || (!!jobId && ctx.memory.rayJobSeen?.jobId === jobId);
}

/** Addition B: the submitter Job was deleted by hand while the job is not terminal. It re-attaches. */
export function recreateSubmitterJob(ctx: Context): void {
  if (ctx.mode !== 'K8sJobMode' || !ctx.input.cluster) return;
  const options = submissionOptions(ctx.rayJob);
  if (!options.ok) return;
  ctx.actions.push({
    type: 'createSubmitterJob',
    recreated: true,
    job: buildSubmitterJob({
      rayJob: ctx.rayJob,
      dashboardURL: ctx.status.dashboardURL ?? '',
      jobId: ctx.status.jobId ?? '',
      clusterName: ctx.status.rayClusterName ?? '',
      clusterSpec: ctx.input.cluster.spec,
      options: options.value,
      settings: ctx.input.settings,
      attachOnly: rayStatusRecorded(ctx),
    }),
  });
  emit(ctx, { type: 'Normal', reason: 'CreatedRayJobSubmitter', action: 'Create', note: eventNotes.recreatedSubmitter(ctx.namespace, ctx.name) });
}
