// pods/{name}/binding (scheduling a pod onto a node) and pods/{name}/eviction (policy/v1 Eviction).
import type { KubeObject } from '../../store/types.ts';
import type { ApiContext } from '../storage/context.ts';
import { timeNow } from '../encodings/microtime.ts';
import { deleteObject, present, replaceObject, type DeleteOptions } from '../storage/objects.ts';
import type { ResourceType } from '../registry/resource-types.ts';
import { badRequest, conflictMessage, notFound, type StatusBody } from '../errors/status.ts';

type Obj = Record<string, unknown>;

function setCondition(status: Obj, condition: Obj): void {
  const conditions = ((status.conditions as Obj[]) ?? []).filter((c) => c.type !== condition.type);
  conditions.push(condition);
  status.conditions = conditions;
}

export function bindPod(ctx: ApiContext, pods: ResourceType, namespace: string, name: string, body: unknown): StatusBody {
  const target = ((body ?? {}) as Obj).target as Obj | undefined;
  if (!target?.name) throw badRequest('target.name: Required value');
  const stored = ctx.store.get(pods.bucket, namespace, name);
  if (!stored) throw notFound('pods', '', name);
  const pod = structuredClone(present(pods, stored));
  const spec = (pod.spec ?? {}) as Obj;
  if (spec.nodeName) throw conflictMessage('pods', '', name, `pod ${name} is already assigned to node "${String(spec.nodeName)}"`);
  if (pod.metadata.deletionTimestamp) throw conflictMessage('pods', '', name, `pod ${name} is being deleted, cannot be assigned to a host`);
  spec.nodeName = target.name;
  pod.spec = spec;
  // Binding writes spec.nodeName (normally immutable) and the PodScheduled condition.
  const withNode = ctx.store.update(pods.bucket, pod, stored.metadata.resourceVersion);
  if (!withNode.ok) throw conflictMessage('pods', '', name, 'the object has been modified; please apply your changes to the latest version and try again');
  const status = structuredClone((withNode.value.status ?? {}) as Obj);
  setCondition(status, { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: timeNow(ctx.now()) });
  replaceObject(ctx, pods, namespace, name, { ...withNode.value, status }, { subresource: 'status', internal: true });
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
}

export function evictPod(ctx: ApiContext, pods: ResourceType, namespace: string, name: string, body: unknown): StatusBody {
  const stored = ctx.store.get(pods.bucket, namespace, name);
  if (!stored) throw notFound('pods', '', name);
  const pod: KubeObject = structuredClone(present(pods, stored));
  if (!pod.metadata.deletionTimestamp) {
    const status = (pod.status ?? {}) as Obj;
    setCondition(status, {
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'EvictionByEvictionAPI',
      message: 'Eviction API: evicting',
      lastProbeTime: null,
      lastTransitionTime: timeNow(ctx.now()),
    });
    pod.status = status;
    replaceObject(ctx, pods, namespace, name, pod, { subresource: 'status', internal: true });
  }
  const options = (((body ?? {}) as Obj).deleteOptions ?? {}) as Obj;
  const deleteOptions: DeleteOptions = {
    ...(typeof options.gracePeriodSeconds === 'number' && { gracePeriodSeconds: options.gracePeriodSeconds }),
    ...(typeof options.propagationPolicy === 'string' && { propagationPolicy: options.propagationPolicy as DeleteOptions['propagationPolicy'] }),
    ...(options.preconditions !== undefined && { preconditions: options.preconditions as DeleteOptions['preconditions'] }),
  };
  deleteObject(ctx, pods, namespace, name, deleteOptions);
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
}
