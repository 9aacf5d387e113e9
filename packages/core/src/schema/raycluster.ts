import { z } from 'zod';
import { ConditionSchema, int32, int64, kubernetesObject, ManagedBySchema, ObjectMetaSchema, quantity, stringMap, time } from '@rayjob/kube-model';
import { PodTemplateSpecSchema } from './pod.ts';
import { ServiceSchema } from './service.ts';

/**
 * ray.io/v1 RayCluster, every spec and status field of KubeRay's v1 CRD with its defaults and enums.
 * Kubernetes-native sub-objects (Service, SecurityContext, EnvVarSource, NetworkPolicy rules, IngressTLS) are
 * carried as they are by zod; the CRD declares each with its Kubernetes type's full schema.
 */

export const UPGRADE_STRATEGY_TYPES = ['Recreate', 'None'] as const;
export const AUTH_MODES = ['disabled', 'token'] as const;
export const GCS_FT_BACKENDS = ['redis', 'rocksdb'] as const;
export const GCS_STORAGE_DELETION_POLICIES = ['DeleteWithCluster', 'Retain'] as const;
export const NETWORK_POLICY_MODES = ['DenyAll', 'DenyAllIngress', 'DenyAllEgress'] as const;
export const INGRESS_PATH_TYPES = ['Exact', 'Prefix', 'ImplementationSpecific'] as const;
export const UPSCALING_MODES = ['Default', 'Aggressive', 'Conservative'] as const;
export const AUTOSCALER_VERSIONS = ['v1', 'v2'] as const;
/** RayCluster status.state values KubeRay writes today; the schema takes any string (older operators wrote others). */
export const CLUSTER_STATES = ['ready', 'failed', 'suspended'] as const;

export const AuthOptionsSchema = z.looseObject({
  enableK8sTokenAuth: z.boolean().optional(),
  secretName: z.string().optional(),
  mode: z.enum(AUTH_MODES).optional(),
});
export type AuthOptions = z.infer<typeof AuthOptionsSchema>;

const RedisCredentialSchema = z.looseObject({
  valueFrom: kubernetesObject('io.k8s.api.core.v1.EnvVarSource').optional(),
  value: z.string().optional(),
});

export const GcsFaultToleranceOptionsSchema = z.looseObject({
  backend: z
    .enum(GCS_FT_BACKENDS)
    .meta({
      'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'gcsFaultToleranceOptions.backend is immutable' }],
    })
    .optional(),
  redisUsername: RedisCredentialSchema.optional(),
  redisPassword: RedisCredentialSchema.optional(),
  externalStorageNamespace: z.string().optional(),
  redisAddress: z.string().optional(),
  storage: z
    .looseObject({
      claimName: z.string().optional(),
      size: quantity().optional(),
      storageClassName: z.string().optional(),
      accessModes: z.array(z.string()).optional(),
      subPath: z.string().optional(),
      deletionPolicy: z.enum(GCS_STORAGE_DELETION_POLICIES).optional(),
    })
    .optional(),
});
export type GcsFaultToleranceOptions = z.infer<typeof GcsFaultToleranceOptionsSchema>;

export const AutoscalerOptionsSchema = z.looseObject({
  resources: kubernetesObject('io.k8s.api.core.v1.ResourceRequirements').optional(),
  image: z.string().optional(),
  imagePullPolicy: z.string().optional(),
  securityContext: kubernetesObject('io.k8s.api.core.v1.SecurityContext').optional(),
  idleTimeoutSeconds: int32().optional(),
  upscalingMode: z.enum(UPSCALING_MODES).optional(),
  version: z.enum(AUTOSCALER_VERSIONS).optional(),
  env: z.array(kubernetesObject('io.k8s.api.core.v1.EnvVar')).optional(),
  envFrom: z.array(kubernetesObject('io.k8s.api.core.v1.EnvFromSource')).optional(),
  volumeMounts: z.array(kubernetesObject('io.k8s.api.core.v1.VolumeMount')).optional(),
  command: z.array(z.string()).optional(),
  args: z.array(z.string()).optional(),
});
export type AutoscalerOptions = z.infer<typeof AutoscalerOptionsSchema>;

