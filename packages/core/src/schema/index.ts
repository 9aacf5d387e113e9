// The Kubernetes object schemas of core: RayJob, RayCluster and the slices of Job, Pod and Service the operator reads.
// Object metadata, conditions, the CRD building blocks and managedBy are @rayjob/kube-model's (defined once).
export * from '@rayjob/kube-model';
export * from './pod.ts';
export * from './k8s-job.ts';
export * from './service.ts';
export * from './config-map.ts';
export * from './raycluster.ts';
export * from './rayjob.ts';
// Ray's job status is kube-model's RayJobStatus; in schema/ the name means the RayJob's status object, as before.
export type { RayJobStatus } from './rayjob.ts';
