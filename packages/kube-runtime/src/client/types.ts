// The watch protocol's shapes and object keys. Objects are plain JSON as the API server sent them; callers narrow
// them with their own (zod) types.
import type { KubeObject, ObjectMeta } from '@rayjob/kube-model';

// Object shapes are @rayjob/kube-model's (one definition for core, the runtime and the sandbox).
export type { KubeObject, ListMeta, ObjectList, ObjectMeta, OwnerReference } from '@rayjob/kube-model';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export type WatchEvent<T extends KubeObject = KubeObject> =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: T }
  | { type: 'BOOKMARK'; object: KubeObject }
  | { type: 'ERROR'; object: StatusObject };

/** meta/v1 Status, as the API server sends it for failures. */
export interface StatusObject {
  kind?: 'Status';
  apiVersion?: string;
  status?: string;
  message?: string;
  reason?: string;
  code?: number;
  details?: { name?: string; group?: string; kind?: string; uid?: string; retryAfterSeconds?: number; causes?: Array<{ reason?: string; message?: string; field?: string }> };
}

/** namespace/name, or name for cluster-scoped objects: client-go's cache key. */
export function objectKey(obj: { metadata: Pick<ObjectMeta, 'namespace' | 'name'> }): string {
  const ns = obj.metadata.namespace ?? '';
  return ns === '' ? (obj.metadata.name ?? '') : `${ns}/${obj.metadata.name ?? ''}`;
}

export function splitKey(key: string): { namespace?: string; name: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}
