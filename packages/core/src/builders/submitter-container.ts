import type { Container, EnvVar, RayClusterSpec } from '../schema/index.ts';
import { authEnv, upsertEnv } from './auth-env.ts';
import { submitterArgs, type SubmissionOptions } from './submitter-command.ts';

export const SUBMITTER_CONTAINER_NAME = 'ray-job-submitter';
/** Our image's entry: a tiny wrapper that execs node, so signals reach the submitter. */
export const SUBMITTER_ENTRY = '/submitter';

/** KubeRay's defaults for the submitter container, kept so quota (Kueue) sees the same requests. */
export const SUBMITTER_RESOURCES = {
  limits: { cpu: '1', memory: '1Gi' },
  requests: { cpu: '500m', memory: '200Mi' },
};

export interface SubmitterEnvInput {
  /** `http://...` address of the dashboard. */
  address: string;
  jobId: string;
  clusterName: string;
  clusterSpec: RayClusterSpec | undefined;
}

/** PYTHONUNBUFFERED, the dashboard address, the submission ID and auth, replacing same-named user entries. */
export function submitterEnv(existing: readonly EnvVar[] | undefined, input: SubmitterEnvInput): EnvVar[] {
  const ours: EnvVar[] = [
    { name: 'PYTHONUNBUFFERED', value: '1' },
    { name: 'RAY_DASHBOARD_ADDRESS', value: input.address },
    { name: 'RAY_JOB_SUBMISSION_ID', value: input.jobId },
  ];
  const withOurs = upsertEnv(existing, ours);
  return upsertEnv(withOurs, authEnv(input.clusterName, input.clusterSpec, withOurs));
}

/** Our submitter as a container: `/submitter <flags> -- <entrypoint>`. */
export function ourSubmitterContainer(image: string, options: SubmissionOptions, env: SubmitterEnvInput): Container {
  return {
    name: SUBMITTER_CONTAINER_NAME,
    image,
    command: [SUBMITTER_ENTRY],
    args: submitterArgs(options),
    env: submitterEnv(undefined, env),
    resources: structuredClone(SUBMITTER_RESOURCES),
    // The termination message is the submitter's final word (addition A); FallbackToLogsOnError keeps a crash
    // readable too.
    terminationMessagePolicy: 'FallbackToLogsOnError',
  };
}

/** True when a container runs our submitter image (its exit codes then follow our contract). */
export function runsOurSubmitter(container: Container | undefined, ourImage: string): boolean {
  if (!container?.image) return false;
  return imageRepository(container.image) === imageRepository(ourImage);
}

function imageRepository(image: string): string {
  const at = image.indexOf('@');
  const base = at >= 0 ? image.slice(0, at) : image;
  const colon = base.lastIndexOf(':');
  return colon > base.lastIndexOf('/') ? base.slice(0, colon) : base;
}
