import { z } from 'zod';
import { int64, stringMap, time } from './primitives.ts';

/** metav1.OwnerReference: how the operator finds the RayJob that owns a RayCluster, Job or Service. */
export const OwnerReferenceSchema = z.looseObject({
  apiVersion: z.string(),
  kind: z.string(),
  name: z.string(),
  uid: z.string(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});
export type OwnerReference = z.infer<typeof OwnerReferenceSchema>;

/**
 * metav1.ObjectMeta, the fields the operator reads or writes. Loose: everything else (managedFields, ...)
 * passes through untouched so an update never drops what another client wrote.
 */
export const ObjectMetaSchema = z.looseObject({
  name: z.string().optional(),
  generateName: z.string().optional(),
  namespace: z.string().optional(),
  uid: z.string().optional(),
  resourceVersion: z.string().optional(),
  generation: int64().optional(),
  creationTimestamp: time().optional(),
  deletionTimestamp: time().optional(),
  deletionGracePeriodSeconds: int64().optional(),
  labels: stringMap().optional(),
  annotations: stringMap().optional(),
  ownerReferences: z.array(OwnerReferenceSchema).optional(),
  finalizers: z.array(z.string()).optional(),
});
export type ObjectMeta = z.infer<typeof ObjectMetaSchema>;

export const CONDITION_STATUSES = ['True', 'False', 'Unknown'] as const;
export const ConditionStatusSchema = z.enum(CONDITION_STATUSES);
export type ConditionStatus = z.infer<typeof ConditionStatusSchema>;

const CONDITION_TYPE_PATTERN =
  '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$';

/** metav1.Condition (RayCluster status.conditions); the constraints are the ones the API machinery publishes. */
export const ConditionSchema = z.looseObject({
  type: z
    .string()
    .max(316)
    .regex(new RegExp(CONDITION_TYPE_PATTERN))
    // RegExp#source escapes '/', so publish the pattern text itself, byte-identical to Kubernetes' own.
    .meta({ pattern: CONDITION_TYPE_PATTERN }),
  status: ConditionStatusSchema,
  observedGeneration: int64().min(0).optional(),
  lastTransitionTime: time(),
  reason: z
    .string()
    .min(1)
    .max(1024)
    .regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/),
  message: z.string().max(32768),
});
export type Condition = z.infer<typeof ConditionSchema>;

/** A condition as batch/v1 Job and core/v1 Pod report them (looser than metav1.Condition). */
export const WorkloadConditionSchema = z.looseObject({
  type: z.string(),
  status: ConditionStatusSchema,
  reason: z.string().optional(),
  message: z.string().optional(),
  lastTransitionTime: time().optional(),
  lastProbeTime: time().nullable().optional(),
});
export type WorkloadCondition = z.infer<typeof WorkloadConditionSchema>;


/**
 * Any Kubernetes object as plain JSON, as the API server sent it: what every client, cache and the sandbox's store
 * hold. Callers narrow it with their own (zod) schemas; the metadata type is the schema above (loose: unknown
 * fields such as managedFields pass through).
 */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
}

export interface ListMeta {
  resourceVersion?: string;
  continue?: string;
  remainingItemCount?: number;
}

export interface ObjectList<T extends KubeObject = KubeObject> {
  apiVersion?: string;
  kind?: string;
  metadata: ListMeta;
  items: T[];
}
