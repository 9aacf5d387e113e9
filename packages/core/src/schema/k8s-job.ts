import { z } from 'zod';
import { int32, ObjectMetaSchema, time, WorkloadConditionSchema } from '@rayjob/kube-model';
import { PodTemplateSpecSchema } from './pod.ts';

/** batch/v1 PodFailurePolicy: lets the submitter's exit code decide whether the Job retries. */
export const PodFailurePolicyRuleSchema = z.looseObject({
  action: z.string(),
  onExitCodes: z
    .looseObject({ containerName: z.string().optional(), operator: z.string(), values: z.array(int32()) })
    .optional(),
  onPodConditions: z.array(z.looseObject({ type: z.string(), status: z.string().optional() })).optional(),
});
export type PodFailurePolicyRule = z.infer<typeof PodFailurePolicyRuleSchema>;

export const PodFailurePolicySchema = z.looseObject({ rules: z.array(PodFailurePolicyRuleSchema) });
export type PodFailurePolicy = z.infer<typeof PodFailurePolicySchema>;

/** The slice of batch/v1 Job the operator reads and writes for the K8sJobMode submitter. */
export const K8sJobSpecSchema = z.looseObject({
  backoffLimit: int32().optional(),
  podFailurePolicy: PodFailurePolicySchema.optional(),
  activeDeadlineSeconds: z.int().optional(),
  ttlSecondsAfterFinished: int32().optional(),
  completions: int32().optional(),
  parallelism: int32().optional(),
  suspend: z.boolean().optional(),
  template: PodTemplateSpecSchema,
});
export type K8sJobSpec = z.infer<typeof K8sJobSpecSchema>;

export const K8sJobStatusSchema = z.looseObject({
  conditions: z.array(WorkloadConditionSchema).optional(),
  active: int32().optional(),
  ready: int32().optional(),
  failed: int32().optional(),
  succeeded: int32().optional(),
  terminating: int32().optional(),
  startTime: time().optional(),
  completionTime: time().optional(),
});
export type K8sJobStatus = z.infer<typeof K8sJobStatusSchema>;

export const K8sJobSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: K8sJobSpecSchema.optional(),
  status: K8sJobStatusSchema.optional(),
});
export type K8sJob = z.infer<typeof K8sJobSchema>;
