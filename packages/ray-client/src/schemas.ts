// Shapes of Ray's answers (ray-jobs-api.md §3). Loose objects: newer Rays add keys, and an unknown key must
// never turn a good answer into a bad-response. Fields that older Rays lack are optional.
import { isTerminalRayJobStatus, RayJobStatusSchema, type RayJobStatus } from '@rayjob/core';
import { z } from 'zod';

// Ray's job status is a shared contract (the submitter's termination message carries it): defined once, in core.
export { RayJobStatusSchema, type RayJobStatus };
export const RayJobStatusValues = RayJobStatusSchema.options;
export const isTerminalStatus = (status: RayJobStatus): boolean => isTerminalRayJobStatus(status);

export const VersionInfoSchema = z.looseObject({
  version: z.string(),
  ray_version: z.string(),
  ray_commit: z.string().optional(),
  session_name: z.string().optional(),
});
export type VersionInfo = z.infer<typeof VersionInfoSchema>;

export const DriverInfoSchema = z.looseObject({
  id: z.string(),
  node_ip_address: z.string().nullish(),
  pid: z.union([z.string(), z.number()]).nullish(),
});

export const JobDetailsSchema = z.looseObject({
  type: z.string().nullish(),
  job_id: z.string().nullish(),
  submission_id: z.string().nullish(),
  driver_info: DriverInfoSchema.nullish(),
  status: RayJobStatusSchema,
  entrypoint: z.string().nullish(),
  message: z.string().nullish(),
  // Always null before ~2.50 (ray-jobs-api.md §8): never depend on it.
  error_type: z.string().nullish(),
  start_time: z.number().nullish(),
  end_time: z.number().nullish(),
  metadata: z.record(z.string(), z.string()).nullish(),
  runtime_env: z.record(z.string(), z.unknown()).nullish(),
  driver_agent_http_address: z.string().nullish(),
  driver_node_id: z.string().nullish(),
  driver_exit_code: z.number().int().nullish(),
});
export type JobDetails = z.infer<typeof JobDetailsSchema>;

export const JobListSchema = z.array(JobDetailsSchema);

export const SubmitResponseSchema = z.looseObject({
  submission_id: z.string().optional(),
  job_id: z.string().nullish(),
});

export const StopResponseSchema = z.looseObject({ stopped: z.boolean() });
export const DeleteResponseSchema = z.looseObject({ deleted: z.boolean() });
export const LogsResponseSchema = z.looseObject({ logs: z.string() });

export const NodeSummarySchema = z.looseObject({
  result: z.boolean(),
  msg: z.string().optional(),
  data: z
    .looseObject({
      summary: z.array(
        z.looseObject({
          raylet: z.looseObject({ nodeId: z.string(), state: z.string() }),
        }),
      ),
    })
    .optional(),
});
export type NodeSummary = z.infer<typeof NodeSummarySchema>;

/** What a caller may submit. snake_case, as on Ray's wire, so nothing is lost in translation. */
export const SubmitRequestSchema = z.object({
  entrypoint: z.string().min(1, 'entrypoint must be a non-empty shell command'),
  submission_id: z.string().optional(),
  runtime_env: z.record(z.string(), z.unknown()).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  entrypoint_num_cpus: z.number().nonnegative().optional(),
  entrypoint_num_gpus: z.number().nonnegative().optional(),
  entrypoint_memory: z.number().int('entrypoint_memory must be an integer number of bytes').nonnegative().optional(),
  entrypoint_resources: z.record(z.string(), z.number()).optional(),
  entrypoint_label_selector: z.record(z.string(), z.string()).optional(),
});
export type SubmitRequest = z.infer<typeof SubmitRequestSchema>;
