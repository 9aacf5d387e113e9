import type { SubmissionOptions } from './submitter-command.ts';

/** The body of `POST /api/jobs/` as HTTPMode sends it (Ray's JobSubmitRequest; empty fields omitted). */
export interface SubmitJobRequest {
  entrypoint: string;
  submission_id: string;
  runtime_env?: Record<string, unknown>;
  metadata?: Record<string, string>;
  entrypoint_num_cpus?: number;
  entrypoint_num_gpus?: number;
  entrypoint_resources?: Record<string, number>;
}

export type SubmitRequestResult = { ok: true; value: SubmitJobRequest } | { ok: false; error: string };

/** HTTPMode sends the entrypoint untrimmed (only the CLI path trims it), and the resources as a parsed map. */
export function buildSubmitRequest(jobId: string, options: SubmissionOptions): SubmitRequestResult {
  const body: SubmitJobRequest = { entrypoint: options.entrypoint, submission_id: jobId };
  if (options.runtimeEnv) body.runtime_env = options.runtimeEnv;
  if (options.metadata) body.metadata = options.metadata;
  if (options.entrypointNumCpus) body.entrypoint_num_cpus = options.entrypointNumCpus;
  if (options.entrypointNumGpus) body.entrypoint_num_gpus = options.entrypointNumGpus;
  if (options.entrypointResources) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(options.entrypointResources);
    } catch (err) {
      return { ok: false, error: `spec.entrypointResources is not valid JSON: ${(err as Error).message}` };
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || Object.values(parsed).some((v) => typeof v !== 'number')) {
      return { ok: false, error: 'spec.entrypointResources must be a JSON object of resource name to number, e.g. {"R1": 2}' };
    }
    body.entrypoint_resources = parsed as Record<string, number>;
  }
  return { ok: true, value: body };
}