const NetworkPolicyRulesShape = {
  ingressRules: z.array(kubernetesObject('io.k8s.api.networking.v1.NetworkPolicyIngressRule')).optional(),
  egressRules: z.array(kubernetesObject('io.k8s.api.networking.v1.NetworkPolicyEgressRule')).optional(),
};

export const NetworkPolicyConfigSchema = z.looseObject({
  mode: z.enum(NETWORK_POLICY_MODES).default('DenyAll'),
  head: z.looseObject(NetworkPolicyRulesShape).optional(),
  worker: z.looseObject(NetworkPolicyRulesShape).optional(),
  workerGroups: z
    .array(z.looseObject({ groupName: z.string(), ...NetworkPolicyRulesShape }))
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['groupName'] })
    .optional(),
});
export type NetworkPolicyConfig = z.infer<typeof NetworkPolicyConfigSchema>;

export const HistoryServerOptionsSchema = z.looseObject({
  collectorOptions: z
    .looseObject({
      image: z.string().optional(),
      imagePullPolicy: z.string().optional(),
      resources: kubernetesObject('io.k8s.api.core.v1.ResourceRequirements').optional(),
      env: z.array(kubernetesObject('io.k8s.api.core.v1.EnvVar')).optional(),
    })
    .optional(),
});

export const IngressOptionsSchema = z.looseObject({
  host: z.string().optional(),
  path: z.string().optional(),
  pathType: z.enum(INGRESS_PATH_TYPES).optional(),
  tls: z.array(kubernetesObject('io.k8s.api.networking.v1.IngressTLS')).optional(),
});

/** The optional head Service override: a whole core/v1 Service (the CRD declares Kubernetes' full Service schema). */
export const HeadServiceSchema = ServiceSchema.partial({ metadata: true }).meta({
  'x-rayjob-crd': { kubernetes: 'io.k8s.api.core.v1.Service' },
});

// Field descriptions are ours (kubectl explain shows them); none is copied from KubeRay or Kubernetes.
const RAY_RESOURCES = 'Ray resources these nodes advertise, overriding what Ray detects from the container.';
const RAY_LABELS = 'Ray node labels of these nodes.';
const RAY_START_PARAMS = 'Options for `ray start` on these Pods, by name without leading dashes.';

export const HeadGroupSpecSchema = z.looseObject({
  template: PodTemplateSpecSchema.describe('Pod template of the head; its first container runs the Ray head.'),
  headService: HeadServiceSchema.optional().describe('A Service to create as the head Service instead of the generated one.'),
  enableIngress: z.boolean().optional().describe('Create an Ingress to the head\'s dashboard.'),
  ingressOptions: IngressOptionsSchema.optional().describe('Host, path and TLS of that Ingress.'),
  resources: stringMap().optional().describe(RAY_RESOURCES),
  labels: stringMap().optional().describe(RAY_LABELS),
  rayStartParams: stringMap().optional().describe(RAY_START_PARAMS),
  serviceType: z.string().optional().describe('Type of the head Service: ClusterIP, NodePort or LoadBalancer.'),
});
export type HeadGroupSpec = z.infer<typeof HeadGroupSpecSchema>;

export const WorkerGroupSpecSchema = z
  .looseObject({
    suspend: z.boolean().optional().describe('While true, the group has no Pods.'),
    groupName: z.string().describe('Name of the group, unique within the cluster (the ray.io/group label of its Pods).'),
    replicas: int32().default(0).describe('How many replicas the group should have, kept between minReplicas and maxReplicas.'),
    minReplicas: int32().default(0).describe('The fewest replicas the autoscaler keeps.'),
    maxReplicas: int32().default(2147483647).describe('The most replicas the autoscaler creates.'),
    idleTimeoutSeconds: int32().optional().describe('Seconds a worker may stay idle before the autoscaler (v2) removes it.'),
    priority: int32().default(0),
    resources: stringMap().optional().describe(RAY_RESOURCES),
    labels: stringMap().optional().describe(RAY_LABELS),
    rayStartParams: stringMap().optional().describe(RAY_START_PARAMS),
    template: PodTemplateSpecSchema.describe('Pod template of the group\'s workers; its first container runs Ray.'),
    scaleStrategy: z
      .looseObject({ workersToDelete: z.array(z.string()).optional() })
      .optional()
      .describe('workersToDelete: names of worker Pods to remove, written by the autoscaler.'),
    numOfHosts: int32().default(1).describe('Pods per replica (one multi-host replica, e.g. a TPU slice, spans several).'),
  })
  // KubeRay's CRD lists min/maxReplicas as required although both have defaults; the schema says the same.
  .meta({ 'x-rayjob-crd': { required: ['minReplicas', 'maxReplicas'] } });
