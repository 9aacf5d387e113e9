import { ENTRYPOINT_SEPARATOR, submitterFlag } from '../contracts/submitter-cli.ts';
import type { RayJob } from '../schema/index.ts';
import { parseGenericVersion, versionLessThan } from '../validation/ray-version.ts';
import { parseRuntimeEnvYAML } from '../validation/runtime-env.ts';
import { sortedJson } from './sorted-json.ts';

/**
 * What the submitter sends with the job, shared by our submitter's flags, KubeRay's script and HTTPMode. Built
 * once so the three can never disagree. Errors are values naming the field (the operator surfaces them).
 */
export interface SubmissionOptions {
  entrypoint: string;
  runtimeEnv?: Record<string, unknown> | undefined;
  metadata?: Record<string, string> | undefined;
  entrypointNumCpus?: number | undefined;
  entrypointNumGpus?: number | undefined;
  /** The raw JSON text of spec.entrypointResources. */
  entrypointResources?: string | undefined;
}

export type SubmissionOptionsResult = { ok: true; value: SubmissionOptions } | { ok: false; error: string };

export function submissionOptions(rayJob: RayJob): SubmissionOptionsResult {
  const spec = rayJob.spec;
  let runtimeEnv: Record<string, unknown> | undefined;
  if (spec.runtimeEnvYAML) {
    const parsed = parseRuntimeEnvYAML(spec.runtimeEnvYAML);
    if (!parsed.ok) return { ok: false, error: parsed.message };
    runtimeEnv = parsed.runtimeEnv;
  }
  const metadata = spec.metadata && Object.keys(spec.metadata).length ? spec.metadata : undefined;
  if (metadata) {
    const versionError = metadataVersionError(spec.rayClusterSpec?.rayVersion);
    if (versionError) return { ok: false, error: versionError };
  }
  return {
    ok: true,
    value: {
      entrypoint: spec.entrypoint ?? '',
      runtimeEnv,
      metadata,
      entrypointNumCpus: spec.entrypointNumCpus && spec.entrypointNumCpus > 0 ? spec.entrypointNumCpus : undefined,
      entrypointNumGpus: spec.entrypointNumGpus && spec.entrypointNumGpus > 0 ? spec.entrypointNumGpus : undefined,
      entrypointResources: spec.entrypointResources ? spec.entrypointResources : undefined,
    },
  };
}

/** Ray accepts job metadata from 2.6.0 on; an unset rayVersion (or clusterSelector mode) is assumed new enough. */
export function metadataVersionError(rayVersion: string | undefined): string | undefined {
  if (!rayVersion) return undefined;
  const parsed = parseGenericVersion(rayVersion);
  if (!parsed.ok) return `failed to parse Ray version: ${rayVersion}: ${parsed.error}`;
  return versionLessThan(parsed.components, [2, 6, 0]) ? 'the Ray version must be at least 2.6.0 to use the metadata field' : undefined;
}

/**
 * Our submitter's arguments: the flags of KubeRay's light-weight submitter, then `--` and the entrypoint as ONE
 * argument, verbatim (addition D: the entrypoint is data, it never passes through a shell on the way).
 * The dashboard address and submission ID travel as env (RAY_DASHBOARD_ADDRESS, RAY_JOB_SUBMISSION_ID).
 * `attachOnly`: the submitter never submits, it only follows a job Ray already knows (addition H).
 */
export function submitterArgs(options: SubmissionOptions, attachOnly = false): string[] {
  const args: string[] = [];
  if (attachOnly) args.push(submitterFlag('attach-only'));
  if (options.runtimeEnv) args.push(submitterFlag('runtime-env-json'), sortedJson(options.runtimeEnv));
  if (options.metadata) args.push(submitterFlag('metadata-json'), sortedJson(options.metadata));
  if (options.entrypointNumCpus) args.push(submitterFlag('entrypoint-num-cpus'), String(options.entrypointNumCpus));
  if (options.entrypointNumGpus) args.push(submitterFlag('entrypoint-num-gpus'), String(options.entrypointNumGpus));
  if (options.entrypointResources) args.push(submitterFlag('entrypoint-resources'), options.entrypointResources);
  args.push(ENTRYPOINT_SEPARATOR, options.entrypoint);
  return args;
}
