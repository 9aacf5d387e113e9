import type { RayJobResourceStatus } from '../schema/index.ts';
import type { EventSpec } from './actions.ts';
import { applyConditions } from './conditions/apply.ts';
import { copyJson, type Context } from './context.ts';
import { jobPendingEvidence } from './running/evidence.ts';

/**
 * HTTPMode, addition H (docs/compatibility.md H8-1): the status the submitting reconcile writes once Ray accepted a
 * job it never reported before: the decided status with `jobStatus` PENDING, Ray's own status for a job it just
 * accepted, and the conditions computed for it (JobSubmitted True, JobRunning JobPending), so the next look that
 * sees Ray report it PENDING has nothing of its own to write (Ray's message and times ride along with the next
 * change). Undefined when the decision submits nothing or the CR already records a Ray status.
 */
export function acceptedSubmission(ctx: Context): { status: RayJobResourceStatus; conditionEvents: EventSpec[] } | undefined {
  if (ctx.status.jobStatus || !ctx.actions.some((a) => a.type === 'submitRayJob')) return undefined;
  const draft: Context = { ...ctx, status: copyJson(ctx.status), runningEvidence: jobPendingEvidence(ctx.status.jobId ?? '') };
  draft.status.jobStatus = 'PENDING';
  return { status: draft.status, conditionEvents: applyConditions(draft) };
}
