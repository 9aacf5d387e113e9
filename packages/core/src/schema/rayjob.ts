import { z } from 'zod';
import { ObjectMetaSchema } from './kube-meta.ts';
import { int32, int64, stringMap, time } from './kube-primitives.ts';
import { ManagedBySchema } from './managed-by.ts';
import { PodTemplateSpecSchema } from './pod.ts';
import { RayClusterSpecSchema, RayClusterStatusSchema } from './raycluster.ts';

/**
 * ray.io/v1 RayJob: every spec and status field of KubeRay's v1 CRD, with the CRD's defaults, enums and CEL
 * rules. Parsing applies the defaults the API server would, so the decision function sees the same values
 * KubeRay's controller sees. Unknown fields pass through (loose objects).
 */

// Enumerations (KubeRay's Go constants, in KubeRay's order).

/** Ray's job status as the RayJob mirrors it; '' means the job has not been seen yet. */
export const JOB_STATUSES = ['', 'PENDING', 'RUNNING', 'STOPPED', 'SUCCEEDED', 'FAILED'] as const;
export const JobStatusSchema = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatusSchema>;
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['STOPPED', 'SUCCEEDED', 'FAILED'];
export const isJobTerminal = (status: JobStatus | undefined): boolean =>
  status !== undefined && TERMINAL_JOB_STATUSES.includes(status);

/** The controller's state machine state; '' means New. */
export const JOB_DEPLOYMENT_STATUSES = [
  '',
  'Initializing',
  'Running',
  'Complete',
  'Failed',
  'ValidationFailed',
  'Suspending',
  'Suspended',
  'Retrying',
  'Waiting',
] as const;
export const JobDeploymentStatusSchema = z.enum(JOB_DEPLOYMENT_STATUSES);
export type JobDeploymentStatus = z.infer<typeof JobDeploymentStatusSchema>;
/** KubeRay's IsJobDeploymentTerminal: only Complete and Failed (ValidationFailed is not terminal). */
export const isJobDeploymentTerminal = (status: JobDeploymentStatus | undefined): boolean =>
  status === 'Complete' || status === 'Failed';

export const JOB_FAILED_REASONS = [
  'SubmissionFailed',
  'DeadlineExceeded',
  'PreRunningDeadlineExceeded',
  'AppFailed',
  'JobDeploymentStatusTransitionGracePeriodExceeded',
  'JobStatusCheckTimeoutExceeded',
  'ValidationFailed',
] as const;
export const JobFailedReasonSchema = z.enum(JOB_FAILED_REASONS);
export type JobFailedReason = z.infer<typeof JobFailedReasonSchema>;

export const SUBMISSION_MODES = ['K8sJobMode', 'HTTPMode', 'InteractiveMode', 'SidecarMode'] as const;
export const SubmissionModeSchema = z.enum(SUBMISSION_MODES);
export type SubmissionMode = z.infer<typeof SubmissionModeSchema>;

export const DELETION_POLICY_TYPES = ['DeleteCluster', 'DeleteWorkers', 'DeleteSelf', 'DeleteNone'] as const;
export const DeletionPolicyTypeSchema = z.enum(DELETION_POLICY_TYPES);
export type DeletionPolicyType = z.infer<typeof DeletionPolicyTypeSchema>;

// Deletion strategy (§1.4): the CEL rules and messages are KubeRay's, so kubectl users see the same errors.
//
// Constraints the API server enforces (minimum, minItems, CEL) are declared in .meta() for the CRD only: zod
// stays lenient so that an object which slipped past them (created before the CRD had the rule, or with a
// KubeRay CRD) still parses, and controller validation reports it with KubeRay's message.

export const DeletionConditionSchema = z
  .looseObject({
    jobStatus: z.enum(['SUCCEEDED', 'FAILED']).optional(),
    jobDeploymentStatus: z.enum(['Failed']).optional(),
    ttlSeconds: int32().meta({ minimum: 0 }).default(0),
  })
  .meta({
    'x-kubernetes-validations': [
      {
        rule: '!(has(self.jobStatus) && has(self.jobDeploymentStatus))',
        message: 'JobStatus and JobDeploymentStatus cannot be used together within the same deletion condition.',
      },
      {
        rule: 'has(self.jobStatus) || has(self.jobDeploymentStatus)',
        message: 'the deletion condition requires either the JobStatus or the JobDeploymentStatus field.',
      },
    ],
  });
export type DeletionCondition = z.infer<typeof DeletionConditionSchema>;

export const DeletionRuleSchema = z.looseObject({
  policy: DeletionPolicyTypeSchema,
  condition: DeletionConditionSchema,
});
export type DeletionRule = z.infer<typeof DeletionRuleSchema>;

/** Legacy onSuccess/onFailure policy; `policy` is schema-optional, the controller requires it. */
export const DeletionPolicySchema = z.looseObject({ policy: DeletionPolicyTypeSchema.optional() });
export type DeletionPolicy = z.infer<typeof DeletionPolicySchema>;

