/** What a conformance scenario runs against: a real Ray head, the emulator, or Ray in a container. */

export type TargetKind = 'real' | 'emulator' | 'container';

/** The faults every target can inject, each the same observable event on both sides. */
export type TargetFaults = {
  /** The JobHead subprocess dies and the dashboard restarts it. */
  restartJobHead(): Promise<void>;
  /** The head node's DashboardAgent dies (its raylet fate-shares with it). */
  killAgent(): Promise<void>;
  /** The dashboard process dies. */
  stopDashboard(): Promise<void>;
};

export type Target = {
  kind: TargetKind;
  url: string;
  /** Set when the target runs with Ray's token auth. */
  authToken?: string;
  faults: TargetFaults;
  stop(): Promise<void>;
};
