import type { KubeClient, Logger, RuntimeMetrics } from '@rayjob/kube-runtime';
import type { OperatorConfig } from '../config/config.ts';
import type { SharedInformers } from '../runtime/shared-informers.ts';
import type { DashboardRoute } from './rayjob/dashboards.ts';

/** What every controller gets from main: configuration and the shared runtime. */
export interface ControllerContext {
  config: OperatorConfig;
  client: KubeClient;
  informers: SharedInformers;
  logger: Logger;
  /** How Ray dashboards are reached (direct DNS name, or the API server's service proxy). */
  dashboardRoute: DashboardRoute;
  /** This replica's identity (the Lease holder and events' reportingInstance). */
  identity: string;
  /**
   * The operator's metrics registry (served on --metrics-addr): pass `metrics.controller(name, concurrency)` and
   * `metrics.queue(name, ...)` to createController for controller-runtime's series; KubeRay's kuberay_* series
   * register on `metrics.registry` when config.enableMetrics is on.
   */
  metrics: RuntimeMetrics;
}

export interface StartedController {
  /** Runs the workers until `signal` aborts (shutdown or lost lease); resolves after in-flight reconciles end. */
  run(signal: AbortSignal): Promise<void>;
  /** Releases what the controller holds outside the API server (dashboard connections, log tails). */
  close(): Promise<void>;
}

/**
 * One controller of the operator (KubeRay's RayCluster, RayJob, ...). `setup` registers its informers and
 * handlers with the shared runtime; main then starts the informers and, once this replica leads, `run`.
 */
export interface ControllerRegistration {
  /** KubeRay's controller name, used in logs and controller_runtime_* metric labels (e.g. "rayjob"). */
  name: string;
  setup(ctx: ControllerContext): StartedController;
}