export const DeletionStrategySchema = z
  .looseObject({
    onSuccess: DeletionPolicySchema.optional(),
    onFailure: DeletionPolicySchema.optional(),
    deletionRules: z.array(DeletionRuleSchema).meta({ minItems: 1, 'x-kubernetes-list-type': 'atomic' }).optional(),
  })
  .meta({
    'x-kubernetes-validations': [
      {
        rule: '!((has(self.onSuccess) || has(self.onFailure)) && has(self.deletionRules))',
        message:
          'legacy policies (onSuccess/onFailure) and deletionRules cannot be used together within the same deletionStrategy',
      },
      {
        rule: '((has(self.onSuccess) && has(self.onFailure)) || has(self.deletionRules))',
        message:
          'deletionStrategy requires either BOTH onSuccess and onFailure, OR the deletionRules field (cannot be empty)',
      },
    ],
  });
export type DeletionStrategy = z.infer<typeof DeletionStrategySchema>;

export const SubmitterConfigSchema = z.looseObject({ backoffLimit: int32().optional() });
export type SubmitterConfig = z.infer<typeof SubmitterConfigSchema>;

// Spec (§1.3).

export const RayJobSpecSchema = z.looseObject({
  activeDeadlineSeconds: int32().optional(),
  backoffLimit: int32().default(0),
  rayClusterSpec: RayClusterSpecSchema.optional(),
  submitterPodTemplate: PodTemplateSpecSchema.optional(),
  metadata: stringMap().optional(),
  clusterSelector: stringMap().optional(),
  submitterConfig: SubmitterConfigSchema.optional(),
  managedBy: ManagedBySchema.optional(),
  deletionStrategy: DeletionStrategySchema.optional(),
  entrypoint: z.string().optional(),
  runtimeEnvYAML: z.string().optional(),
  jobId: z.string().optional(),
  /** KubeRay's CRD does not enforce the enum (no `enum` in the schema); zod does, so code can switch on it. */
  submissionMode: SubmissionModeSchema.meta({ 'x-rayjob-crd': { omitEnum: true } }).default('K8sJobMode'),
  entrypointResources: z.string().optional(),
  entrypointNumCpus: z.number().optional(),
  entrypointNumGpus: z.number().optional(),
  ttlSecondsAfterFinished: int32().default(0),
  preRunningDeadlineSeconds: int32().meta({ minimum: 1 }).optional(),
  shutdownAfterJobFinishes: z.boolean().optional(),
  suspend: z.boolean().optional(),
});
export type RayJobSpec = z.infer<typeof RayJobSpecSchema>;
export type RayJobSpecInput = z.input<typeof RayJobSpecSchema>;

// Status (§1.5). The enums are not in KubeRay's CRD schema (plain strings there); zod checks them.

const noCrdEnum = { 'x-rayjob-crd': { omitEnum: true } };

export const RayJobResourceStatusSchema = z.looseObject({
  rayJobInfo: z.looseObject({ startTime: time().optional(), endTime: time().optional() }).optional(),
  jobId: z.string().optional(),
  rayClusterName: z.string().optional(),
  dashboardURL: z.string().optional(),
  jobStatus: JobStatusSchema.meta(noCrdEnum).optional(),
  jobDeploymentStatus: JobDeploymentStatusSchema.meta(noCrdEnum).optional(),
  reason: JobFailedReasonSchema.meta(noCrdEnum).optional(),
  message: z.string().optional(),
  startTime: time().optional(),
  endTime: time().optional(),
  // The CRD defaults these to 0; zod leaves them optional because the controller builds status objects itself.
  succeeded: int32().meta({ default: 0 }).optional(),
  failed: int32().meta({ default: 0 }).optional(),
  rayClusterStatus: RayClusterStatusSchema.optional(),
  jobStatusCheckFailureStartTime: time().optional(),
  observedGeneration: int64().optional(),
});
/** The RayJob's `status` object. Named RayJobResourceStatus in the package index, where RayJobStatus is Ray's job status. */
export type RayJobResourceStatus = z.infer<typeof RayJobResourceStatusSchema>;
export type RayJobStatus = RayJobResourceStatus;

export const RayJobSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  // prefault parses `{}` when spec is missing, so the spec defaults apply as they would on the API server.
  spec: RayJobSpecSchema.prefault({}),
  status: RayJobResourceStatusSchema.optional(),
});
export type RayJob = z.infer<typeof RayJobSchema>;
/** What a caller may pass to RayJobSchema.parse (defaulted fields optional). */
export type RayJobInput = z.input<typeof RayJobSchema>;

// The Kubernetes slices and RayCluster types the decision function reads, re-exported so it needs one import.
export type { RayCluster, RayClusterSpec, RayClusterStatus, WorkerGroupSpec, HeadGroupSpec } from './raycluster.ts';
export type { K8sJob } from './k8s-job.ts';
export type { Pod, PodTemplateSpec, Container, ContainerStatus, ContainerState, EnvVar } from './pod.ts';
export type { Service } from './service.ts';
export type { ObjectMeta, OwnerReference, Condition } from './kube-meta.ts';
