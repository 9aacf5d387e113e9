import type { RayJobResourceStatus, SubmissionMode } from '../../schema/index.ts';
import { RAYJOB_CONDITION_TYPES as T, type ConditionDraft } from './types.ts';

export interface JobFacts {
  status: RayJobResourceStatus;
  mode: SubmissionMode;
  /** K8sJobMode: the submitter Job exists. */
  submitterJobExists: boolean;
  backoffLimit: number;
  /** Evidence the verdict's status message leaves out (running/evidence.ts). */
  verdictEvidence?: string | undefined;
}

/** JobSubmitted: True once Ray reported the job (Ray accepted it); the submitter's claims alone are Unknown. */
export function submittedCondition(f: JobFacts): ConditionDraft {
  const { status } = f;
  const jobId = status.jobId ?? '';
  if (status.jobStatus) return { type: T.submitted, status: 'True', reason: 'AcceptedByRay', message: `Ray accepted job ${jobId}.`, event: 'Normal' };
  if (status.reason === 'SubmissionFailed' && (status.jobDeploymentStatus === 'Failed' || status.jobDeploymentStatus === 'Retrying')) {
    return { type: T.submitted, status: 'False', reason: 'SubmissionFailed', message: status.message ?? 'The submission failed.', event: 'Warning' };
  }
  const deployment = status.jobDeploymentStatus ?? '';
  if (deployment === 'Waiting') {
    return { type: T.submitted, status: 'False', reason: 'WaitingForJobId', message: 'InteractiveMode: submit the job by hand, then set spec.jobId to its submission ID.' };
  }
  if (deployment === 'Running' || (deployment === 'Initializing' && f.submitterJobExists)) {
    const by = f.mode === 'HTTPMode' ? 'the operator (HTTPMode)' : f.mode === 'SidecarMode' ? 'the submitter container of the head pod' : 'the submitter Job';
    return { type: T.submitted, status: 'Unknown', reason: 'Submitting', message: `Job ${jobId} is being submitted by ${by}; Ray has not reported it yet.` };
  }
  return { type: T.submitted, status: 'False', reason: 'NotSubmitted', message: 'The job is submitted once its RayCluster is ready.' };
}

/** JobRunning outside Running (Running's own evidence comes from its rules: see running/evidence.ts). */
export function runningConditionOutside(f: JobFacts): ConditionDraft {
  const { status } = f;
  const deployment = status.jobDeploymentStatus ?? '';
  const jobId = status.jobId ?? '';
  switch (deployment) {
    case 'Complete':
    case 'Failed': {
      const terminal = terminalCondition(f);
      return { type: T.running, status: 'False', reason: terminal?.reason ?? 'JobFinished', message: `The job is no longer running: ${terminal?.message ?? deployment}` };
    }
    case 'Suspending':
    case 'Suspended':
      return { type: T.running, status: 'False', reason: 'Suspended', message: 'The RayJob is suspended: its RayCluster is deleted and the job does not run.' };
    case 'Retrying':
      return { type: T.running, status: 'False', reason: 'Retrying', message: `Attempt ${status.failed ?? 0} of ${f.backoffLimit + 1} failed; the job starts again on a new RayCluster.` };
    case 'ValidationFailed':
      return { type: T.running, status: 'False', reason: 'ValidationFailed', message: status.message ?? 'The RayJob spec is invalid.' };
    default:
      return { type: T.running, status: 'False', reason: 'NotStarted', message: notStartedMessage(jobId) };
  }
}

/** Complete or Failed, present only once the RayJob is there (batch/v1 Job style). */
export function terminalCondition(f: JobFacts): ConditionDraft | undefined {
  const { status } = f;
  const jobId = status.jobId ?? '';
  if (status.jobDeploymentStatus === 'Complete') {
    const reason = status.reason ?? (status.jobStatus === 'STOPPED' ? 'JobStopped' : 'JobSucceeded');
    // Ray's own ending (no reason of ours): say whose word it is; a reason of ours comes with its own message.
    const ray = `Ray reports Ray job ${jobId} ${status.jobStatus || 'finished'}`;
    const base = status.reason ? status.message || `${ray}.` : status.message ? `${ray}: ${status.message}` : `${ray}.`;
    const message = [base, f.verdictEvidence].filter(Boolean).join(' ');
    return { type: T.complete, status: 'True', reason, message, event: 'Normal' };
  }
  if (status.jobDeploymentStatus === 'Failed') {
    const message = [status.message || 'The RayJob failed.', f.verdictEvidence].filter(Boolean).join(' ');
    return { type: T.failed, status: 'True', reason: status.reason ?? 'Failed', message, event: 'Warning' };
  }
  return undefined;
}

export function suspendedCondition(f: JobFacts): ConditionDraft {
  switch (f.status.jobDeploymentStatus) {
    case 'Suspended':
      return { type: T.suspended, status: 'True', reason: 'Suspended', message: 'spec.suspend is true: the RayCluster is deleted; set it to false to start over.', event: 'Normal' };
    case 'Suspending':
      return { type: T.suspended, status: 'False', reason: 'Suspending', message: 'spec.suspend is true: the job is stopped and its RayCluster deleted.', event: 'Normal' };
    default:
      return { type: T.suspended, status: 'False', reason: 'NotSuspended', message: 'The RayJob is not suspended.' };
  }
}

export const notStartedMessage = (jobId: string): string => (jobId ? `Ray job ${jobId} has not started yet.` : 'The job has not started yet.');
