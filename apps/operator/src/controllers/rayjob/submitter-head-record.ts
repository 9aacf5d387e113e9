import type { Action, OperatorMemory, RayJob } from '@rayjob/core';
import type { KubeResult, KubernetesObject, KubeWriter, ObjectRef } from './kube-writer.ts';
import { ownedBy } from './object-view.ts';

export type HeadRecordApplied =
  | { kind: 'ok'; memory: OperatorMemory }
  | { kind: 'conflict'; memory: OperatorMemory; what: string }
  | { kind: 'error'; memory: OperatorMemory; message: string };

/**
 * K8sJobMode: record the head of the attempt's first submitter Job in the submitter-state ConfigMap, before the
 * Job is created. Create it, or on 409 merge the key into ours, never changing a key that is already there (a
 * Job recreated after the operator was away keeps the first head; the key being there is also how a record
 * written just before an operator restart is found). Any failure (429, 5xx, a lost race) is an error or a
 * conflict, so the executor stops before the Job: the next pass asks again, and a Job never runs unrecorded.
 */
export async function recordSubmitterHead(
  action: Extract<Action, { type: 'recordSubmitterHead' }>,
  rayJob: RayJob,
  memory: OperatorMemory,
  deps: { writer: KubeWriter },
): Promise<HeadRecordApplied> {
  const recorded: HeadRecordApplied = { kind: 'ok', memory: { ...memory, submitterHeadRecorded: { key: action.key } } };
  const obj = action.configMap as KubernetesObject;
  const ref: ObjectRef = { apiVersion: 'v1', kind: 'ConfigMap', namespace: obj.metadata?.namespace ?? 'default', name: obj.metadata?.name ?? '' };
  const error = (what: string, r: Extract<KubeResult<unknown>, { ok: false }>): HeadRecordApplied =>
    ({ kind: 'error', memory, message: `record the submitter's head (${ref.name}): ${what}: ${r.code || r.reason} ${r.message}` });
  const created = await deps.writer.create(obj);
  if (created.ok) return recorded;
  if (created.code !== 409) return error('create', created);
  const existing = await deps.writer.read<KubernetesObject & { data?: Record<string, string> }>(ref);
  if (!existing.ok) return error('read after 409', existing);
  if (!ownedBy(existing.value, rayJob)) {
    return { kind: 'error', memory, message: `ConfigMap ${ref.namespace}/${ref.name} already exists and is not owned by this RayJob; delete or rename it` };
  }
  if (existing.value.data?.[action.key] !== undefined) return recorded;
  // The resourceVersion makes the merge fail rather than race another writer of the same key.
  const patch = { metadata: { resourceVersion: existing.value.metadata?.resourceVersion }, data: { [action.key]: action.headIP } };
  const patched = await deps.writer.mergePatch(ref, patch);
  if (patched.ok) return recorded;
  if (patched.code === 409) return { kind: 'conflict', memory, what: 'submitter-state ConfigMap' };
  return error('patch', patched);
}
