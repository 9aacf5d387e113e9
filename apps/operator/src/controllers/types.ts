import type { KubeClient, Logger, Manager } from '@rayjob/kube-runtime';
import type { OperatorConfig } from '../config/config.ts';
import type { SharedInformers } from '../runtime/shared-informers.ts';
import type { DashboardRoute } from './rayjob/dashboards.ts';

/** What every controller gets from main: configuration and the shared runtime. */
export interface ControllerContext {
  config: OperatorConfig;
  client: KubeClient;
  /**
   * The operator's kube-runtime manager: `manager.addController` registers the controller's work queue and
   * workers (run only while this replica leads, with controller-runtime's metric series under its name);
   * KubeRay's kuberay_* series register on `manager.metrics.registry` when config.enableMetrics is on.
   */
  manager: Manager;
  /** The manager's shared informers, one per watched namespace. */
  informers: SharedInformers;
  logger: Logger;
  /** How Ray dashboards are reached (direct DNS name, or the API server's service proxy). */
  dashboardRoute: DashboardRoute;
  /** This replica's identity (the Lease holder and events' reportingInstance). */
  identity: string;
}

export interface StartedController {
  /** Releases what the controller holds outside the API server (dashboard connections, log tails, queued events). */
  close(): Promise<void>;
}

/**
 * One controller of the operator (KubeRay's RayCluster, RayJob, ...). `setup` registers its informers, handlers
 * and controller with the manager; the manager starts the informers and, once this replica leads, the workers.
 */
export interface ControllerRegistration {
  /** KubeRay's controller name, used in logs and controller_runtime_* metric labels (e.g. "rayjob"). */
  name: string;
  setup(ctx: ControllerContext): StartedController;
}
