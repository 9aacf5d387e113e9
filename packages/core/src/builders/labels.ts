import type { OwnerReference, RayJob } from '../schema/index.ts';

/** Label and annotation keys KubeRay uses; dashboards, alerts and Kueue select on them. */
export const labelKeys = {
  originatedFromCrName: 'ray.io/originated-from-cr-name',
  originatedFromCrd: 'ray.io/originated-from-crd',
  jobSubmissionMode: 'ray.io/job-submission-mode',
  createdBy: 'app.kubernetes.io/created-by',
  appName: 'app.kubernetes.io/name',
  cluster: 'ray.io/cluster',
  nodeType: 'ray.io/node-type',
  identifier: 'ray.io/identifier',
  jobName: 'job-name',
} as const;

export const annotationKeys = {
  disableProvisionedHeadRestart: 'ray.io/disable-provisioned-head-restart',
} as const;

/** The value of app.kubernetes.io/created-by; the operator's cache only sees Jobs carrying it. */
export const CREATED_BY_OPERATOR = 'kuberay-operator';
export const ORIGINATED_FROM_RAYJOB = 'RayJob';

/** The labels every object a RayJob creates carries (KubeRay's three). */
export function rayJobChildLabels(rayJob: RayJob): Record<string, string> {
  return {
    [labelKeys.originatedFromCrName]: rayJob.metadata.name ?? '',
    [labelKeys.originatedFromCrd]: ORIGINATED_FROM_RAYJOB,
    [labelKeys.createdBy]: CREATED_BY_OPERATOR,
  };
}

/** A controller ownerReference to the RayJob, so deleting the RayJob garbage-collects what it created. */
export function ownerReferenceTo(rayJob: RayJob): OwnerReference {
  return {
    apiVersion: 'ray.io/v1',
    kind: 'RayJob',
    name: rayJob.metadata.name ?? '',
    uid: rayJob.metadata.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/**
 * A label value Kubernetes accepts: at most 63 characters. KubeRay keeps the tail (the distinctive part of a
 * generated name) and trims leading characters that are not alphanumeric.
 */
export function sanitizeLabelValue(value: string): string {
  let out = value.length > 63 ? value.slice(value.length - 63) : value;
  out = out.replace(/^[^A-Za-z0-9]+/, '').replace(/[^A-Za-z0-9]+$/, '');
  return out;
}
