import { buildRayCluster } from '../../builders/ray-cluster.ts';
import { buildSubmitterJob } from '../../builders/submitter-job.ts';
import { dashboardURLFromService } from '../../builders/dashboard.ts';
import { submissionOptions } from '../../builders/submitter-command.ts';
import { SUBMITTER_CONTAINER_NAME } from '../../builders/submitter-container.ts';
import { recordSubmitterHead } from '../running/submitter-head-record.ts';
import type { Context, Ending } from '../context.ts';
import { copyJson, emit } from '../context.ts';
import { secondsUntilDeadline } from '../deadlines.ts';
import { eventNotes } from '../messages.ts';
import { rayStatusRecorded } from '../running/recreate-submitter.ts';
import { suspendOrDeadlineBeforeRunning } from './suspend.ts';

/**
 * Initializing: get the RayCluster up, learn the dashboard URL, and (K8sJobMode) create the submitter Job.
 * Each step only uses names already persisted in status by an earlier reconcile.
 */
export function decideInitializing(ctx: Context): Ending {
  const early = suspendOrDeadlineBeforeRunning(ctx);
  if (early) return early;
  const { input, status } = ctx;
  const clusterName = status.rayClusterName ?? '';
  const waitRequeue = requeueWithin(ctx);
  const cluster = input.cluster;
  if (!cluster) {
    if (ctx.clusterSelectorMode) {
      emit(ctx, { type: 'Warning', reason: 'RayClusterNotFound', action: 'Validate', note: eventNotes.clusterSelectorNotFound(ctx.namespace, clusterName) });
      return { kind: 'return', requeueSeconds: waitRequeue };
    }
    const options = submissionOptions(ctx.rayJob);
    ctx.actions.push({
      type: 'createCluster',
      cluster: buildRayCluster(ctx.rayJob, clusterName, status.jobId ?? '', input.settings, options.ok ? options.value : undefined),
    });
    return { kind: 'return', requeueSeconds: waitRequeue };
  }
  if (!status.dashboardURL) {
    if (cluster.status?.state !== 'ready' && !sidecarHasRun(ctx)) {
      ctx.notes.push('Wait for the RayCluster.Status.State to be ready before submitting the job.');
      if (cluster.status) status.rayClusterStatus = copyJson(cluster.status);
      return { kind: 'epilogue', requeueSeconds: waitRequeue };
    }
    const svc = input.clusterHeadService;
    const url = svc ? dashboardURLFromService(svc, input.settings.clusterDomain) : { ok: false as const, error: 'head service not found' };
    if (!url.ok) {
      ctx.notes.push(`Failed to get the dashboard URL after the RayCluster is ready! ${url.error}`);
      return { kind: 'return', requeueSeconds: waitRequeue };
    }
    // Persist the URL first: the submitter Job embeds it (names before creation, always).
    status.dashboardURL = url.url;
    if (cluster.status) status.rayClusterStatus = copyJson(cluster.status);
    // HTTPMode builds nothing from the URL before Running (it submits from Running): one write, not two.
    if (ctx.mode === 'HTTPMode') status.jobDeploymentStatus = 'Running';
    return { kind: 'epilogue', requeueSeconds: 0 };
  }
  if (ctx.mode === 'InteractiveMode') {
    status.jobDeploymentStatus = 'Waiting';
    return { kind: 'epilogue' };
  }
  if (ctx.mode === 'K8sJobMode' && !input.submitterJob) {
    const options = submissionOptions(ctx.rayJob);
    if (!options.ok) {
      ctx.notes.push(`Cannot build the submitter: ${options.error}`);
      return { kind: 'return', requeueSeconds: waitRequeue };
    }
    // Before the Job, in the same pass: the executor stops at a failed record, so no Job runs unrecorded.
    recordSubmitterHead(ctx);
    ctx.actions.push({
      type: 'createSubmitterJob',
      recreated: false,
      job: buildSubmitterJob({
        rayJob: ctx.rayJob,
        dashboardURL: status.dashboardURL,
        jobId: status.jobId ?? '',
        clusterName,
        clusterSpec: cluster.spec,
        options: options.value,
        settings: input.settings,
        attachOnly: rayStatusRecorded(ctx),
      }),
    });
    // Stay Initializing until the Job is seen: Running always means the submitter exists.
    return { kind: 'return', requeueSeconds: waitRequeue };
  }
  status.jobDeploymentStatus = 'Running';
  return { kind: 'epilogue', requeueSeconds: 0 };
}

/**
 * SidecarMode: a submitter container that already ran (terminated, or restarted) makes the head pod NotReady
 * for good (a terminated container is never ready again), so the cluster may never be seen `ready`. Waiting for
 * it would leave the RayJob Initializing forever although the job ran; proceed to Running, where the dashboard
 * and the submitter's own state decide.
 */
function sidecarHasRun(ctx: Context): boolean {
  if (ctx.mode !== 'SidecarMode') return false;
  return (ctx.input.headPods ?? []).some((pod) =>
    (pod.status?.containerStatuses ?? []).some((cs) => cs.name === SUBMITTER_CONTAINER_NAME && (!!cs.state?.terminated || (cs.restartCount ?? 0) > 0)),
  );
}

function requeueWithin(ctx: Context): number {
  const untilDeadline = secondsUntilDeadline(ctx, true);
  const base = ctx.input.settings.requeueSeconds;
  return untilDeadline !== undefined ? Math.min(base, untilDeadline) : base;
}
