import type { ConditionStatus } from '@rayjob/kube-model';

/**
 * The RayJob's `status.conditions` types. Stable names: tools `kubectl wait --for=condition=<type>` on them.
 * They summarize what the KubeRay fields say (jobStatus, jobDeploymentStatus, reason, message stay as they are)
 * and add the evidence behind each decision in the message.
 */
export const RAYJOB_CONDITION_TYPES = {
  /** Mirrors the RayCluster's RayClusterProvisioned; False with the cluster's failure when it cannot create pods. */
  clusterProvisioned: 'RayClusterProvisioned',
  /** The RayCluster is ready (state ready, head pod ready). */
  clusterReady: 'RayClusterReady',
  /** Ray accepted the job (it reported the job at least once). */
  submitted: 'JobSubmitted',
  /** Ray runs the job, and why the RayJob believes so (or why it stays Running without a verdict). */
  running: 'JobRunning',
  /** The RayJob is Complete (present only then). */
  complete: 'Complete',
  /** The RayJob is Failed, with KubeRay's reason (present only then). */
  failed: 'Failed',
  suspended: 'Suspended',
} as const;
export type RayJobConditionType = (typeof RAYJOB_CONDITION_TYPES)[keyof typeof RAYJOB_CONDITION_TYPES];

/** The order conditions are listed in (a fixed order keeps equal statuses equal). */
export const RAYJOB_CONDITION_ORDER: readonly RayJobConditionType[] = Object.values(RAYJOB_CONDITION_TYPES);

/**
 * A condition as a decision computes it. `event`: announce a change of status or reason with one event of this
 * type (the note is the message); absent for the quiet starting states nobody needs to be told about.
 */
export interface ConditionDraft {
  type: RayJobConditionType;
  status: ConditionStatus;
  /** CamelCase, as metav1.Condition requires. */
  reason: string;
  message: string;
  event?: 'Normal' | 'Warning' | undefined;
}

/** `keep`: the decision has nothing new to say about this condition (e.g. the dashboard was not asked). */
export type RunningEvidence = ConditionDraft | 'keep';
