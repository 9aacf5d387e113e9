import {
  buildAuthSecret,
  labelKeys,
  rayClusterLabelKeys,
  type ClusterAction,
  type ClusterEvent,
  type FailureSpec,
  type Pod,
  type RayCluster,
  type ReconcileError,
  type ScaleExpectation,
  type Service,
} from '@rayjob/core';
import { describeError, isAlreadyExists, isNotFound, resources, type EventRecorder, type KubeClient, type KubeError } from '@rayjob/kube-runtime';
import { recordRayClusterEvent } from './events.ts';

/**
 * Carries out a plan's actions in order. The first failing API call ends the pass (KubeRay's sub-reconcilers
 * stop at the first error): its Warning event is emitted and the error, with its ReplicaFailure marker, is
 * returned for the status. Every Pod created or deleted is recorded as a scale expectation.
 */

export interface ExecuteContext {
  client: KubeClient;
  cluster: RayCluster;
  /** Pods of the cluster as the cache showed them when the plan was made (deleteAllPods deletes these). */
  pods: readonly Pod[];
  /** kube-runtime's event recorder (`raycluster-controller`). */
  events: EventRecorder;
  expect: (expectation: ScaleExpectation) => void;
  forgetExpectations: () => void;
  /** Cryptographically random bytes for a generated auth token. */
  randomBytes: (size: number) => Uint8Array;
  /**
   * The Pods and head Services this pass created, as the API server answered: the pass's status counts them
   * although the cache does not show them yet (else the first status says "no head Pod" and the next pass writes
   * the status again for the Pod it created itself).
   */
  created?: { pods: Pod[]; headServices: Service[] };
}

export async function execute(actions: readonly ClusterAction[], ctx: ExecuteContext): Promise<ReconcileError | undefined> {
  for (const action of actions) {
    const error = await executeOne(action, ctx);
    if (error) return error;
  }
  return undefined;
}

function failed(ctx: ExecuteContext, failure: FailureSpec, error: KubeError): ReconcileError {
  const message = describeError(error);
  emit(ctx, { type: 'Warning', reason: failure.reason, action: failure.reason.includes('Create') ? 'Create' : 'Delete', note: `${failure.note}, ${message}` });
  return { message, ...(failure.marker ? { marker: failure.marker } : {}) };
}

function emit(ctx: ExecuteContext, event: ClusterEvent): void {
  recordRayClusterEvent(ctx.events, ctx.cluster, event);
}

async function executeOne(action: ClusterAction, ctx: ExecuteContext): Promise<ReconcileError | undefined> {
  const { client, cluster } = ctx;
  const ns = cluster.metadata.namespace ?? '';
  switch (action.type) {
    case 'createService': {
      const name = action.service.metadata.name ?? '';
      const result = await client.create<Service>(resources.services, action.service, { namespace: ns });
      if (!result.ok && !isAlreadyExists(result.error)) {
        if (action.role === 'serve') return { message: describeError(result.error) }; // KubeRay records no event for it
        return failed(ctx, { reason: 'FailedToCreateService', note: `Failed creating service ${ns}/${name}` }, result.error);
      }
      if (result.ok && action.role === 'head') ctx.created?.headServices.push(result.value);
      if (result.ok && action.role !== 'serve') emit(ctx, { type: 'Normal', reason: 'CreatedService', action: 'Create', note: `Created service ${ns}/${name}` });
      return undefined;
    }
    case 'createAuthSecret': {
      const result = await client.create(resources.secrets, buildAuthSecret(cluster, ctx.randomBytes(32)), { namespace: ns });
      return result.ok || isAlreadyExists(result.error) ? undefined : { message: describeError(result.error) };
    }
    case 'createRbacObject': {
      const type = action.kind === 'ServiceAccount' ? resources.serviceaccounts : action.kind === 'Role' ? resources.roles : resources.roleBindings;
      const result = await client.create(type, action.object as never, { namespace: ns });
      if (!result.ok) return isAlreadyExists(result.error) ? undefined : failed(ctx, action.failure, result.error);
      emit(ctx, action.success);
      return undefined;
    }
    case 'fail':
      emit(ctx, action.event);
      return { message: action.message };
    case 'createPod': {
      const result = await client.create<Pod>(resources.pods, action.pod, { namespace: ns });
      if (!result.ok) return failed(ctx, action.failure, result.error);
      const name = result.value.metadata.name ?? '';
      ctx.created?.pods.push(result.value);
      ctx.expect({ group: action.group, podName: name, action: 'create' });
      const head = action.pod.metadata.labels?.[labelKeys.nodeType] === 'head';
      emit(ctx, {
        type: 'Normal',
        reason: head ? 'CreatedHeadPod' : 'CreatedWorkerPod',
        action: 'Create',
        note: `Created ${head ? 'head' : 'worker'} Pod ${ns}/${name}`,
      });
      return undefined;
    }
    case 'deletePod': {
      const result = await client.delete(resources.pods, { namespace: ns, name: action.name });
      if (!result.ok) {
        if (isNotFound(result.error) && action.ignoreNotFound) return undefined;
        return failed(ctx, action.failure, result.error);
      }
      ctx.expect({ group: action.group, podName: action.name, action: 'delete' });
      emit(ctx, action.success);
      return undefined;
    }
    case 'deleteAllPods': {
      const victims = ctx.pods.filter(
        (p) =>
          action.group === undefined ||
          (p.metadata.labels?.[rayClusterLabelKeys.group] === action.group && p.metadata.labels?.[labelKeys.nodeType] === 'worker'),
      );
      for (const pod of victims) {
        if (pod.metadata.deletionTimestamp) continue;
        const result = await client.delete(resources.pods, { namespace: ns, name: pod.metadata.name ?? '' });
        if (!result.ok && !isNotFound(result.error)) return failed(ctx, action.failure, result.error);
      }
      if (action.forgetExpectations) ctx.forgetExpectations();
      emit(ctx, action.success);
      return undefined;
    }
    case 'annotateHeadPod': {
      const result = await client.patch(resources.pods, { namespace: ns, name: action.name }, { metadata: { annotations: action.annotations } }, 'merge');
      return result.ok ? undefined : { message: describeError(result.error) };
    }
  }
}
