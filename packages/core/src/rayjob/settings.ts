/**
 * Every timer, window and switch the decision function reads. KubeRay reads most of these from environment
 * variables at use time; we take them as input so core stays pure and tests can shorten them.
 */
export interface FeatureGates {
  /** KubeRay's RayJobDeletionPolicy gate (Beta, on by default): deletionStrategy and worker-group suspend. */
  rayJobDeletionPolicy: boolean;
  /** KubeRay's SidecarSubmitterRestart gate (Alpha, off by default). */
  sidecarSubmitterRestart: boolean;
}

export interface DecisionSettings {
  /** Requeue interval while a RayJob is not terminal (KubeRay: 3 s). */
  requeueSeconds: number;
  /** RAYJOB_STATUS_CHECK_TIMEOUT_SECONDS (default 300): how long dashboard checks may keep failing. */
  statusCheckTimeoutSeconds: number;
  /** RAYJOB_DEPLOYMENT_STATUS_TRANSITION_GRACE_PERIOD_SECONDS (default 300) after Ray's end time. */
  transitionGracePeriodSeconds: number;
  /** How long after the submitter finished a non-terminal job may stay without evidence of life (KubeRay: 30 s). */
  submitterFinishedTimeoutSeconds: number;
  /** Addition F: how long the driver's node may be seen DEAD or missing before the RayJob fails (30 s). */
  driverLostAfterSeconds: number;
  /** DELETE_RAYJOB_CR_AFTER_JOB_FINISHES: shutdownAfterJobFinishes deletes the RayJob itself. */
  deleteRayJobAfterJobFinishes: boolean;
  /** ENABLE_LOGIN_SHELL: KubeRay's submitter script runs under `bash -cel`. */
  enableLoginShell: boolean;
  /** CLUSTER_DOMAIN (default cluster.local) for the dashboard URL. */
  clusterDomain: string;
  /** ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE: the RayJob head Service gets a ClusterIP instead of being headless. */
  enableRayHeadClusterIPService: boolean;
  /** The submitter image used when a RayJob gives no submitter template (ours, configurable). */
  submitterImage: string;
  /** The controller name this operator answers to in spec.managedBy (an unset value counts as ours). */
  managedBy: string;
  featureGates: FeatureGates;
}

export const DEFAULT_SUBMITTER_IMAGE = 'ghcr.io/rayjob/submitter:latest';

export const defaultDecisionSettings: DecisionSettings = {
  requeueSeconds: 3,
  statusCheckTimeoutSeconds: 300,
  transitionGracePeriodSeconds: 300,
  submitterFinishedTimeoutSeconds: 30,
  driverLostAfterSeconds: 30,
  deleteRayJobAfterJobFinishes: false,
  enableLoginShell: false,
  clusterDomain: 'cluster.local',
  enableRayHeadClusterIPService: false,
  submitterImage: DEFAULT_SUBMITTER_IMAGE,
  managedBy: 'ray.io/kuberay-operator',
  featureGates: { rayJobDeletionPolicy: true, sidecarSubmitterRestart: false },
};

/**
 * Reads KubeRay's environment variables with KubeRay's fallbacks: a non-integer status-check timeout or one
 * <= 0 falls back to 300; a non-integer grace period falls back to 300 (0 and negatives are kept, as KubeRay).
 * Pure: the caller passes the environment in.
 */
export function settingsFromEnv(env: Record<string, string | undefined>, base: DecisionSettings = defaultDecisionSettings): DecisionSettings {
  const int = (v: string | undefined): number | undefined => (v !== undefined && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : undefined);
  const statusCheck = int(env.RAYJOB_STATUS_CHECK_TIMEOUT_SECONDS);
  const grace = int(env.RAYJOB_DEPLOYMENT_STATUS_TRANSITION_GRACE_PERIOD_SECONDS);
  return {
    ...base,
    statusCheckTimeoutSeconds: statusCheck !== undefined && statusCheck > 0 ? statusCheck : 300,
    transitionGracePeriodSeconds: grace ?? 300,
    deleteRayJobAfterJobFinishes: (env.DELETE_RAYJOB_CR_AFTER_JOB_FINISHES ?? '').toLowerCase() === 'true',
    enableLoginShell: (env.ENABLE_LOGIN_SHELL ?? '').toLowerCase() === 'true',
    clusterDomain: env.CLUSTER_DOMAIN || base.clusterDomain,
    enableRayHeadClusterIPService: (env.ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE ?? '').toLowerCase() === 'true',
  };
}
