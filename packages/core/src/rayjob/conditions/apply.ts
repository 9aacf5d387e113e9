import { findCondition, removeCondition, setCondition } from '../../conditions/condition-set.ts';
import { isJobDeploymentTerminal, type Condition } from '../../schema/index.ts';
import type { EventSpec } from '../actions.ts';
import type { Context } from '../context.ts';
import { clusterConditions } from './cluster.ts';
import { runningConditionOutside, submittedCondition, suspendedCondition, terminalCondition, type JobFacts } from './job.ts';
import { RAYJOB_CONDITION_ORDER, RAYJOB_CONDITION_TYPES as T, type ConditionDraft } from './types.ts';

const VERDICT_TYPES: ReadonlySet<string> = new Set([T.complete, T.failed, T.running]);

/** events.k8s.io keeps at most 1 kB of a note; metav1.Condition 32 kB of a message. */
export const EVENT_NOTE_MAX = 1024;
const CONDITION_MESSAGE_MAX = 32768;

/**
 * Sets `status.conditions` from the decided status and the evidence gathered on the way, and returns one event
 * per condition whose status or reason changed (not per reconcile: an unchanged condition says nothing again).
 * lastTransitionTime moves only when a condition's status changes; foreign condition types are kept.
 */
export function applyConditions(ctx: Context): EventSpec[] {
  const { status } = ctx;
  const facts: JobFacts = {
    status,
    mode: ctx.mode,
    submitterJobExists: !!ctx.input.submitterJob,
    backoffLimit: ctx.rayJob.spec.backoffLimit ?? 0,
    verdictEvidence: ctx.verdictEvidence,
  };
  const before = ctx.original.conditions ?? [];
  // A finished RayJob's verdict was told with evidence only the deciding reconcile had: later ones keep its words.
  const settled = isJobDeploymentTerminal(ctx.original.jobDeploymentStatus) && ctx.original.jobDeploymentStatus === status.jobDeploymentStatus;
  // Once settled, the cluster conditions stay as the verdict left them: the cluster being deleted afterwards
  // (shutdownAfterJobFinishes, a deletion rule) is told by its own event and would otherwise cost one more status
  // write per RayJob, where KubeRay writes no status in a terminal state (kuberay-rayjob.md 2.3, Complete/Failed).
  const keepCluster = settled && !!findCondition(before, T.clusterProvisioned) && !!findCondition(before, T.clusterReady);
  const drafts: ConditionDraft[] = [
    ...(keepCluster ? [] : clusterConditions({ cluster: ctx.input.cluster, status, namespace: ctx.namespace, clusterSelectorMode: ctx.clusterSelectorMode })),
    submittedCondition(facts),
  ];
  const running = status.jobDeploymentStatus === 'Running' && ctx.runningEvidence ? ctx.runningEvidence : runningConditionOutside(facts);
  if (running !== 'keep') drafts.push(running);
  const terminal = terminalCondition(facts);
  if (terminal) drafts.push(terminal);
  drafts.push(suspendedCondition(facts));

  const generation = ctx.rayJob.metadata.generation;
  const next: Condition[] = before.map((c) => ({ ...c }));
  // Complete and Failed exist only while true (a retry or a restart from New takes them away).
  for (const type of [T.complete, T.failed]) {
    if (!drafts.some((d) => d.type === type)) removeCondition(next, type);
  }
  if (running === 'keep' && !findCondition(next, T.running)) drafts.push(runningConditionOutside(facts));
  const events: EventSpec[] = [];
  for (const draft of drafts) {
    const old = findCondition(before, draft.type);
    if (settled && old && old.status === draft.status && old.reason === draft.reason && VERDICT_TYPES.has(draft.type)) draft.message = old.message;
    const reason = conditionReason(draft.reason);
    const message = truncate(draft.message, CONDITION_MESSAGE_MAX);
    setCondition(next, { type: draft.type, status: draft.status, reason, message, ...(generation !== undefined && { observedGeneration: generation }) }, ctx.nowText);
    const changed = !old || old.status !== draft.status || old.reason !== reason;
    if (changed && draft.event) events.push({ type: draft.event, reason, action: draft.type, note: truncate(message, EVENT_NOTE_MAX) });
  }
  status.conditions = ordered(next);
  return events;
}

function ordered(conditions: Condition[]): Condition[] {
  const rank = (type: string): number => {
    const i = RAYJOB_CONDITION_ORDER.indexOf(type as (typeof RAYJOB_CONDITION_ORDER)[number]);
    return i < 0 ? RAYJOB_CONDITION_ORDER.length : i;
  };
  return [...conditions].sort((a, b) => rank(a.type) - rank(b.type));
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

/**
 * A reason metav1.Condition accepts: mirrored reasons (a container's waiting reason, the RayCluster's) are
 * CamelCase already; anything else is reduced to the characters the API server allows rather than refused.
 */
export function conditionReason(reason: string): string {
  const cleaned = reason.replace(/[^A-Za-z0-9_,:]/g, '').replace(/^[^A-Za-z]+/, '').replace(/[,:]+$/, '');
  return cleaned || 'Unknown';
}
