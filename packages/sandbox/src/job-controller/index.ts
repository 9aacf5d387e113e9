export { startJobController } from './controller.ts';
export type { JobController, JobControllerOptions } from './controller.ts';
export { decideJob, backoffDelayMs, isPodFailed, jobMessages, trackingFinalizer, defaultJobTiming } from './decide.ts';
export type { JobControllerTiming, JobDecision, JobObservation } from './decide.ts';
export { matchPodFailurePolicy } from './pod-failure-policy.ts';
export { buildJobPod, jobPodLabels } from './pod-template.ts';
export { ttlVerdict } from './ttl-after-finished.ts';
