import { SubmitterEnv } from '../contracts/submitter-cli.ts';
import type { EnvVar, Pod, RayCluster, RayJob } from '../schema/index.ts';
import { submitterStateConfigMapName, submitterStateKey, type AttachOnlyMark } from './attach-only-mark.ts';

/**
 * The head an attempt's first K8sJobMode submitter Job started on, recorded under `head-ip.<cluster>.<submission
 * ID>` of the submitter-state ConfigMap before that Job is created, and never overwritten. Every pod of the Job
 * (the Job controller's retries, a Job we recreate) reads it and refuses to submit to a head at another IP: a
 * replaced head that does not know the job may be one whose predecessor ran it, unseen by the operator.
 */
export type SubmitterHeadRecord = AttachOnlyMark;

export function submitterHeadRecordOf(rayJob: RayJob, clusterName: string, jobId: string): SubmitterHeadRecord {
  return { configMap: submitterStateConfigMapName(rayJob.metadata.name ?? ''), key: submitterStateKey('expectedHeadIp', clusterName, jobId) };
}

/** RAYJOB_SUBMITTER_EXPECTED_HEAD_IP from the record's key; optional, so without a record there is no check. */
export function expectedHeadIpEnv(record: SubmitterHeadRecord): EnvVar {
  return { name: SubmitterEnv.expectedHeadIp, valueFrom: { configMapKeyRef: { name: record.configMap, key: record.key, optional: true } } };
}

/**
 * The head's IP as freshly as the RayJob controller sees it: a live (not terminating) head pod's own podIP; the
 * RayCluster's `status.head.podIP` only when no such pod is observed. Undefined when unknown, when several live
 * heads disagree, or when the live head has no IP yet (the cluster's status may still name its predecessor):
 * then nothing is recorded and the submitter does not check.
 */
export function currentHeadIP(cluster: RayCluster | undefined, headPods: readonly Pod[] | undefined): string | undefined {
  const live = (headPods ?? []).filter((p) => !p.metadata?.deletionTimestamp && p.status?.phase !== 'Failed' && p.status?.phase !== 'Succeeded');
  if (live.length > 0) {
    const ips = new Set(live.map((p) => p.status?.podIP ?? ''));
    if (ips.size !== 1) return undefined;
    const [ip] = [...ips];
    return ip || undefined;
  }
  return cluster?.status?.head?.podIP || undefined;
}
