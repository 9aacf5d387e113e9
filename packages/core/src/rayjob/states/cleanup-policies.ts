import type { DeletionPolicyType, DeletionRule } from '../../schema/index.ts';
import type { Context } from '../context.ts';
import { addSeconds, parseKubeTime } from '../../go-text/time-format.ts';

/** Rule selection order: the most impactful overdue policy runs first (KubeRay). */
const IMPACT: Record<DeletionPolicyType, number> = { DeleteSelf: 4, DeleteCluster: 3, DeleteWorkers: 2, DeleteNone: 1 };

/**
 * Post-completion cleanup of a Complete or Failed RayJob: deletionRules, the legacy onSuccess/onFailure
 * policies, or shutdownAfterJobFinishes (+ TTL). Returns seconds until the next scheduled step, if any.
 * In clusterSelector mode the selected cluster is never touched (it is not ours), but DeleteSelf and the
 * delete-the-RayJob switch still apply (KubeRay silently skips both there: a listed difference).
 */
export function applyCleanupPolicies(ctx: Context): number | undefined {
  const strategy = ctx.rayJob.spec.deletionStrategy;
  if (ctx.input.settings.featureGates.rayJobDeletionPolicy && strategy) {
    if (strategy.deletionRules) return applyDeletionRules(ctx, strategy.deletionRules);
    const policy = ctx.status.jobDeploymentStatus === 'Complete' ? strategy.onSuccess?.policy : strategy.onFailure?.policy;
    return applyOnce(ctx, policy ?? 'DeleteNone', ctx.rayJob.spec.ttlSecondsAfterFinished ?? 0);
  }
  if (ctx.rayJob.spec.shutdownAfterJobFinishes) {
    return applyOnce(ctx, ctx.input.settings.deleteRayJobAfterJobFinishes ? 'DeleteSelf' : 'DeleteCluster', ctx.rayJob.spec.ttlSecondsAfterFinished ?? 0);
  }
  return undefined;
}

/** endTime is always set on the normal path; a missing one (hand-edited status) counts as now, never a crash. */
function endTime(ctx: Context): Date {
  return parseKubeTime(ctx.status.endTime) ?? ctx.now;
}

function applyOnce(ctx: Context, policy: DeletionPolicyType, ttlSeconds: number): number | undefined {
  if (policy === 'DeleteNone') return undefined;
  const due = addSeconds(endTime(ctx), ttlSeconds);
  if (ctx.now.getTime() < due.getTime()) return secondsUntil(ctx, due);
  if (!policyDone(ctx, policy)) execute(ctx, policy);
  return undefined;
}

function applyDeletionRules(ctx: Context, rules: readonly DeletionRule[]): number | undefined {
  const { status } = ctx;
  const matching = rules.filter((r) =>
    r.condition.jobStatus !== undefined ? r.condition.jobStatus === status.jobStatus : r.condition.jobDeploymentStatus === status.jobDeploymentStatus,
  );
  let nextDue: Date | undefined;
  const overdue: DeletionRule[] = [];
  for (const rule of matching) {
    const due = addSeconds(endTime(ctx), rule.condition.ttlSeconds ?? 0);
    if (ctx.now.getTime() < due.getTime()) {
      if (!nextDue || due < nextDue) nextDue = due;
    } else if (!policyDone(ctx, rule.policy)) {
      overdue.push(rule);
    }
  }
  let chosen: DeletionRule | undefined;
  for (const rule of overdue) if (!chosen || IMPACT[rule.policy] > IMPACT[chosen.policy]) chosen = rule;
  if (chosen) {
    ctx.notes.push(`Executing the most impactful overdue deletion rule: ${chosen.policy}`);
    execute(ctx, chosen.policy);
  }
  // KubeRay executes one overdue rule per reconcile and then waits for a watch event; we come back soon for the
  // rest ourselves (a listed difference: no rule is left to chance).
  const moreOverdue = overdue.some((r) => r !== chosen && r.policy !== 'DeleteNone' && chosen?.policy !== 'DeleteSelf');
  const candidates = [nextDue ? secondsUntil(ctx, nextDue) : undefined, moreOverdue ? ctx.input.settings.requeueSeconds : undefined];
  const defined = candidates.filter((c): c is number => c !== undefined);
  return defined.length ? Math.min(...defined) : undefined;
}

/** Whether a policy's effect is already in place. */
function policyDone(ctx: Context, policy: DeletionPolicyType): boolean {
  const cluster = ctx.input.cluster;
  const gone = !cluster || cluster.metadata.deletionTimestamp !== undefined || ctx.clusterSelectorMode;
  switch (policy) {
    case 'DeleteCluster':
      return gone;
    case 'DeleteWorkers':
      return gone || (cluster?.spec?.workerGroupSpecs ?? []).every((g) => g.suspend === true);
    case 'DeleteSelf':
      return false;
    case 'DeleteNone':
      return true;
  }
}

function execute(ctx: Context, policy: DeletionPolicyType): void {
  const name = ctx.input.cluster?.metadata.name ?? ctx.status.rayClusterName ?? '';
  if (policy === 'DeleteCluster') ctx.actions.push({ type: 'deleteCluster', name });
  else if (policy === 'DeleteWorkers') ctx.actions.push({ type: 'suspendWorkerGroups', name });
  else if (policy === 'DeleteSelf') ctx.actions.push({ type: 'deleteRayJob' });
}

/** KubeRay requeues 2 s after the due time so the TTL has surely passed when it looks again. */
function secondsUntil(ctx: Context, due: Date): number {
  return Math.max(0, (due.getTime() - ctx.now.getTime()) / 1000) + 2;
}
