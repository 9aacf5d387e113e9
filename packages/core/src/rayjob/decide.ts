import { isJobDeploymentTerminal, isManagedBy, type RayJobResourceStatus } from '../schema/index.ts';
import { validateRayJob } from '../validation/index.ts';
import type { Action, EventSpec } from './actions.ts';
import { applyConditions } from './conditions/apply.ts';
import { copyJson, createContext, emit, type Context, type Ending } from './context.ts';
import type { DecisionInput, OperatorMemory } from './inputs.ts';
import { eventNotes } from './messages.ts';
import { decideDeletion } from './states/deletion.ts';
import { decideInitializing } from './states/initializing.ts';
import { decideNew } from './states/new.ts';
import { decideRelease, decideSuspended } from './states/release.ts';
import { decideRunning } from './states/running.ts';
import { decideTerminal } from './states/terminal.ts';
import { decideWaiting } from './states/waiting.ts';
import { acceptedSubmission } from './accepted-submission.ts';
import { statusWorthWriting } from './status-equality.ts';

/** The outcome of one reconcile of a RayJob, for the executor. */
export interface Decision {
  /** The next status; write it only if `statusChanged`. */
  status: RayJobResourceStatus;
  statusChanged: boolean;
  /**
   * HTTPMode, a job never reported by Ray being submitted (addition H, docs/compatibility.md H8-1): the status to
   * write instead once Ray accepts it — `jobStatus` PENDING (Ray's own status for a job it just accepted) with the
   * conditions that say so — and the events of its condition changes. Written whether or not `statusChanged`.
   */
  onAccept?: { status: RayJobResourceStatus; conditionEvents: EventSpec[] } | undefined;
  /**
   * Write the status before performing the actions: the actions destroy or stop something on the strength of
   * the new status, so the verdict must be persisted first (a conflicting write then cancels them).
   */
  writeStatusFirst: boolean;
  actions: Action[];
  /** Seconds until the next reconcile; undefined = only on the next watch event. */
  requeueAfterSeconds: number | undefined;
  memory: OperatorMemory;
  /** Log lines of note (KubeRay's wording where it has one). */
  notes: string[];
  /**
   * One event per condition that changed status or reason, its evidence as the note: recorded only once the
   * status write that carries the change succeeded, so a conflict and a retry do not tell it twice.
   */
  conditionEvents: EventSpec[];
}

/**
 * Decides a RayJob's next status and actions from one observation. Pure: the clock, randomness, settings and
 * every answer from the cluster and the dashboard are inputs.
 */
export function decide(input: DecisionInput): Decision {
  const ctx = createContext(input);
  const { rayJob } = ctx;
  if (!isManagedBy(rayJob.spec.managedBy, input.settings.managedBy)) {
    ctx.notes.push('Skipping RayJob managed by a custom controller');
    return finish(ctx, { kind: 'return', requeueSeconds: undefined }, false);
  }
  if (rayJob.metadata.deletionTimestamp) return finish(ctx, decideDeletion(ctx), false);

  // Addition G: a finished RayJob is not re-validated (KubeRay flips an edited Complete RayJob to ValidationFailed).
  if (!isJobDeploymentTerminal(ctx.original.jobDeploymentStatus)) {
    const verdict = validateRayJob(rayJob, input.settings);
    if (!verdict.ok) {
      emit(ctx, { type: 'Warning', reason: verdict.eventReason, action: 'Validate', note: eventNotes.validation(ctx.namespace, ctx.name, verdict.message) });
      ctx.status.jobDeploymentStatus = 'ValidationFailed';
      ctx.status.reason = 'ValidationFailed';
      ctx.status.message = verdict.message;
      return finish(ctx, { kind: 'return', requeueSeconds: undefined }, false, true);
    }
  }
  return finish(ctx, dispatch(ctx), true);
}

function dispatch(ctx: Context): Ending {
  switch (ctx.original.jobDeploymentStatus ?? '') {
    case '':
      return decideNew(ctx);
    case 'Initializing':
      return decideInitializing(ctx);
    case 'Waiting':
      return decideWaiting(ctx);
    case 'Running':
      return decideRunning(ctx);
    case 'Suspending':
    case 'Retrying':
      return decideRelease(ctx);
    case 'Suspended':
      return decideSuspended(ctx);
    case 'Complete':
    case 'Failed':
      return decideTerminal(ctx);
    case 'ValidationFailed':
      // The spec validates again (validation ran above): start over, keeping the names already persisted, so an
      // existing cluster and submission are found again. KubeRay stays ValidationFailed forever (listed).
      ctx.notes.push('The RayJob spec is valid again; restarting from New.');
      ctx.status.jobDeploymentStatus = '';
      delete ctx.status.reason;
      delete ctx.status.message;
      return { kind: 'epilogue', requeueSeconds: 0 };
  }
}

