import { ATTACH_ONLY_ENV_VALUE, SubmitterEnv, submitterStateKeyText, type SubmitterStateKeyKindName } from '../contracts/submitter-cli.ts';
import type { ConfigMap, EnvVar, RayJob } from '../schema/index.ts';
import { ownerReferenceTo, rayJobChildLabels } from './labels.ts';

/**
 * Addition H, for submitters built before any Ray status was recorded (the first K8sJobMode Job, SidecarMode's
 * sidecar): they read attach-only from a key of a per-RayJob ConfigMap, optional, so it is off until the
 * operator writes the key once Ray reported the job. The kubelet resolves the env at each container start, so a
 * pod the Job controller retries, or the sidecar of a replacement head, sees the mark and only attaches.
 */
export interface AttachOnlyMark {
  /** The ConfigMap `<rayjob>-submitter-state` (KubeRay creates no ConfigMap for a RayJob: no clash). */
  configMap: string;
  /** One key per attempt (cluster and submission ID), so a retry of the RayJob starts unmarked. */
  key: string;
}

export const SUBMITTER_STATE_SUFFIX = '-submitter-state';
const MAX_NAME = 253;
/** ConfigMap keys: `[-._a-zA-Z0-9]+`, at most 253 characters. */
const KEY_CHARS = /[^-._a-zA-Z0-9]/g;
const MAX_KEY = 253;

export function submitterStateConfigMapName(rayJobName: string): string {
  return `${rayJobName.slice(0, MAX_NAME - SUBMITTER_STATE_SUFFIX.length)}${SUBMITTER_STATE_SUFFIX}`;
}

/**
 * `attach-only.<cluster>.<submission ID>`. A name with characters a key cannot hold, or too long, keeps a
 * readable prefix plus a hash of the exact text, so two attempts never share a key by sanitising.
 */
export function attachOnlyMarkKey(clusterName: string, jobId: string): string {
  return submitterStateKey('attachOnly', clusterName, jobId);
}

/** Any key of the submitter-state ConfigMap (see SubmitterStateKeyKind), sanitised as attachOnlyMarkKey says. */
export function submitterStateKey(kind: SubmitterStateKeyKindName, clusterName: string, jobId: string): string {
  const raw = submitterStateKeyText(kind, clusterName, jobId);
  const clean = raw.replace(KEY_CHARS, '_');
  if (clean === raw && raw.length <= MAX_KEY) return raw;
  return `${clean.slice(0, MAX_KEY - 9)}.${fnv1a32(raw)}`;
}

export function attachOnlyMarkOf(rayJob: RayJob, clusterName: string, jobId: string): AttachOnlyMark {
  return { configMap: submitterStateConfigMapName(rayJob.metadata.name ?? ''), key: attachOnlyMarkKey(clusterName, jobId) };
}

/** RAYJOB_SUBMITTER_ATTACH_ONLY from the mark's key; optional, so an absent ConfigMap or key leaves it unset. */
export function attachOnlyEnvFromMark(mark: AttachOnlyMark): EnvVar {
  return { name: SubmitterEnv.attachOnly, valueFrom: { configMapKeyRef: { name: mark.configMap, key: mark.key, optional: true } } };
}

/**
 * The ConfigMap holding one key (the mark, or another SubmitterStateKeyKind with its value), owned by the RayJob
 * (garbage-collected with it), labelled like its other children.
 */
export function buildSubmitterStateConfigMap(rayJob: RayJob, mark: AttachOnlyMark, value: string = ATTACH_ONLY_ENV_VALUE): ConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: mark.configMap,
      namespace: rayJob.metadata.namespace,
      labels: rayJobChildLabels(rayJob),
      ownerReferences: [ownerReferenceTo(rayJob)],
    },
    data: { [mark.key]: value },
  };
}

/** 32-bit FNV-1a over UTF-16 code units, as 8 hex digits: a stable, dependency-free tag (not a security hash). */
function fnv1a32(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
