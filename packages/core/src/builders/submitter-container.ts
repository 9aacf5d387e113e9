import { imageRepository } from '@rayjob/kube-model';
import { ATTACH_ONLY_ENV_VALUE, SubmitterEnv } from '../contracts/submitter-cli.ts';
import type { Container, EnvVar, RayClusterSpec } from '../schema/index.ts';
import { attachOnlyEnvFromMark, type AttachOnlyMark } from './attach-only-mark.ts';
import { authEnv, upsertEnv } from './auth-env.ts';
import { expectedHeadIpEnv, type SubmitterHeadRecord } from './submitter-head.ts';
import { submitterArgs, type SubmissionOptions } from './submitter-command.ts';

export const SUBMITTER_CONTAINER_NAME = 'ray-job-submitter';
/** Our image's entry: a tiny wrapper that execs node, so signals reach the submitter. */
export const SUBMITTER_ENTRY = '/submitter';

/** KubeRay's defaults for the submitter container, kept so quota (Kueue) sees the same requests. */
export const SUBMITTER_RESOURCES = {
  limits: { cpu: '1', memory: '1Gi' },
  requests: { cpu: '500m', memory: '200Mi' },
};

/**
 * Our submitter needs no privilege: it talks HTTP to the dashboard and writes its termination message. The
 * settings are Pod Security's `restricted` level (a namespace labelled pod-security.kubernetes.io/enforce=restricted
 * would otherwise refuse every submitter pod and the RayJob would stall), and the uid is the image's own USER
 * (65532, "nonroot"), pinned so the kubelet can check runAsNonRoot whatever image --submitter-image names.
 */
export const SUBMITTER_SECURITY_CONTEXT = {
  runAsNonRoot: true,
  runAsUser: 65532,
  runAsGroup: 65532,
  allowPrivilegeEscalation: false,
  capabilities: { drop: ['ALL'] },
  seccompProfile: { type: 'RuntimeDefault' },
};

export interface SubmitterEnvInput {
  /** `http://...` address of the dashboard. */
  address: string;
  jobId: string;
  clusterName: string;
  clusterSpec: RayClusterSpec | undefined;
  /**
   * The submitter must only attach (addition H): set once a Ray status was recorded, so no submitter pod, ours
   * or a retry of the Job controller, submits the job again to a replacement head.
   */
  attachOnly?: boolean | undefined;
  /**
   * Built before any Ray status (not attachOnly): where attach-only will be switched on later, read by the
   * kubelet at each container start (see AttachOnlyMark).
   */
  mark?: AttachOnlyMark | undefined;
  /**
   * K8sJobMode only: where the head of the attempt's first submitter is recorded (RAYJOB_SUBMITTER_EXPECTED_HEAD_IP,
   * read by the kubelet at each container start). SidecarMode's head is never recreated: no record.
   */
  headRecord?: SubmitterHeadRecord | undefined;
}

/**
 * PYTHONUNBUFFERED, the dashboard address, the submission ID, attach-only, the expected head and auth, replacing same-named user
 * entries. Attach-only travels as env so it also reaches a user template that runs our image with its own args.
 */
export function submitterEnv(existing: readonly EnvVar[] | undefined, input: SubmitterEnvInput): EnvVar[] {
  const ours: EnvVar[] = [
    { name: SubmitterEnv.pythonUnbuffered, value: '1' },
    { name: SubmitterEnv.dashboardAddress, value: input.address },
    { name: SubmitterEnv.submissionId, value: input.jobId },
    ...attachOnlyEnv(input),
    ...(input.headRecord ? [expectedHeadIpEnv(input.headRecord)] : []),
  ];
  const withOurs = upsertEnv(existing, ours);
  return upsertEnv(withOurs, authEnv(input.clusterName, input.clusterSpec, withOurs));
}

function attachOnlyEnv(input: SubmitterEnvInput): EnvVar[] {
  if (input.attachOnly) return [{ name: SubmitterEnv.attachOnly, value: ATTACH_ONLY_ENV_VALUE }];
  return input.mark ? [attachOnlyEnvFromMark(input.mark)] : [];
}

/** Our submitter as a container: `/submitter [--attach-only] <flags> -- <entrypoint>`. */
export function ourSubmitterContainer(image: string, options: SubmissionOptions, env: SubmitterEnvInput): Container {
  return {
    name: SUBMITTER_CONTAINER_NAME,
    image,
    command: [SUBMITTER_ENTRY],
    args: submitterArgs(options, env.attachOnly ?? false),
    env: submitterEnv(undefined, env),
    resources: structuredClone(SUBMITTER_RESOURCES),
    securityContext: structuredClone(SUBMITTER_SECURITY_CONTEXT),
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