export type WorkerGroupSpec = z.infer<typeof WorkerGroupSpecSchema>;

export const RayClusterSpecSchema = z.looseObject({
  upgradeStrategy: z
    .looseObject({ type: z.enum(UPGRADE_STRATEGY_TYPES).optional() })
    .optional()
    .describe('What a changed pod template does to running Pods: Recreate replaces them, None leaves them.'),
  authOptions: AuthOptionsSchema.optional().describe('Authentication of the Ray dashboard and APIs (mode token: clients present a token kept in a Secret).'),
  suspend: z.boolean().optional().describe('While true, the cluster has no Pods; set back to false to create them again.'),
  managedBy: ManagedBySchema.optional().describe('The controller in charge of this RayCluster; unset means ray.io/kuberay-operator. Cannot change after creation.'),
  autoscalerOptions: AutoscalerOptionsSchema.optional().describe('The autoscaler container added to the head Pod when enableInTreeAutoscaling is true.'),
  headServiceAnnotations: stringMap().optional().describe('Annotations of the head Service.'),
  enableInTreeAutoscaling: z.boolean().optional().describe('Run the Ray autoscaler beside the head, scaling each worker group between its bounds.'),
  gcsFaultToleranceOptions: GcsFaultToleranceOptionsSchema.optional().describe(
    'Keep the head\'s GCS state in Redis or on a volume, so a restarted head finds the cluster again.',
  ),
  historyServerOptions: HistoryServerOptionsSchema.optional().describe('A collector container that ships logs and events to the Ray history server.'),
  networkPolicy: NetworkPolicyConfigSchema.optional().describe('NetworkPolicies for the cluster\'s Pods: the default denial and extra rules per node type or group.'),
  tlsOptions: z.looseObject({ enabled: z.boolean().optional() }).optional().describe('Mutual TLS between the cluster\'s Ray processes.'),
  headGroupSpec: HeadGroupSpecSchema.describe('The head Pod and its Service.'),
  rayVersion: z.string().optional().describe('The Ray version the images run.'),
  workerGroupSpecs: z.array(WorkerGroupSpecSchema).optional().describe('Groups of worker Pods, each with its own template and replica bounds.'),
});
export type RayClusterSpec = z.infer<typeof RayClusterSpecSchema>;
export type RayClusterSpecInput = z.input<typeof RayClusterSpecSchema>;

export const RayClusterStatusSchema = z.looseObject({
  state: z.string().optional(),
  desiredCPU: quantity().optional(),
  desiredMemory: quantity().optional(),
  desiredGPU: quantity().optional(),
  desiredTPU: quantity().optional(),
  lastUpdateTime: time().nullable().optional(),
  stateTransitionTimes: z.record(z.string(), time()).optional(),
  endpoints: stringMap().optional(),
  head: z
    .looseObject({
      podIP: z.string().optional(),
      serviceIP: z.string().optional(),
      podName: z.string().optional(),
      serviceName: z.string().optional(),
    })
    .optional(),
  reason: z.string().optional(),
  conditions: z
    .array(ConditionSchema)
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
    .optional(),
  readyWorkerReplicas: int32().optional(),
  availableWorkerReplicas: int32().optional(),
  desiredWorkerReplicas: int32().optional(),
  minWorkerReplicas: int32().optional(),
  maxWorkerReplicas: int32().optional(),
  observedGeneration: int64().optional(),
});
export type RayClusterStatus = z.infer<typeof RayClusterStatusSchema>;

export const RayClusterSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: RayClusterSpecSchema,
  status: RayClusterStatusSchema.optional(),
});
export type RayCluster = z.infer<typeof RayClusterSchema>;
export type RayClusterInput = z.input<typeof RayClusterSchema>;
