import { formatGoDateTime, formatGoTimeString } from '../go-text/time-format.ts';

/**
 * Status messages and reasons users and tests match on. KubeRay's texts are kept word for word so existing
 * alerts and greps keep working; ours (additions) say what happened and why.
 */
export const messages = {
  submitterJobFailed: (reason: string, message: string) => `Job submission has failed. Reason: ${reason}. Message: ${message}`,
  sidecarTerminated: (exitCode: number, reason: string) =>
    `Ray head pod container ray-job-submitter terminated with exit code ${exitCode}: ${reason}`,
  sidecarRestartsExceeded: 'Ray head pod submitter container ray-job-submitter terminated after exceeding the maximum restart count',
  headPodNotFound: 'Ray head pod not found.',
  jobNotFoundAfterSubmitter: 'Submitter completed but Ray job not found in RayCluster.',
  submitterFinishedTimeout: (finishedAt: Date, timeoutSeconds: number) =>
    `The RayJob submitter finished at ${formatGoDateTime(finishedAt)} but the ray job did not reach terminal state within ${timeoutSeconds}s`,
  transitionGracePeriod:
    'JobDeploymentStatus does not transition to Complete or Failed within the grace period after JobStatus reaches a terminal state.',
  statusCheckTimeout: (since: Date, timeoutSeconds: number) =>
    `Job status checks have been failing since ${formatGoDateTime(since)}; exceeded timeout of ${timeoutSeconds}s`,
  activeDeadline: (startTime: Date, seconds: number) =>
    `The RayJob has passed the activeDeadlineSeconds. StartTime: ${formatGoTimeString(startTime)}. ActiveDeadlineSeconds: ${seconds}`,
  preRunningDeadline: (startTime: Date, seconds: number) =>
    `The RayJob has passed the preRunningDeadlineSeconds. StartTime: ${formatGoTimeString(startTime)}. PreRunningDeadlineSeconds: ${seconds}`,
  // Ours (addition F): the driver's node is gone while Ray still says RUNNING (ray#65037).
  driverLost: (nodeId: string, since: Date, seconds: number) =>
    `The Ray job's driver node ${nodeId} has been DEAD or missing since ${formatGoDateTime(since)}; the job cannot finish (no evidence of life within ${seconds}s)`,
  // Ours (fix of KubeRay's silent re-creation): the RayCluster vanished under a Running RayJob.
  clusterDeleted: (ns: string, name: string) => `RayCluster ${ns}/${name} was deleted while the RayJob was running; the Ray job is lost.`,
  // Ours (addition H): a job Ray reported is unknown to the head now; it is never submitted again.
  headLost: (jobId: string, lastStatus: string) =>
    `Ray job ${jobId} was last seen ${lastStatus} but the Ray head no longer knows it: the head was lost or replaced. The job is not submitted again.`,
  // Ours (addition H): a retried submitter submitted the job again to a replacement head.
  resubmitted: (jobId: string, recordedStart: Date, freshStart: Date) =>
    `Ray job ${jobId} started at ${formatGoDateTime(recordedStart)} was lost with its head and submitted again at ${formatGoDateTime(freshStart)}; the second run is stopped.`,
  // Ours (addition A): the dashboard is gone but the submitter recorded the job's end.
  fromTerminationMessage: (status: string) => `The Ray head can no longer answer; the submitter recorded the job as ${status} before it exited.`,
} as const;

/** Used only when neither Ray nor an earlier status gave a message for a Failed RayJob. */
export function fallbackFailureMessage(reason: string | undefined): string {
  return reason === 'AppFailed' ? 'The Ray job failed; Ray reported no message.' : `The RayJob failed: ${reason ?? 'unknown reason'}.`;
}

export const eventNotes = {
  validation: (ns: string, name: string, error: string) => `${ns}/${name}: ${error}`,
  clusterSelectorNotFound: (ns: string, name: string) =>
    `RayCluster ${ns}/${name} set in the clusterSelector is not found. It must be created manually`,
  createdRayCluster: (ns: string, name: string) => `Created RayCluster ${ns}/${name}`,
  failedToCreateRayCluster: (ns: string, name: string, err: string) => `Failed to create RayCluster ${ns}/${name}: ${err}`,
  createdSubmitter: (ns: string, name: string) => `Created Kubernetes Job ${ns}/${name}`,
  failedToCreateSubmitter: (ns: string, name: string, err: string) => `Failed to create new Kubernetes Job ${ns}/${name}: ${err}`,
  deletedSubmitter: (ns: string, name: string) => `Deleted submitter K8s Job ${ns}/${name}`,
  failedToDeleteSubmitter: (ns: string, name: string, err: string) => `Failed to delete submitter K8s Job ${ns}/${name}: ${err}`,
  deletedCluster: (ns: string, name: string) => `Deleted cluster ${ns}/${name}`,
  failedToDeleteCluster: (ns: string, name: string, err: string) => `Failed to delete cluster ${ns}/${name}: ${err}`,
  suspendedWorkers: (ns: string, name: string) => `Set the \`suspend\` field to true for all worker groups in cluster ${ns}/${name}`,
  failedToSuspendWorkers: (ns: string, name: string, err: string) => `Failed to suspend worker groups in cluster ${ns}/${name}: ${err}`,
  createdService: (ns: string, name: string) => `Created the service ${ns}/${name}`,
  failedToCreateService: (ns: string, name: string, err: string) => `Failed to create the service ${ns}/${name}, ${err}`,
  updatedService: (ns: string, name: string) => `Updated the service ${ns}/${name}`,
  failedToUpdateService: (ns: string, name: string, err: string) => `Failed to update the service ${ns}/${name}, ${err}`,
  // Ours (addition C).
  stoppedRayJob: (ns: string, name: string, jobId: string, why: string) => `Stopped Ray job ${jobId} of RayJob ${ns}/${name}: ${why}`,
  recreatedSubmitter: (ns: string, name: string) => `Recreated the missing submitter Kubernetes Job ${ns}/${name}; it re-attaches to the running Ray job`,
} as const;
