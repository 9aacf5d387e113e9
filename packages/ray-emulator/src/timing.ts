// Every delay the emulator plays, with real Ray's defaults (ray-jobs-api.md §3.5, §3.8, §5, §7).
// Tests shorten them; production use (the CLI) keeps Ray's values so clients meet real-world pacing.

export interface EmulatorTiming {
  /** Submit -> RUNNING (worker and supervisor actor start). Observed 2.5–5 s on a small VM. */
  pendingToRunningMs: number;
  /** The supervisor polls its child every 0.1 s: exit -> terminal status. */
  exitDetectMs: number;
  /** JobHead checks every 1 s whether a tailed job has a driver address yet. */
  tailAddressPollMs: number;
  /** The log tailer sleeps 1 s at end of file. */
  logPollMs: number;
  /** RAY_JOB_STOP_WAIT_TIME_S: SIGTERM -> SIGKILL grace. */
  stopGraceMs: number;
  /** RAY_JOB_START_TIMEOUT_SECONDS: PENDING -> FAILED (start timeout). */
  startTimeoutMs: number;
  /** How often PENDING jobs are re-checked for placement and the start timeout. */
  schedulerTickMs: number;
  /** killAgent: head node turns DEAD in the node table this long after the kill (observed within 3 s). */
  nodeDeathDelayMs: number;
  /** killSupervisor / killWorkerNode: supervisor death -> FAILED (observed ~1.3 s). */
  supervisorDeathMs: number;
  /** restartJobHead default outage (observed ≈1–2.5 s). */
  jobHeadRestartMs: number;
  /** A tail that negotiated permessage-deflate is closed 1000 (no frames) this long after the upgrade. */
  deflateTailCloseMs: number;
}

export const rayDefaultTiming: EmulatorTiming = {
  pendingToRunningMs: 2_500,
  exitDetectMs: 100,
  tailAddressPollMs: 1_000,
  logPollMs: 1_000,
  stopGraceMs: 3_000,
  startTimeoutMs: 900_000,
  schedulerTickMs: 1_000,
  nodeDeathDelayMs: 3_000,
  supervisorDeathMs: 1_300,
  jobHeadRestartMs: 2_000,
  deflateTailCloseMs: 3_000,
};

/** Short delays for tests: same order of events, milliseconds instead of seconds. */
export const fastTiming: EmulatorTiming = {
  pendingToRunningMs: 50,
  exitDetectMs: 10,
  tailAddressPollMs: 20,
  logPollMs: 20,
  stopGraceMs: 300,
  startTimeoutMs: 60_000,
  schedulerTickMs: 20,
  nodeDeathDelayMs: 100,
  supervisorDeathMs: 30,
  jobHeadRestartMs: 300,
  deflateTailCloseMs: 200,
};
