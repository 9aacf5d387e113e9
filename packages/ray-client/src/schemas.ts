// Shapes of Ray's answers (ray-jobs-api.md §3). Loose objects: newer Rays add keys, and an unknown key must
// never turn a good answer into a bad-response. Fields that older Rays lack are optional.
// zod/mini, not zod: the submitter parses every answer with these, and the classic `zod` namespace costs it
// ~9 MiB of RSS to load (issue #27). English messages as classic zod has them (a bad-response names the problem).
import { isTerminalRayJobStatus, RayJobStatusSchema, type RayJobStatus } from '@rayjob/core';
import { en } from 'zod/locales';
import * as z from 'zod/mini';

z.config(en());

// Ray's job status is a shared contract (the submitter's termination message carries it): defined once, in core.
export { RayJobStatusSchema, type RayJobStatus };
export const RayJobStatusValues = RayJobStatusSchema.options;
export const isTerminalStatus = (status: RayJobStatus): boolean => isTerminalRayJobStatus(status);

export const VersionInfoSchema = z.looseObject({
  version: z.string(),
  ray_version: z.string(),
  ray_commit: z.optional(z.string()),
  session_name: z.optional(z.string()),
});
export type VersionInfo = z.infer<typeof VersionInfoSchema>;

export const DriverInfoSchema = z.looseObject({
  id: z.string(),
  node_ip_address: z.nullish(z.string()),
  pid: z.nullish(z.union([z.string(), z.number()])),
});

export const JobDetailsSchema = z.looseObject({
  type: z.nullish(z.string()),
  job_id: z.nullish(z.string()),
  submission_id: z.nullish(z.string()),
  driver_info: z.nullish(DriverInfoSchema),
  status: RayJobStatusSchema,
  entrypoint: z.nullish(z.string()),
  message: z.nullish(z.string()),
  // Always null before ~2.50 (ray-jobs-api.md §8): never depend on it.
  error_type: z.nullish(z.string()),
  start_time: z.nullish(z.number()),
  end_time: z.nullish(z.number()),
  metadata: z.nullish(z.record(z.string(), z.string())),
  runtime_env: z.nullish(z.record(z.string(), z.unknown())),
  driver_agent_http_address: z.nullish(z.string()),
  driver_node_id: z.nullish(z.string()),
  driver_exit_code: z.nullish(z.int()),
});
export type JobDetails = z.infer<typeof JobDetailsSchema>;

export const JobListSchema = z.array(JobDetailsSchema);

export const SubmitResponseSchema = z.looseObject({
  submission_id: z.optional(z.string()),
  job_id: z.nullish(z.string()),
});

export const StopResponseSchema = z.looseObject({ stopped: z.boolean() });
export const DeleteResponseSchema = z.looseObject({ deleted: z.boolean() });
export const LogsResponseSchema = z.looseObject({ logs: z.string() });

export const NodeSummarySchema = z.looseObject({
  result: z.boolean(),
  msg: z.optional(z.string()),
  data: z.optional(
    z.looseObject({
      summary: z.array(
        z.looseObject({
          raylet: z.looseObject({ nodeId: z.string(), state: z.string() }),
        }),
      ),
    }),
  ),
});
export type NodeSummary = z.infer<typeof NodeSummarySchema>;

/** What a caller may submit. snake_case, as on Ray's wire, so nothing is lost in translation. */
export const SubmitRequestSchema = z.object({
  entrypoint: z.string().check(z.minLength(1, 'entrypoint must be a non-empty shell command')),
  submission_id: z.optional(z.string()),
  runtime_env: z.optional(z.record(z.string(), z.unknown())),
  metadata: z.optional(z.record(z.string(), z.string())),
  entrypoint_num_cpus: z.optional(z.number().check(z.nonnegative())),
  entrypoint_num_gpus: z.optional(z.number().check(z.nonnegative())),
  entrypoint_memory: z.optional(z.int('entrypoint_memory must be an integer number of bytes').check(z.nonnegative())),
  entrypoint_resources: z.optional(z.record(z.string(), z.number())),
  entrypoint_label_selector: z.optional(z.record(z.string(), z.string())),
});
export type SubmitRequest = z.infer<typeof SubmitRequestSchema>;
