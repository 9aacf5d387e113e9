import { isJobDeploymentTerminal, type JobDeploymentStatus, type JobFailedReason, type JobStatus, type RayJob, type RayJobResourceStatus, type SubmissionMode } from '../schema/index.ts';
import type { Action, EventSpec } from './actions.ts';
import type { RunningEvidence } from './conditions/types.ts';
import type { DecisionInput, OperatorMemory } from './inputs.ts';
import { fallbackFailureMessage } from './messages.ts';
import { formatKubeTime } from '../go-text/time-format.ts';

export const RAYJOB_FINALIZER = 'ray.io/rayjob-finalizer';

/**
 * The working state of one decision: the input, a draft of the next status (mutated by the state handlers,
 * like KubeRay's in-memory copy), and the actions collected so far. Handlers return how the reconcile ends.
 */
export interface Context {
  input: DecisionInput;
  rayJob: RayJob;
  original: RayJobResourceStatus;
  status: RayJobResourceStatus;
  actions: Action[];
  memory: OperatorMemory;
  now: Date;
  nowText: string;
  mode: SubmissionMode;
  clusterSelectorMode: boolean;
  namespace: string;
  name: string;
  /** Why the decision came out as it did, for the reconcile log (KubeRay's log lines of note). */
  notes: string[];
  /** Running's JobRunning condition with its evidence, when the RayJob stays Running (see running/evidence.ts). */
  runningEvidence?: RunningEvidence | undefined;
  /** What a verdict's (KubeRay-worded) status message leaves out, for its Complete or Failed condition. */
  verdictEvidence?: string | undefined;
}

/** How a state handler ended the reconcile (KubeRay: `break` into the epilogue, or `return` early). */
export type Ending =
  /** Run the epilogue (counters, retry, status write) and requeue after the default interval or `requeueSeconds`. */
  | { kind: 'epilogue'; requeueSeconds?: number }
  /** Return without the epilogue; status may still be written if the handler changed it. */
  | { kind: 'return'; requeueSeconds: number | undefined };

export function createContext(input: DecisionInput): Context {
  const { rayJob } = input;
  // Two copies of one serialization: what the pass started from, and the draft it edits.
  const statusJson = JSON.stringify(rayJob.status ?? { succeeded: 0, failed: 0 });
  return {
    input,
    rayJob,
    original: JSON.parse(statusJson) as RayJobResourceStatus,
    status: JSON.parse(statusJson) as RayJobResourceStatus,
    actions: [],
    memory: copyJson(input.memory),
    now: input.now,
    nowText: formatKubeTime(input.now),
    mode: rayJob.spec.submissionMode ?? 'K8sJobMode',
    clusterSelectorMode: isClusterSelectorMode(rayJob),
    namespace: rayJob.metadata.namespace ?? 'default',
    name: rayJob.metadata.name ?? '',
    notes: [],
  };
}

/** Status and memory are plain JSON data (they come from the API server); a JSON copy is the cheapest deep copy. */
export function copyJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A non-empty clusterSelector selects an existing RayCluster (KubeRay uses only the `ray.io/cluster` key). */
export function isClusterSelectorMode(rayJob: RayJob): boolean {
  return Object.keys(rayJob.spec.clusterSelector ?? {}).length > 0;
}

export function emit(ctx: Context, event: EventSpec): void {
  ctx.actions.push({ type: 'emitEvent', event });
}

/** Moves the draft to a terminal or failed deployment status with a reason and message. */
export function transition(
  ctx: Context,
  to: JobDeploymentStatus,
  reason: JobFailedReason | undefined,
  message: string | undefined,
  jobStatus?: JobStatus,
): void {
  ctx.status.jobDeploymentStatus = to;
  if (reason === undefined) delete ctx.status.reason;
  else ctx.status.reason = reason;
  if (message !== undefined) ctx.status.message = message;
  if (jobStatus !== undefined) ctx.status.jobStatus = jobStatus;
  // Every Failed says why: Ray may give no message for a FAILED job, and the CR may hold none yet.
  if (to === 'Failed' && !ctx.status.message) ctx.status.message = fallbackFailureMessage(reason);
  // endTime marks the transition into a terminal state only (KubeRay re-stamps it on every later write: a
  // listed difference, since a moving endTime also moves every TTL computed from it).
  if (isJobDeploymentTerminal(to) && !isJobDeploymentTerminal(ctx.original.jobDeploymentStatus)) {
    ctx.status.endTime = ctx.nowText;
  }
}
