import { semanticEqual } from '@rayjob/kube-model';
import type { RayJobResourceStatus } from '../schema/index.ts';

/**
 * Deep equality of two statuses, ignoring undefined fields and key order (kube-model's semanticEqual) and the RayCluster
 * status' lastUpdateTime (which the RayCluster controller bumps on every write and would otherwise force a RayJob
 * status write each time). Every pass compares twice or four times; a key-sorted JSON copy of each side made most of
 * what a RayJob pass allocated.
 */
export function statusEqual(a: RayJobResourceStatus, b: RayJobResourceStatus): boolean {
  return semanticEqual(withoutUpdateTime(a), withoutUpdateTime(b));
}

const withoutUpdateTime = (status: RayJobResourceStatus): RayJobResourceStatus =>
  status.rayClusterStatus?.lastUpdateTime === undefined ? status : { ...status, rayClusterStatus: { ...status.rayClusterStatus, lastUpdateTime: undefined } };

/**
 * Whether a decided status is worth a write. KubeRay writes only when jobStatus, jobDeploymentStatus, the mirrored
 * RayCluster status or the status-check timer changed; every other field rides along with such a write
 * (kuberay-rayjob.md 2.2). This operator writes every change of what it decides (docs/compatibility.md row 15),
 * with KubeRay's one hold-back: while the RayJob stays Running, Ray's commentary alone — `message` (Ray's words for
 * a status it already reported), `rayJobInfo` (Ray's start and end times) and the wording of a condition whose
 * status and reason stay — waits for the next write. Each is decided again from the fresh answer on every look,
 * so it reaches the CR with the next change (Ray's next status, the verdict). Nothing decides on them in between:
 * a recorded start time is read only to spot a resubmitted K8sJobMode job, whose first sighting is a jobStatus
 * change and is written with it.
 */
export function statusWorthWriting(before: RayJobResourceStatus, after: RayJobResourceStatus): boolean {
  if (statusEqual(before, after)) return false;
  if (before.jobDeploymentStatus !== 'Running' || after.jobDeploymentStatus !== 'Running') return true;
  return !statusEqual(withoutCommentary(before), withoutCommentary(after));
}

function withoutCommentary(status: RayJobResourceStatus): RayJobResourceStatus {
  const { message: _message, rayJobInfo: _info, ...rest } = status;
  return { ...rest, ...(status.conditions && { conditions: status.conditions.map((c) => ({ ...c, message: '' })) }) };
}
