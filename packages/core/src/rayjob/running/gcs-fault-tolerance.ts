import { gcsFaultToleranceEnv, isGcsFaultToleranceEnabled, WORKER_GCS_RECONNECT_TIMEOUT_SECONDS } from '../../builders/raycluster/gcs-fault-tolerance.ts';
import type { RayCluster } from '../../schema/index.ts';
import type { DecisionSettings } from '../settings.ts';

/**
 * GCS fault tolerance seen from a RayJob (compatibility.md S7-2): with the cluster's GCS kept in Redis, a head that
 * is replaced comes back knowing its jobs, and Ray itself gives the verdict on a job whose supervisor died with the
 * old head (FAILED). So while the head is being replaced the RayJob waits for Ray instead of concluding from
 * silence or from the old head's dead node: the status-check timeout (rule 1), the submitter-finished timeout
 * (rule 4) and the driver-lost wait (addition F) each last at least the cluster's GCS reconnect timeout, the time
 * KubeRay gives Ray's workers to find the new GCS. A job the new head does not know is still lost with its head
 * (addition H), and nothing is submitted again.
 */

export interface GcsFaultToleranceView {
  /** How long Ray's nodes wait for a GCS that is coming back: the longest the RayJob waits for the new head. */
  reconnectTimeoutSeconds: number;
}

/** The cluster's GCS FT, if on: its workers' `RAY_gcs_rpc_server_reconnect_timeout_s` (the largest), else KubeRay's 600. */
export function gcsFaultToleranceOf(cluster: RayCluster | undefined): GcsFaultToleranceView | undefined {
  if (!cluster || !isGcsFaultToleranceEnabled(cluster)) return undefined;
  const set = (cluster.spec.workerGroupSpecs ?? [])
    .flatMap((g) => g.template.spec?.containers?.[0]?.env ?? [])
    .filter((e) => e.name === gcsFaultToleranceEnv.reconnectTimeout && /^\d+$/.test(e.value ?? ''))
    .map((e) => Number(e.value));
  return { reconnectTimeoutSeconds: set.length > 0 ? Math.max(...set) : WORKER_GCS_RECONNECT_TIMEOUT_SECONDS };
}

/** The decision settings with FT's waits: none shorter than the reconnect timeout. */
export function withGcsFaultToleranceWaits(settings: DecisionSettings, ft: GcsFaultToleranceView | undefined): DecisionSettings {
  if (!ft) return settings;
  const atLeast = (seconds: number) => Math.max(seconds, ft.reconnectTimeoutSeconds);
  return {
    ...settings,
    statusCheckTimeoutSeconds: atLeast(settings.statusCheckTimeoutSeconds),
    submitterFinishedTimeoutSeconds: atLeast(settings.submitterFinishedTimeoutSeconds),
    driverLostAfterSeconds: atLeast(settings.driverLostAfterSeconds),
  };
}
