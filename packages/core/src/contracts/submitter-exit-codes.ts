/**
 * The submitter's exit codes: the contract between `ray-job-submitter` and whoever reads its container status
 * (our operator's decision function, or upstream KubeRay's Job backoff). Chosen so that upstream KubeRay also does
 * the right thing with our image: 0 only for outcomes `ray job submit` reports as success.
 */
export const SubmitterExitCode = {
  /** The Ray job SUCCEEDED or was STOPPED (as `ray job submit`). */
  Succeeded: 0,
  /** The Ray job FAILED. */
  JobFailed: 1,
  /** Bad usage or input, or a request the dashboard rejected (400/401/403/405). */
  Rejected: 2,
  /** The job is not found after it was seen: the head was lost. */
  HeadLost: 3,
  /** The dashboard stayed unreachable past --max-unreachable, or GCS never became healthy in --health-timeout. */
  Unreachable: 4,
  /** Ray says RUNNING but the driver's node has been DEAD or missing for --driver-lost-after. */
  DriverLost: 5,
  /**
   * Attach-only mode (--attach-only / RAYJOB_SUBMITTER_ATTACH_ONLY=true) and Ray does not know the submission ID:
   * the submitter was told the job had been seen, so it is gone with its head. Nothing was submitted.
   */
  AttachTargetMissing: 6,
  /** A bug or an unexpected state in the submitter itself; never 1, so it is never read as a job failure. */
  InternalError: 70,
  /** Interrupted by SIGINT (128 + 2). The Ray job is left running. */
  Interrupted: 130,
  /** Terminated by SIGTERM (128 + 15). The Ray job is left running. */
  Terminated: 143,
} as const;

export type SubmitterExitCodeName = keyof typeof SubmitterExitCode;
export type SubmitterExitCodeValue = (typeof SubmitterExitCode)[SubmitterExitCodeName];

/** Exit codes that report the Ray job's fate or a lost head: a retry of the submitter cannot change them (addition H). */
export const FINAL_SUBMITTER_EXIT_CODES: readonly number[] = [
  SubmitterExitCode.JobFailed,
  SubmitterExitCode.HeadLost,
  SubmitterExitCode.Unreachable,
  SubmitterExitCode.DriverLost,
  SubmitterExitCode.AttachTargetMissing,
];

export function exitCodeName(code: number): SubmitterExitCodeName | undefined {
  return (Object.keys(SubmitterExitCode) as SubmitterExitCodeName[]).find((k) => SubmitterExitCode[k] === code);
}
