import { isJobDeploymentTerminal, type RayJobResourceStatus } from '../schema/index.ts';
import { parseKubeTime } from '../go-text/time-format.ts';

/** One sample of `kuberay_job_execution_duration_seconds` (labels name, namespace, uid come from the RayJob). */
export interface ExecutionDurationSample {
  seconds: number;
  jobDeploymentStatus: string;
  /** `retry_count`: the attempts that had failed before this one (the original `status.failed`). */
  retryCount: number;
}

/**
 * KubeRay records the execution duration once per attempt, when a reconcile takes a RayJob from a live state to
 * Complete, Failed or Retrying; the value is measured from the attempt's startTime.
 */
export function executionDurationSample(original: RayJobResourceStatus, next: RayJobResourceStatus, now: Date): ExecutionDurationSample | undefined {
  if (isJobDeploymentTerminal(original.jobDeploymentStatus)) return undefined;
  const to = next.jobDeploymentStatus;
  if (!isJobDeploymentTerminal(to) && to !== 'Retrying') return undefined;
  const start = parseKubeTime(next.startTime ?? original.startTime);
  if (!start) return undefined;
  return { seconds: (now.getTime() - start.getTime()) / 1000, jobDeploymentStatus: to ?? '', retryCount: original.failed ?? 0 };
}
