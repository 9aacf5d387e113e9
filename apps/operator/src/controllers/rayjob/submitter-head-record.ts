import type { Action, OperatorMemory, RayJob } from '@rayjob/core';
import { resources, type KubeClient, type KubeError, type KubeObject, type ReconcileResult } from '@rayjob/kube-runtime';
import { RAYJOB_CONTROLLER_NAME } from './events.ts';
import { ownedBy } from './observe.ts';

/**
 * K8sJobMode: record the head of the attempt's first submitter Job in the submitter-state ConfigMap, before the
 * Job is created. Create it, or on 409 merge the key into ours, never changing a key that is already there (a
 * Job recreated after the operator was away keeps the first head; the key being there is also how a record
 * written just before an operator restart is found). Any failure (429, 5xx, a lost race) is an error or a
 * conflict, so the executor stops before the Job: the next pass asks again, and a Job never runs unrecorded.
 */
export async function recordSubmitterHead(action: Extract<Action, { type: 'recordSubmitterHead' }>, pass: { memory: OperatorMemory; current: RayJob }, deps: { client: KubeClient }): Promise<ReconcileResult> {
  const write = { fieldManager: RAYJOB_CONTROLLER_NAME };
  const ref = { namespace: action.configMap.metadata.namespace ?? 'default', name: action.configMap.metadata.name ?? '' };
  const recorded = (): ReconcileResult => void (pass.memory = { ...pass.memory, submitterHeadRecorded: { key: action.key } });
  const error = (what: string, e: KubeError): ReconcileResult => ({ error: `record the submitter's head (${ref.name}): ${what}: ${e.status || e.reason} ${e.message}` });
  const created = await deps.client.create(resources.configmaps, action.configMap, undefined, write);
  if (created.ok) return recorded();
  if (created.error.status !== 409) return error('create', created.error);
  const existing = await deps.client.get<KubeObject & { data?: Record<string, string> }>(resources.configmaps, ref);
  if (!existing.ok) return error('read after 409', existing.error);
  if (!ownedBy(existing.value, pass.current)) {
    return { error: `ConfigMap ${ref.namespace}/${ref.name} already exists and is not owned by this RayJob; delete or rename it` };
  }
  if (existing.value.data?.[action.key] !== undefined) return recorded();
  // The resourceVersion makes the merge fail rather than race another writer of the same key.
  const patch = { metadata: { resourceVersion: existing.value.metadata.resourceVersion }, data: { [action.key]: action.headIP } };
  const patched = await deps.client.patch(resources.configmaps, ref, patch, 'merge', write);
  if (patched.ok) return recorded();
  if (patched.error.status === 409) return { requeue: true };
  return error('patch', patched.error);
}
