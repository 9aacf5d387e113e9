// The shapes the store keeps. Objects are plain JSON, never mutated after they are stored
// (every write replaces the stored value), so readers can share them without copying.

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  [key: string]: unknown;
}

export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  [key: string]: unknown;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change recorded in the store's bounded history. `bucket` names the resource ("group/plural"). */
export interface StoreEvent {
  type: WatchEventType;
  bucket: string;
  rv: number;
  object: KubeObject;
  /** The previous value, for MODIFIED (lets selector-filtered watches turn it into ADDED/DELETED). */
  old?: KubeObject;
}
