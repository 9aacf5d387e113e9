import { z } from 'zod';
import { ConditionSchema, int32, int64, isTerminalRayJobStatus, ManagedBySchema, ObjectMetaSchema, stringMap, TERMINAL_RAY_JOB_STATUSES, time } from '@rayjob/kube-model';
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
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = TERMINAL_RAY_JOB_STATUSES;
export const isJobTerminal = (status: JobStatus | undefined): boolean => isTerminalRayJobStatus(status);

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

export const SubmitterConfigSchema = z.looseObject({
  backoffLimit: int32().optional().describe('Retries of the submitter Job (its spec.backoffLimit): at most backoffLimit + 1 submitter pods. 2 when unset.'),
});
export type SubmitterConfig = z.infer<typeof SubmitterConfigSchema>;

// Spec (§1.3).

// Field descriptions are ours (kubectl explain shows them); none is copied from KubeRay or Kubernetes.
export const RayJobSpecSchema = z.looseObject({
  activeDeadlineSeconds: int32()
    .optional()
    .describe('Seconds an attempt may run, counted from status.startTime; past it the RayJob fails (DeadlineExceeded) and is not retried.'),
  backoffLimit: int32()
    .default(0)
    .describe('How many times a failed RayJob is tried again, each time on a new RayCluster. 0: never.'),
  rayClusterSpec: RayClusterSpecSchema.optional().describe(
    'The RayCluster created for each attempt. Edits after creation do not reach a running cluster. Not used with clusterSelector.',
  ),
  submitterPodTemplate: PodTemplateSpecSchema.optional().describe(
    'Pod template of the Kubernetes Job that submits the Ray job in K8sJobMode; its first container is the submitter. Built by the operator when unset.',
  ),
  metadata: stringMap().optional().describe('Metadata attached to the Ray job at submission.'),
  clusterSelector: stringMap()
    .optional()
    .describe('Run on an existing RayCluster, named by the ray.io/cluster key, instead of creating one; that cluster is never deleted.'),
  submitterConfig: SubmitterConfigSchema.optional().describe('Settings of the submitter Job: backoffLimit is its retry count (2 when unset).'),
  managedBy: ManagedBySchema.optional().describe(
    'The controller in charge of this RayJob; unset means ray.io/kuberay-operator. Cannot change after creation.',
  ),
  deletionStrategy: DeletionStrategySchema.optional().describe(
    'What to delete once the job has finished: onSuccess and onFailure policies, or deletionRules with conditions and delays.',
  ),
  entrypoint: z.string().optional().describe('The command the Ray job runs as its driver, e.g. "python train.py".'),
  runtimeEnvYAML: z.string().optional().describe('The Ray job\'s runtime environment (pip, working_dir, env_vars, ...) as a YAML mapping.'),
  jobId: z.string().optional().describe(
    'Submission ID of the Ray job; generated when empty. In InteractiveMode, set it once the job has been submitted by hand.',
  ),
  /** KubeRay's CRD does not enforce the enum (no `enum` in the schema); zod does, so code can switch on it. */
  submissionMode: SubmissionModeSchema.meta({ 'x-rayjob-crd': { omitEnum: true } })
    .default('K8sJobMode')
    .describe(
      'How the job reaches Ray: K8sJobMode (a Kubernetes Job runs the submitter), HTTPMode (the operator calls the dashboard), SidecarMode (a submitter container in the head pod) or InteractiveMode (submitted by hand).',
    ),
  entrypointResources: z.string().optional().describe('Custom Ray resources reserved for the driver, as a JSON object such as {"accelerator": 1}.'),
  entrypointNumCpus: z.number().optional().describe('CPUs reserved for the driver.'),
  entrypointNumGpus: z.number().optional().describe('GPUs reserved for the driver.'),
  ttlSecondsAfterFinished: int32()
    .default(0)
    .describe('Seconds after status.endTime before shutdownAfterJobFinishes takes effect.'),
  preRunningDeadlineSeconds: int32()
    .meta({ minimum: 1 })
    .optional()
    .describe('Seconds an attempt may take to reach Running, counted from status.startTime; past it the attempt fails (PreRunningDeadlineExceeded).'),
  shutdownAfterJobFinishes: z.boolean().optional().describe('Delete the RayCluster once the job is Complete or Failed (after ttlSecondsAfterFinished).'),
  suspend: z.boolean().optional().describe('While true, no RayCluster exists for the job: an existing one is deleted. Set back to false to start over.'),
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
  // Ours (additive): KubeRay's fields above keep their meaning; these summarize them with the evidence.
  conditions: z
    .array(ConditionSchema)
    .meta({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] })
    .optional()
    .describe(
      'Summary conditions: RayClusterProvisioned, RayClusterReady, JobSubmitted, JobRunning, Complete, Failed, Suspended. Each reason is CamelCase and each message gives the evidence behind the RayJob\'s decision; use kubectl wait --for=condition=Complete.',
    ),
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
export type { ObjectMeta, OwnerReference, Condition } from '@rayjob/kube-model';
