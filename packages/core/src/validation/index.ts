// Controller validation of RayJobs (KubeRay's rules, order and messages), as typed results.
export * from './result.ts';
export * from './messages.ts';
export * from './k8s-names.ts';
export * from './ray-version.ts';
export * from './runtime-env.ts';
export * from './deletion-strategy.ts';
export * from './raycluster-spec.ts';
export * from './raycluster-options.ts';
export * from './rayjob.ts';
export * from './parse.ts';
