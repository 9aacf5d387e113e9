// The Kubernetes object schemas of core: RayJob, RayCluster and the slices of Job, Pod and Service the operator reads.
export * from './kube-primitives.ts';
export * from './kube-meta.ts';
export * from './managed-by.ts';
export * from './pod.ts';
export * from './k8s-job.ts';
export * from './service.ts';
export * from './config-map.ts';
export * from './raycluster.ts';
export * from './rayjob.ts';
