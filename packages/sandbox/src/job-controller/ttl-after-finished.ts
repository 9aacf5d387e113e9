// Kubernetes' TTL-after-finished controller, folded into the Job controller: a finished Job with
// spec.ttlSecondsAfterFinished is deleted (foreground, so its pods go first) that long after the
// Complete/Failed condition's transition time.
import type { Job } from '../kube-objects/types.ts';

export type TtlVerdict = { action: 'none' } | { action: 'wait'; ms: number } | { action: 'delete' };

export function ttlVerdict(job: Job, now: number): TtlVerdict {
  const ttl = job.spec.ttlSecondsAfterFinished;
  if (ttl === undefined || ttl === null || job.metadata.deletionTimestamp !== undefined) return { action: 'none' };
  const finished = job.status?.conditions?.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  if (finished?.lastTransitionTime === undefined) return { action: 'none' };
  const remaining = Date.parse(finished.lastTransitionTime) + ttl * 1000 - now;
  return remaining <= 0 ? { action: 'delete' } : { action: 'wait', ms: remaining };
}
