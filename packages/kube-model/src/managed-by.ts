import { z } from 'zod';

/**
 * `spec.managedBy` values. An unset managedBy means KubeRay's default controller, and our operator is a
 * drop-in for it, so unset counts as ours. Our own name is accepted too so that both operators can coexist in
 * one cluster (KubeRay skips any value but its own).
 */
export const DEFAULT_MANAGED_BY = 'ray.io/kuberay-operator';
export const MULTIKUEUE_MANAGED_BY = 'kueue.x-k8s.io/multikueue';
export const RAYJOB_OPERATOR_MANAGED_BY = 'rayjob.io/operator';

/** Every value the generated CRDs accept; the operator's `--managed-by` may only take one of these. */
export const ACCEPTED_MANAGED_BY_VALUES = [DEFAULT_MANAGED_BY, MULTIKUEUE_MANAGED_BY, RAYJOB_OPERATOR_MANAGED_BY] as const;
export type ManagedBy = (typeof ACCEPTED_MANAGED_BY_VALUES)[number];

export const MANAGED_BY_IMMUTABLE_MESSAGE = 'the managedBy field is immutable';
export const MANAGED_BY_VALUE_MESSAGE =
  "the managedBy field value must be one of 'ray.io/kuberay-operator', 'kueue.x-k8s.io/multikueue' or 'rayjob.io/operator'";

/** True when an object with this managedBy is for the controller running as `controllerName`. */
export function isManagedBy(managedBy: string | undefined, controllerName: string): boolean {
  return (managedBy ?? DEFAULT_MANAGED_BY) === controllerName;
}

/**
 * The managedBy field schema shared by RayJob and RayCluster. zod accepts any string (a value written before
 * the CRD changed must still be readable); the API server enforces the list through the CEL rules below.
 */
export const ManagedBySchema = z.string().meta({
  'x-kubernetes-validations': [
    { rule: 'self == oldSelf', message: MANAGED_BY_IMMUTABLE_MESSAGE },
    {
      rule: `self in [${ACCEPTED_MANAGED_BY_VALUES.map((v) => `'${v}'`).join(', ')}]`,
      message: MANAGED_BY_VALUE_MESSAGE,
    },
  ],
});

/**
 * Checks the operator's `--managed-by` value: it must be one the CRDs accept, or no object could ever be
 * created for it and the operator would silently do nothing.
 */
export function checkManagedByFlag(value: string): { ok: true; value: ManagedBy } | { ok: false; message: string } {
  const accepted = ACCEPTED_MANAGED_BY_VALUES.find((v) => v === value);
  if (accepted) return { ok: true, value: accepted };
  return {
    ok: false,
    message: `--managed-by must be one of ${ACCEPTED_MANAGED_BY_VALUES.join(', ')} (the values the RayJob CRD accepts); got ${JSON.stringify(value)}`,
  };
}