function finish(ctx: Context, ending: Ending, managed: boolean, summarize = managed): Decision {
  let requeue = ending.requeueSeconds;
  if (ending.kind === 'epilogue') {
    applyRetryPolicy(ctx);
    requeue = ending.requeueSeconds ?? ctx.input.settings.requeueSeconds;
  }
  if (managed) {
    // observedGeneration: the spec generation this status answers (KubeRay declares it but never writes it).
    const generation = ctx.rayJob.metadata.generation;
    if (generation !== undefined) ctx.status.observedGeneration = generation;
  }
  // Conditions summarize the decided status (ValidationFailed included); a RayJob being deleted or managed by
  // another controller keeps the ones it has.
  const conditionEvents = summarize ? applyConditions(ctx) : [];
  if (managed) mirrorClusterStatus(ctx);
  // The RayJob mirrors its RayCluster's status whenever that changes (KubeRay's e2e: a status write on the
  // RayCluster reaches the RayJob's rayClusterStatus); lastUpdateTime alone is no change, nor is Ray's commentary
  // alone while Running (status-equality.ts).
  const statusChanged = statusWorthWriting(ctx.original, ctx.status);
  const onAccept = managed ? acceptedSubmission(ctx) : undefined;
  const destructive = ctx.actions.some((a) => a.type === 'stopRayJob' || a.type === 'deleteCluster' || a.type === 'deleteSubmitterJob' || a.type === 'suspendWorkerGroups' || a.type === 'deleteRayJob');
  return {
    status: ctx.status,
    statusChanged,
    ...(onAccept && { onAccept }),
    writeStatusFirst: statusChanged && destructive,
    actions: ctx.actions,
    requeueAfterSeconds: requeue,
    memory: ctx.memory,
    notes: ctx.notes,
    conditionEvents,
  };
}

/**
 * KubeRay's epilogue: count attempts that ended, and turn a retryable Failed into Retrying while attempts
 * remain (backoffLimit + 1 in all). DeadlineExceeded and JobStatusCheckTimeoutExceeded are never retried.
 */
function applyRetryPolicy(ctx: Context): void {
  const { status, original } = ctx;
  const entered = !isJobDeploymentTerminal(original.jobDeploymentStatus) && isJobDeploymentTerminal(status.jobDeploymentStatus);
  let failed = status.failed ?? 0;
  let succeeded = status.succeeded ?? 0;
  if (entered && status.jobDeploymentStatus === 'Failed') failed += 1;
  if (entered && status.jobDeploymentStatus === 'Complete' && status.jobStatus === 'SUCCEEDED') succeeded += 1;
  status.failed = failed;
  status.succeeded = succeeded;
  if (!entered || status.jobDeploymentStatus !== 'Failed') return;
  const limit = ctx.rayJob.spec.backoffLimit ?? 0;
  if (limit <= 0 || failed >= limit + 1) return;
  if (status.reason === 'DeadlineExceeded' || status.reason === 'JobStatusCheckTimeoutExceeded') {
    ctx.notes.push('RayJob is not eligible for retry due to failure with DeadlineExceeded or JobStatusCheckTimeoutExceeded');
    return;
  }
  ctx.notes.push(`RayJob is eligible for retry, failed=${failed}, backoffLimit=${limit}: transition to Retrying.`);
  status.jobDeploymentStatus = 'Retrying';
  // Retrying is not terminal: no endTime, and the stop of addition C is moot (the cluster is deleted next).
  if (original.endTime === undefined) delete status.endTime;
  else status.endTime = original.endTime;
  ctx.actions = ctx.actions.filter((a) => a.type !== 'stopRayJob');
}

/** While the RayJob's cluster is in use (Initializing, Waiting, Running), its status is copied as it is now. */
function mirrorClusterStatus(ctx: Context): void {
  const cluster = ctx.input.cluster;
  const using = ctx.status.jobDeploymentStatus === 'Initializing' || ctx.status.jobDeploymentStatus === 'Waiting' || ctx.status.jobDeploymentStatus === 'Running';
  if (using && cluster?.status && cluster.metadata.name === ctx.status.rayClusterName) ctx.status.rayClusterStatus = copyJson(cluster.status);
}
