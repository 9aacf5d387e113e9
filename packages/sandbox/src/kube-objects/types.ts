// The slices of Kubernetes objects the sandbox's node side (kubelet, Job controller, DNS, controllers) reads and
// writes, as they travel over the wire (timestamps are RFC 3339 strings). Loose on purpose: unknown fields pass
// through untouched. Object metadata and lists are @rayjob/kube-model's (one definition for every client), watch
// events kube-runtime's.
export type { KubeObject, ObjectList, ObjectMeta, OwnerReference } from '@rayjob/kube-model';
export type { WatchEvent } from '@rayjob/kube-runtime';
import type { KubeObject, ObjectMeta } from '@rayjob/kube-model';

export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastProbeTime?: string | null;
}

export interface KeySelector { name?: string; key: string; optional?: boolean }

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    configMapKeyRef?: KeySelector;
    secretKeyRef?: KeySelector;
    fieldRef?: { fieldPath: string; apiVersion?: string };
    resourceFieldRef?: { resource: string; containerName?: string };
  };
}

export interface EnvFromSource {
  prefix?: string;
  configMapRef?: { name: string; optional?: boolean };
  secretRef?: { name: string; optional?: boolean };
}

export interface Probe {
  exec?: { command: string[] };
  httpGet?: { path?: string; port: number | string; host?: string; scheme?: string; httpHeaders?: Array<{ name: string; value: string }> };
  tcpSocket?: { port: number | string; host?: string };
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  successThreshold?: number;
  failureThreshold?: number;
}

export interface ContainerPort { name?: string; containerPort: number; protocol?: string }

export interface VolumeMount { name: string; mountPath: string; readOnly?: boolean; subPath?: string }

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  env?: EnvVar[];
  envFrom?: EnvFromSource[];
  workingDir?: string;
  ports?: ContainerPort[];
  volumeMounts?: VolumeMount[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  terminationMessagePath?: string;
  terminationMessagePolicy?: 'File' | 'FallbackToLogsOnError';
  resources?: unknown;
}

export interface KeyToPath { key: string; path: string; mode?: number }

export interface Volume {
  name: string;
  emptyDir?: Record<string, unknown>;
  hostPath?: { path: string; type?: string };
  configMap?: { name: string; items?: KeyToPath[]; optional?: boolean };
  secret?: { secretName: string; items?: KeyToPath[]; optional?: boolean };
  downwardAPI?: { items: Array<{ path: string; fieldRef?: { fieldPath: string } }> };
  projected?: {
    sources: Array<{
      serviceAccountToken?: { path: string; expirationSeconds?: number; audience?: string };
      configMap?: { name: string; items?: KeyToPath[]; optional?: boolean };
      secret?: { name: string; items?: KeyToPath[]; optional?: boolean };
      downwardAPI?: { items: Array<{ path: string; fieldRef?: { fieldPath: string } }> };
    }>;
  };
}

export interface PodSpec {
  nodeName?: string;
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  containers: Container[];
  initContainers?: Container[];
  volumes?: Volume[];
  terminationGracePeriodSeconds?: number;
  activeDeadlineSeconds?: number;
  serviceAccountName?: string;
  hostname?: string;
  subdomain?: string;
}

export interface ContainerStateWaiting { reason?: string; message?: string }
export interface ContainerStateRunning { startedAt?: string }
export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  containerID?: string;
}
export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  image: string;
  imageID: string;
  containerID?: string;
  ready: boolean;
  started?: boolean;
  restartCount: number;
  state: ContainerState;
  lastState: ContainerState;
}

export interface PodStatus {
  phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
  conditions?: Condition[];
  podIP?: string;
  podIPs?: Array<{ ip: string }>;
  hostIP?: string;
  hostIPs?: Array<{ ip: string }>;
  startTime?: string;
  reason?: string;
  message?: string;
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
}

export interface Pod extends KubeObject {
  spec: PodSpec;
  status?: PodStatus;
}

export interface PodFailurePolicyRule {
  action: 'FailJob' | 'Ignore' | 'Count' | 'FailIndex';
  onExitCodes?: { containerName?: string; operator: 'In' | 'NotIn'; values: number[] };
  onPodConditions?: Array<{ type: string; status?: string }>;
}

export interface JobSpec {
  template: { metadata?: ObjectMeta; spec: PodSpec };
  backoffLimit?: number;
  completions?: number | null;
  parallelism?: number;
  activeDeadlineSeconds?: number;
  suspend?: boolean;
  podFailurePolicy?: { rules: PodFailurePolicyRule[] };
  selector?: { matchLabels?: Record<string, string> };
  manualSelector?: boolean;
  ttlSecondsAfterFinished?: number;
}

export interface JobStatus {
  conditions?: Condition[];
  startTime?: string;
  completionTime?: string;
  active?: number;
  succeeded?: number;
  failed?: number;
  ready?: number;
  terminating?: number;
  uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
}

export interface Job extends KubeObject {
  spec: JobSpec;
  status?: JobStatus;
}

export interface ServicePort { name?: string; port: number; targetPort?: number | string; protocol?: string }

export interface Service extends KubeObject {
  spec: {
    selector?: Record<string, string>;
    clusterIP?: string;
    type?: string;
    ports?: ServicePort[];
    publishNotReadyAddresses?: boolean;
  };
}

export interface EndpointAddress {
  ip: string;
  hostname?: string;
  nodeName?: string;
  targetRef?: { kind: string; name: string; namespace: string; uid: string };
}

export interface EndpointSubset {
  addresses?: EndpointAddress[];
  notReadyAddresses?: EndpointAddress[];
  ports?: Array<{ name?: string; port: number; protocol?: string }>;
}

export interface Endpoints extends KubeObject {
  subsets?: EndpointSubset[];
}

export interface ConfigMap extends KubeObject {
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

export interface Secret extends KubeObject {
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  type?: string;
}

export interface NodeCondition extends Omit<Condition, 'lastProbeTime'> {
  lastHeartbeatTime?: string;
}

export interface Taint { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute'; timeAdded?: string }

export interface NodeStatus {
  conditions?: NodeCondition[];
  addresses?: Array<{ type: string; address: string }>;
  daemonEndpoints?: { kubeletEndpoint?: { Port: number } };
  capacity?: Record<string, string>;
  allocatable?: Record<string, string>;
  nodeInfo?: Record<string, string>;
}

export interface Node extends KubeObject {
  spec?: { taints?: Taint[]; unschedulable?: boolean; podCIDR?: string };
  status?: NodeStatus;
}

export interface Lease extends KubeObject {
  spec?: { holderIdentity?: string; leaseDurationSeconds?: number; renewTime?: string; acquireTime?: string };
}
