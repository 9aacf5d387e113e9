import type { OperatorConfig } from '../config/config.ts';

/**
 * What every controller gets from main: the parsed configuration and the shared runtime. The runtime field
 * grows as @rayjob/kube-runtime lands (informers, work queue, status writer, events, leader election).
 */
export interface ControllerContext {
  config: OperatorConfig;
  /** Aborted when the operator shuts down or loses the leader lease: stop reconciling at once. */
  signal: AbortSignal;
}

export interface StartedController {
  /** Finish in-flight reconciles, then release watches and timers. */
  stop(): Promise<void>;
}

/**
 * One controller of the operator (KubeRay's RayCluster, RayJob, ...). `start` registers its watches and
 * workers with the runtime and resolves once it is running.
 */
export interface ControllerRegistration {
  /** KubeRay's controller name, used in logs and controller_runtime_* metric labels (e.g. "rayjob"). */
  name: string;
  start(ctx: ControllerContext): Promise<StartedController>;
}
