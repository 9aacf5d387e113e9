// Settings shared by the kubelet's parts. Timers default to Kubernetes' values; tests shorten them.
import type { EventRecorder, KubeClient } from '@rayjob/kube-runtime';
import type { ImageCatalog } from './image-program.ts';
import type { HeartbeatTiming } from './node-heartbeat.ts';
import { defaultHeartbeatTiming } from './node-heartbeat.ts';
import type { PodNetwork } from './pod-network.ts';
import type { VolumeSources } from './volumes.ts';

export interface KubeletTiming extends HeartbeatTiming {
  /** First container restart back-off (Kubernetes: 10 s, doubling per restart). */
  restartBackoffBaseMs: number;
  /** Restart back-off cap (Kubernetes: 5 min). */
  restartBackoffMaxMs: number;
  /** Multiplies probe initialDelaySeconds/periodSeconds/timeoutSeconds (1 = real time). */
  probeTimeScale: number;
  /** How long a container shows ErrImagePull before ImagePullBackOff. */
  imagePullBackoffMs: number;
  /** Retry interval for missing ConfigMaps/Secrets (volumes, env). */
  configRetryMs: number;
}

export const defaultKubeletTiming: KubeletTiming = {
  ...defaultHeartbeatTiming,
  restartBackoffBaseMs: 10_000,
  restartBackoffMaxMs: 300_000,
  probeTimeScale: 1,
  imagePullBackoffMs: 1_000,
  configRetryMs: 1_000,
};

export interface KubeletDeps {
  client: KubeClient;
  nodeName: string;
  /** Sandbox directory: pod dirs under kubelet/pods/<uid>, logs under pod-logs/ (see log-paths.ts). */
  dir: string;
  images: ImageCatalog;
  network: PodNetwork;
  dns: { nameserver: string; clusterDomain: string };
  timing: KubeletTiming;
  tools: { ip: string; unshare: string; sh: string; nsenter: string };
  sources: VolumeSources;
  /** Environment every container starts from (PATH, HOME) before image and container env. */
  baseEnv: Record<string, string>;
  log: (message: string) => void;
  /** Events on pods, as the kubelet (source component "kubelet") reports them. */
  events: EventRecorder;
  /** True while the kubelet plays hung: no status reaches the API server (see Kubelet.freeze). */
  frozen: () => boolean;
  /** The `kubernetes` Service variables every container gets (empty when pods have no way to the API server). */
  serviceEnv: Record<string, string>;
  /** CA of the in-pod API endpoint: with it, pods get service-account files (token, ca.crt, namespace). */
  clusterCA: string | undefined;
}
