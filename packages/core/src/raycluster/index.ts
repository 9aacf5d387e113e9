// The RayCluster controller's pure decisions: what to create/delete, and the status to write.
export * from './actions.ts';
export * from './expectations.ts';
export * from './pod-health.ts';
export * from './plan.ts';
export * from './plan-workers.ts';
export * from './plan-multi-host.ts';
export * from './desired-resources.ts';
export * from './status.ts';
export * from './validate.ts';
export * from './gcs-ft-finalizer.ts';
