// The shapes the store keeps. Objects are plain JSON, never mutated after they are stored
// (every write replaces the stored value), so readers can share them without copying.

// Object metadata is defined once, in @rayjob/kube-model (what every client in the repo reads and writes); the
// store takes it open-ended, keeping any other field a client sent.
import type { ObjectMeta as ClientObjectMeta } from '@rayjob/kube-model';

export type { OwnerReference } from '@rayjob/kube-model';

export interface ObjectMeta extends ClientObjectMeta {
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
  /**
   * The previous value, for MODIFIED (lets selector-filtered watches turn it into ADDED/DELETED) and DELETED (the
   * object as stored before, with its resourceVersion: a list at an older resourceVersion rebuilds it).
   */
  old?: KubeObject;
}
