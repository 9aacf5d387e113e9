import { z } from 'zod';
import { int32, ObjectMetaSchema, opaqueObject, stringMap, time, WorkloadConditionSchema } from '@rayjob/kube-model';

/**
 * Slices of core/v1 Pod the operator reads, and the pod template it builds on. Every object is loose: fields
 * not named here pass through unchanged, so a template round-trips byte for byte.
 */

export const EnvVarSchema = z.looseObject({
  name: z.string(),
  value: z.string().optional(),
  valueFrom: opaqueObject().optional(),
});
export type EnvVar = z.infer<typeof EnvVarSchema>;

export const ContainerPortSchema = z.looseObject({
  name: z.string().optional(),
  containerPort: int32(),
  protocol: z.string().optional(),
});
export type ContainerPort = z.infer<typeof ContainerPortSchema>;

export const ResourceRequirementsSchema = z.looseObject({
  limits: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
  requests: z.record(z.string(), z.union([z.number(), z.string()])).optional(),
});
export type ResourceRequirements = z.infer<typeof ResourceRequirementsSchema>;

export const ContainerSchema = z.looseObject({
  name: z.string(),
  image: z.string().optional(),
  imagePullPolicy: z.string().optional(),
  command: z.array(z.string()).optional(),
  args: z.array(z.string()).optional(),
  env: z.array(EnvVarSchema).optional(),
  envFrom: z.array(opaqueObject()).optional(),
  ports: z.array(ContainerPortSchema).optional(),
  resources: ResourceRequirementsSchema.optional(),
  volumeMounts: z.array(opaqueObject()).optional(),
  /** Per-container restart policy ("Always" makes an init container a native sidecar). */
  restartPolicy: z.string().optional(),
  terminationMessagePath: z.string().optional(),
  terminationMessagePolicy: z.string().optional(),
});
export type Container = z.infer<typeof ContainerSchema>;

export const PodSpecSchema = z.looseObject({
  containers: z.array(ContainerSchema),
  initContainers: z.array(ContainerSchema).optional(),
  restartPolicy: z.string().optional(),
  serviceAccountName: z.string().optional(),
  nodeName: z.string().optional(),
  volumes: z.array(opaqueObject()).optional(),
});
export type PodSpec = z.infer<typeof PodSpecSchema>;

/**
 * core/v1 PodTemplateSpec. zod names only what the operator reads and passes the rest through; the generated CRD
 * declares Kubernetes' full PodTemplateSpec schema (so the API server validates and prunes inside templates, and
 * requires `spec.containers` there, as KubeRay's CRD does).
 */
export const PodTemplateSpecSchema = z
  .looseObject({
    metadata: z
      .looseObject({
        name: z.string().optional(),
        namespace: z.string().optional(),
        labels: stringMap().optional(),
        annotations: stringMap().optional(),
      })
      .optional(),
    spec: PodSpecSchema.partial({ containers: true }).optional(),
  })
  .meta({ 'x-rayjob-crd': { kubernetes: 'io.k8s.api.core.v1.PodTemplateSpec' } });
export type PodTemplateSpec = z.infer<typeof PodTemplateSpecSchema>;

export const ContainerStateSchema = z.looseObject({
  waiting: z.looseObject({ reason: z.string().optional(), message: z.string().optional() }).optional(),
  running: z.looseObject({ startedAt: time().optional() }).optional(),
  terminated: z
    .looseObject({
      exitCode: int32(),
      signal: int32().optional(),
      reason: z.string().optional(),
      message: z.string().optional(),
      startedAt: time().optional(),
      finishedAt: time().optional(),
      containerID: z.string().optional(),
    })
    .optional(),
});
export type ContainerState = z.infer<typeof ContainerStateSchema>;

export const ContainerStatusSchema = z.looseObject({
  name: z.string(),
  ready: z.boolean().optional(),
  restartCount: int32().optional(),
  image: z.string().optional(),
  containerID: z.string().optional(),
  started: z.boolean().optional(),
  state: ContainerStateSchema.optional(),
  lastState: ContainerStateSchema.optional(),
});
export type ContainerStatus = z.infer<typeof ContainerStatusSchema>;

export const POD_PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;

export const PodStatusSchema = z.looseObject({
  /** A string, not an enum: a phase added by a future Kubernetes must not make the Pod unreadable. */
  phase: z.string().optional(),
  conditions: z.array(WorkloadConditionSchema).optional(),
  reason: z.string().optional(),
  message: z.string().optional(),
  podIP: z.string().optional(),
  startTime: time().optional(),
  containerStatuses: z.array(ContainerStatusSchema).optional(),
  initContainerStatuses: z.array(ContainerStatusSchema).optional(),
});
export type PodStatus = z.infer<typeof PodStatusSchema>;

export const PodSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: PodSpecSchema.optional(),
  status: PodStatusSchema.optional(),
});
export type Pod = z.infer<typeof PodSchema>;

