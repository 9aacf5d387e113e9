// A scenario is data: the RayJob to apply, the steps that drive it (wait for a condition, trigger a fault,
// hold a state for a while) and the outcome to assert. Drivers carry it out; the runner prints a timeline.

export type SubmissionMode = 'K8sJobMode' | 'SidecarMode' | 'HTTPMode' | 'InteractiveMode';

/** The RayJob a scenario applies (see manifests.ts for how each knob becomes KubeRay's fields). */
export interface RayJobShape {
  mode: SubmissionMode;
  /** Steps the job prints; with stepSeconds, how long it runs. */
  steps: number;
  stepSeconds: number;
  /** Exit code of the entrypoint after its steps (non-zero: the Ray job FAILED). */
  exitCode?: number;
  /** An entrypoint that fails on its first `failFirst` attempts (a file on the head counts them). */
  failFirst?: number;
  workers?: number;
  shutdownAfterJobFinishes?: boolean;
  ttlSecondsAfterFinished?: number;
  submitterBackoffLimit?: number;
  backoffLimit?: number;
  activeDeadlineSeconds?: number;
  /**
   * A submitter template running our submitter image with `--no-wait`: it exits 0 right after submitting, while
   * the job runs on (what `ray job submit` does after a JobHead restart closes its tail).
   */
  submitterNoWait?: boolean;
  /** An entrypoint given verbatim instead of the steps loop (quoting cases). */
  entrypoint?: string;
  /**
   * The head's own readiness probe (KubeRay keeps a probe the user set): the same endpoint as KubeRay's default,
   * checked from 1 s after start every 2 s instead of from 10 s every 5 s, with the same ~50 s to turn unready.
   */
  promptHeadReadiness?: boolean;
  /** The head group's rayStartParams (default none). */
  headStartParams?: Record<string, string>;
}


/** What a person does to the cluster mid-job, by the names the manual tests use. */
export type FaultName =
  | 'deleteSubmitterPod'
  | 'deleteSubmitterJob'
  | 'killJobHead'
  | 'killDashboardAgent'
  | 'forceDeleteHeadPod'
  | 'deleteHeadPod'
  | 'stopOperator'
  | 'startOperator'
  | 'suspend'
  | 'resume';

/** A condition over one observation (see run/observe.ts); every field given must hold. */
export interface Condition {
  deploymentStatus?: string;
  jobStatus?: string;
  /** The job printed at least this many of its steps. */
  progressAtLeast?: number;
  /** The submitter (Job's pod or sidecar) has exited, with any code. */
  submitterExited?: boolean;
  /** A submitter is there and neither exited nor terminating (false: none, or the one there is going). */
  submitterPresent?: boolean;
  /** The RayCluster exists (true) or is gone (false). */
  clusterExists?: boolean;
  /** Any attempt was counted as failed at least this many times (status.failed). */
  failedAtLeast?: number;
}

export type Step =
  | { kind: 'wait'; until: Condition; timeoutSeconds: number }
  | { kind: 'fault'; fault: FaultName }
  | { kind: 'hold'; seconds: number; while: Condition }
  /**
   * InteractiveMode's user: submit the job to the head's dashboard (`ray job submit` through a port-forward),
   * then `kubectl patch rayjob --type merge -p '{"spec":{"jobId":...}}'` to hand its submission ID to the RayJob.
   */
  | { kind: 'submitByHand' };

/** A final status. */
export interface Outcome {
  deploymentStatus: string;
  jobStatus?: string;
  reason?: string;
  /**
   * status.message: a string is the whole message, exactly; a pattern is for messages that carry a time or a
   * log tail (KubeRay's deadline texts, Ray's "failed with exit code" text).
   */
  message?: string | RegExp;
  succeeded?: number;
  failed?: number;
  /** Lines the Ray job's logs must contain (read through the dashboard before the cluster goes). */
  logsContain?: string[];
  /** Ray's own last status of the job as the dashboard last reported it (e.g. STOPPED after a deadline). */
  rayStatus?: string;
  /** At most this many submitter pods were ever seen (addition H: no retries of a finished job). */
  submitterPodsAtMost?: number;
}

/** What a scenario asserts: the exact jobStatus, deploymentStatus, reason and message, never "any". */
export interface ExpectedOutcome extends Outcome {
  /** '' where the RayJob has no job status (InteractiveMode before a job ID is given). */
  jobStatus: string;
  /** '' unless the RayJob Failed (KubeRay sets a reason only then). */
  reason: string;
  message: string | RegExp;
}

export interface Scenario {
  /** C1..C25 for the status-correctness cases, or `lifecycle-<mode>`. */
  id: string;
  title: string;
  mode: SubmissionMode;
  rayJob: RayJobShape;
  steps: Step[];
  expect: ExpectedOutcome;
  /** The RayCluster must still exist when the Ray job is last seen running (never deleted under a live job). */
  clusterKeptWhileRunning: true;
  /** After the terminal status: the cluster is deleted (shutdownAfterJobFinishes) or kept. */
  clusterAfter: 'deleted' | 'kept' | 'any';
  /** How many times the Ray job may be submitted per attempt (1 = never twice). */
  runsPerAttempt: 1;
  /**
   * KubeRay's outcome for the same input, from the reference (kuberay-rayjob.md, kuberay-issues.md,
   * status-correctness.md), with where the reference says so in `note`. Every scenario exercises something KubeRay
   * gets wrong: `expect` must be an outcome KubeRay's would fail (test/scenario-data.test.ts checks it).
   */
  kuberay: Outcome & { note: string };
  /** Bound for the whole scenario (seconds). */
  timeoutSeconds: number;
  /** Needs abilities only some drivers have (e.g. in-process operator restarts). */
  needs?: Array<'operatorRestart' | 'realRay'>;
}
