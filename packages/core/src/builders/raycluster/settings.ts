import type { Container, EnvVar } from '../../schema/index.ts';

/**
 * The operator switches that change how KubeRay builds a RayCluster's Pods and Services and how it reconciles
 * them. KubeRay reads them from environment variables and feature gates at use time; here they are input, so the
 * builders stay pure. `rayClusterSettingsFromEnv` applies KubeRay's parsing of those variables.
 */
export interface RayClusterFeatureGates {
  /** Beta, on: status conditions and the two-step (Suspending -> Suspended) suspension. */
  rayClusterStatusConditions: boolean;
  /** Beta, on: permits worker-group `suspend`. */
  rayJobDeletionPolicy: boolean;
  /**
   * Beta, on: `ray.io/worker-group-replica-index` labels (lowest free index per created worker); groups with
   * numOfHosts > 1 are reconciled as atomic replicas of numOfHosts Pods.
   */
  rayMultiHostIndexing: boolean;
}

/**
 * What KubeRay's operator configuration file (`--config`) adds to every Ray Pod: sidecars appended to the head's or
 * workers' containers, env vars the Ray container lacks, labels and annotations the template lacks (the CR wins).
 */
export interface RayPodDefaults {
  headSidecarContainers: Container[];
  workerSidecarContainers: Container[];
  defaultContainerEnvs: EnvVar[];
  defaultPodAnnotations: Record<string, string>;
  defaultPodLabels: Record<string, string>;
}

export interface RayClusterSettings {
  /** CLUSTER_DOMAIN (cluster.local). */
  clusterDomain: string;
  /** ENABLE_INIT_CONTAINER_INJECTION (on unless "false"): the workers' wait-gcs-ready init container. */
  enableInitContainerInjection: boolean;
  /** ENABLE_PROBES_INJECTION (on unless "false"). */
  enableProbesInjection: boolean;
  /** ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE (off): the head Service gets a ClusterIP instead of being headless. */
  enableRayHeadClusterIPService: boolean;
  /** ENABLE_LOGIN_SHELL: Ray containers run `bash -lc`. */
  enableLoginShell: boolean;
  /** ENABLE_DETERMINISTIC_HEAD_POD_NAME: head Pod named `<cluster>-head` instead of generateName. */
  deterministicHeadPodName: boolean;
  /** ENABLE_RANDOM_POD_DELETE: scale-down deletes Pods even when the autoscaler is on. */
  enableRandomPodDelete: boolean;
  /** ENABLE_GCS_FT_REDIS_CLEANUP (on unless "false"): the Redis-cleanup finalizer and Job of GCS-FT clusters. */
  enableGcsFtRedisCleanup: boolean;
  /** The version written in RAY_USAGE_STATS_EXTRA_TAGS and the `ray.io/kuberay-version` annotation. */
  kuberayVersion: string;
  /** How long a recorded Pod creation may stay unseen in the cache before the group is reconciled again (30 s). */
  expectationsTimeoutSeconds: number;
  featureGates: RayClusterFeatureGates;
  /** KubeRay's configuration-file Pod defaults; none when absent. */
  podDefaults?: RayPodDefaults;
}

export const defaultRayClusterSettings: RayClusterSettings = {
  clusterDomain: 'cluster.local',
  enableInitContainerInjection: true,
  enableProbesInjection: true,
  enableRayHeadClusterIPService: false,
  enableLoginShell: false,
  deterministicHeadPodName: false,
  enableRandomPodDelete: false,
  enableGcsFtRedisCleanup: true,
  kuberayVersion: 'nightly',
  expectationsTimeoutSeconds: 30,
  featureGates: { rayClusterStatusConditions: true, rayJobDeletionPolicy: true, rayMultiHostIndexing: true },
};

/** KubeRay's parsing of its environment: "false" (any case) turns an on-by-default switch off, "true" turns one on. */
export function rayClusterSettingsFromEnv(
  env: Record<string, string | undefined>,
  base: RayClusterSettings = defaultRayClusterSettings,
): RayClusterSettings {
  const isTrue = (name: string) => (env[name] ?? '').toLowerCase() === 'true';
  const isFalse = (name: string) => (env[name] ?? '').toLowerCase() === 'false';
  return {
    ...base,
    clusterDomain: env.CLUSTER_DOMAIN || base.clusterDomain,
    enableInitContainerInjection: !isFalse('ENABLE_INIT_CONTAINER_INJECTION'),
    enableProbesInjection: !isFalse('ENABLE_PROBES_INJECTION'),
    enableRayHeadClusterIPService: isTrue('ENABLE_RAY_HEAD_CLUSTER_IP_SERVICE'),
    enableLoginShell: isTrue('ENABLE_LOGIN_SHELL'),
    deterministicHeadPodName: isTrue('ENABLE_DETERMINISTIC_HEAD_POD_NAME'),
    enableRandomPodDelete: isTrue('ENABLE_RANDOM_POD_DELETE'),
    enableGcsFtRedisCleanup: !isFalse('ENABLE_GCS_FT_REDIS_CLEANUP'),
  };
}

/** Labels and annotations of the RayCluster controller (KubeRay's keys). */
export const rayClusterLabelKeys = {
  isRayNode: 'ray.io/is-ray-node',
  group: 'ray.io/group',
  replicaIndex: 'ray.io/worker-group-replica-index',
  /** Multi-host groups: `<group>-<5 chars>`, shared by the numOfHosts Pods of one replica. */
  replicaName: 'ray.io/worker-group-replica-name',
  /** Multi-host groups: 0..numOfHosts-1 within the replica. */
  hostIndex: 'ray.io/replica-host-index',
  headlessWorkerService: 'ray.io/headless-worker-svc',
  serve: 'ray.io/serve',
} as const;

export const rayClusterAnnotationKeys = {
  ftEnabled: 'ray.io/ft-enabled',
  overwriteContainerCmd: 'ray.io/overwrite-container-cmd',
  upgradeStrategyHash: 'ray.io/upgrade-strategy-recreate-hash',
  kuberayVersion: 'ray.io/kuberay-version',
  enableServeService: 'ray.io/enable-serve-service',
} as const;

export const HEAD_GROUP_LABEL_VALUE = 'headgroup';
export const DEFAULT_HEAD_PORT = '6379';
export const WAIT_GCS_READY_CONTAINER = 'wait-gcs-ready';
