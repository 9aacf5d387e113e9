// Kubernetes basics, defined once for core, kube-runtime, the sandbox and the apps. Pure: no I/O, no clock.
export * from './primitives.ts';
export * from './object-meta.ts';
export * from './managed-by.ts';
export * from './time.ts';
export * from './semantic-equal.ts';
export * from './image-reference.ts';
export * from './ray-job-status.ts';
export * from './ray-version.ts';
export * from './ray-browser-traffic.ts';
