import type { K8sJob, Pod, RayCluster, RayJob, Service } from '@rayjob/core';

/** The kinds the RayJob controller reads; every read after sync comes from the informers' cache. */
export interface ObjectView {
  rayJob(namespace: string, name: string): RayJob | undefined;
  rayCluster(namespace: string, name: string): RayCluster | undefined;
  service(namespace: string, name: string): Service | undefined;
  job(namespace: string, name: string): K8sJob | undefined;
  pods(namespace: string, labels: Readonly<Record<string, string>>): Pod[];
}

/** True when `obj` carries a controller ownerReference to this RayJob (so it is ours to use). */
export function ownedBy(obj: { metadata: { ownerReferences?: Array<{ uid?: string | undefined; controller?: boolean | undefined }> | undefined } }, owner: { metadata: { uid?: string | undefined } }): boolean {
  const uid = owner.metadata.uid;
  return !!uid && (obj.metadata.ownerReferences ?? []).some((r) => r.uid === uid && r.controller === true);
}
