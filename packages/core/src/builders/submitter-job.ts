import type { Container, K8sJob, PodTemplateSpec, RayClusterSpec, RayJob } from '../schema/index.ts';
import { FINAL_SUBMITTER_EXIT_CODES } from '../contracts/submitter-exit-codes.ts';
import { attachOnlyMarkOf } from './attach-only-mark.ts';
import { dashboardAddress } from './dashboard.ts';
import { kubeRaySubmitScript } from './kuberay-submit-script.ts';
import { ownerReferenceTo, rayJobChildLabels } from './labels.ts';
import type { SubmissionOptions } from './submitter-command.ts';
import { submitterHeadRecordOf } from './submitter-head.ts';
import { ourSubmitterContainer, runsOurSubmitter, submitterEnv } from './submitter-container.ts';

/** KubeRay's default submitter Job backoffLimit (at most three pods). */
export const DEFAULT_SUBMITTER_BACKOFF_LIMIT = 2;

export interface SubmitterJobInput {
  rayJob: RayJob;
  dashboardURL: string;
  jobId: string;
  clusterName: string;
  clusterSpec: RayClusterSpec | undefined;
  options: SubmissionOptions;
  /** The few operator settings the Job needs (core's DecisionSettings has them; builders do not import it). */
  settings: SubmitterJobSettings;
  /** The submitter only attaches, never submits: see SubmitterEnvInput.attachOnly. Default false. */
  attachOnly?: boolean | undefined;
}

export interface SubmitterJobSettings {
  /** Our submitter image, used when the RayJob gives no submitter template. */
  submitterImage: string;
  /** ENABLE_LOGIN_SHELL: KubeRay's script runs under `bash -cel`. */
  enableLoginShell: boolean;
}

/**
 * The K8sJobMode submitter Job, named after the RayJob (one per RayJob). Without a user template it runs our
 * submitter; a user template is kept as is, except that container 0 gets KubeRay's env and, if it has no
 * command, KubeRay's script (with the entrypoint wrapped: addition D).
 */
export function buildSubmitterJob(input: SubmitterJobInput): K8sJob {
  const { rayJob, settings } = input;
  const address = dashboardAddress(input.dashboardURL);
  const attachOnly = input.attachOnly ?? false;
  const mark = attachOnlyMarkOf(rayJob, input.clusterName, input.jobId);
  const headRecord = submitterHeadRecordOf(rayJob, input.clusterName, input.jobId);
  const envInput = { address, jobId: input.jobId, clusterName: input.clusterName, clusterSpec: input.clusterSpec, attachOnly, mark, headRecord };
  const labels = rayJobChildLabels(rayJob);
  let template: PodTemplateSpec;
  if (rayJob.spec.submitterPodTemplate) {
    template = structuredClone(rayJob.spec.submitterPodTemplate);
    const containers = template.spec?.containers ?? [];
    const first = containers[0];
    if (first) containers[0] = configureUserContainer(first, address, input, envInput);
  } else {
    template = {
      spec: { containers: [ourSubmitterContainer(settings.submitterImage, input.options, envInput)], restartPolicy: 'Never' },
    };
  }
  template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), ...labels } };
  const spec: K8sJob['spec'] = {
    backoffLimit: rayJob.spec.submitterConfig?.backoffLimit ?? DEFAULT_SUBMITTER_BACKOFF_LIMIT,
    template,
  };
  const first = template.spec?.containers?.[0];
  if (first && runsOurSubmitter(first, settings.submitterImage) && template.spec?.restartPolicy === 'Never') {
    spec.podFailurePolicy = submitterPodFailurePolicy(first.name);
  }
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: rayJob.metadata.name,
      namespace: rayJob.metadata.namespace,
      labels,
      ownerReferences: [ownerReferenceTo(rayJob)],
    },
    spec,
  };
}

function configureUserContainer(
  container: Container,
  address: string,
  input: SubmitterJobInput,
  envInput: Parameters<typeof submitterEnv>[1],
): Container {
  const out = { ...container, env: submitterEnv(container.env, envInput) };
  if (!container.command || container.command.length === 0) {
    out.command = ['/bin/bash', input.settings.enableLoginShell ? '-cel' : '-ce', '--'];
    // Not attach-only at build time: the script reads the mark's env when it runs (a retried pod sees it).
    out.args = [kubeRaySubmitScript(address, input.jobId, input.options, { attachOnly: input.attachOnly ?? false, atRuntime: true })];
  }
  return out;
}

/**
 * Addition H: exit codes that report the job's fate or a lost head fail the Job at once (a retry cannot change
 * them and might submit again to a replacement head); evicted or preempted pods do not count against backoff.
 */
export function submitterPodFailurePolicy(containerName: string): NonNullable<K8sJob['spec']>['podFailurePolicy'] {
  return {
    rules: [
      { action: 'FailJob', onExitCodes: { containerName, operator: 'In', values: [...FINAL_SUBMITTER_EXIT_CODES] } },
      { action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] },
    ],
  };
}
