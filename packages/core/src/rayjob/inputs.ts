import type { RayJobStatus as RaySideStatus } from '../contracts/termination-message.ts';
import type { K8sJob, Pod, RayCluster, RayJob, Service } from '../schema/index.ts';
import type { DecisionSettings } from './settings.ts';

/** The Ray job as the dashboard reported it just now (`GET /api/jobs/<id>`). */
export interface DashboardJobInfo {
  status: RaySideStatus;
  message?: string | undefined;
  /** Ray's start and end times, ms since the epoch (0 or absent = not set). */
  startTime?: number | undefined;
  endTime?: number | undefined;
  driverNodeId?: string | undefined;
}

/**
 * What the dashboard said about the job this reconcile. `not-queried` means the operator did not ask (the
 * decision did not need it: see `plannedObservations`).
 */
export type DashboardObservation =
  | { kind: 'not-queried' }
  | { kind: 'found'; info: DashboardJobInfo }
  | { kind: 'not-found' }
  | { kind: 'unreachable'; reason: string };

/**
 * Liveness of the driver's node in `GET /nodes?view=summary`. `inconclusive` (an error or non-2xx answer) is
 * never read as dead (rule 4, addition F).
 */
export type DriverNodeObservation =
  | { kind: 'not-checked' }
  | { kind: 'alive'; nodeId: string }
  | { kind: 'dead'; nodeId: string }
  | { kind: 'missing'; nodeId: string }
  | { kind: 'inconclusive'; nodeId: string; reason: string };

/**
 * What the operator remembers between reconciles, in memory only (a restart forgets it, which can only delay a
 * verdict, never cause a wrong one). The decision returns the next value.
 */
export interface OperatorMemory {
  /** Addition F: since when (operator's clock) the driver's node has been seen DEAD or missing. */
  driverNodeLostSince?: { jobId: string; nodeId: string; since: string } | undefined;
  /** HTTPMode: the last submission attempt failed (the executor records it); counts as a failed status check. */
  submitFailure?: { jobId: string; at: string; message: string } | undefined;
  /** Addition C: Ray acknowledged a stop of this job (`stopped: true`). */
  stopAcknowledged?: { jobId: string } | undefined;
  /**
   * The last status Ray reported for this job, or PENDING once Ray accepted our HTTPMode submission. A job once
   * seen is never submitted again (addition H): after a lost status write the CR may still say `""`, memory does
   * not. The same reconcile's status write also records PENDING for an accepted submission (the decision's `onAccept`),
   * so an operator restart forgets nothing but the milliseconds between Ray's answer and that write.
   */
  rayJobSeen?: { jobId: string; status: RaySideStatus } | undefined;
  /**
   * Addition C, under a terminal RayJob: nothing is left to stop for this job (Ray reported it terminal or does
   * not know it, acknowledged the stop of a PENDING job, or its cluster is gone), so the dashboard need not be
   * asked again.
   */
  rayJobSettled?: { jobId: string } | undefined;
  /** Addition H: the submitter-state ConfigMap holds this attach-only key (written by the executor). */
  attachOnlyMarked?: { key: string } | undefined;
  /** K8sJobMode: the submitter-state ConfigMap holds this head-IP key (written by the executor, never overwritten). */
  submitterHeadRecorded?: { key: string } | undefined;
}

export interface DecisionInput {
  rayJob: RayJob;
  /** The RayCluster named `status.rayClusterName`, if it exists. */
  cluster?: RayCluster | undefined;
  /** The RayCluster's own head Service (`<cluster>-head-svc` or headService.name): gives the dashboard port. */
  clusterHeadService?: Service | undefined;
  /** The RayJob's head Service `<rayjob>-head-svc`, if it exists. */
  rayJobHeadService?: Service | undefined;
  /** K8sJobMode: the submitter Job `<ns>/<rayjob name>`, if it exists. */
  submitterJob?: K8sJob | undefined;
  /** K8sJobMode: the submitter Job's pods (for the submitter's termination message). */
  submitterPods?: Pod[] | undefined;
  /** The cluster's head pods (`ray.io/cluster=<name>`, `ray.io/node-type=head`). */
  headPods?: Pod[] | undefined;
  dashboard: DashboardObservation;
  driverNode: DriverNodeObservation;
  memory: OperatorMemory;
  settings: DecisionSettings;
  now: Date;
  /** Randomness for name suffixes, in [0, 1) like Math.random. */
  random: () => number;
}
