// Writes an object's /status only when the desired status differs from what the cache holds, as a PUT
// carrying the cached resourceVersion: a stale view gets 409 instead of overwriting a newer status. The
// result says whether the write landed, so callers act only after it (core's writeStatusFirst), and turns
// a conflict into a re-queue instead of an error.
import { describeError, isConflict, isNotFound, type KubeError } from '../client/errors.ts';
import type { ResourceType } from '../client/resources.ts';
import type { KubeClient } from '../client/rest-client.ts';
import type { KubeObject } from '../client/types.ts';
import { semanticEqual } from '@rayjob/kube-model';

export type StatusWriteResult<T extends KubeObject> =
  /** Nothing changed: no request was made. */
  | { outcome: 'unchanged'; object: T }
  | { outcome: 'written'; object: T }
  /** Someone wrote the object since it was read: re-queue and decide again from the newer object. */
  | { outcome: 'conflict'; error: KubeError }
  /** The object is gone. */
  | { outcome: 'notFound'; error: KubeError }
  | { outcome: 'failed'; error: KubeError };

export interface StatusWriter {
  writeStatus<T extends KubeObject & { status?: unknown }>(current: T, status: T['status']): Promise<StatusWriteResult<T>>;
}

export interface StatusWriterOptions {
  client: KubeClient;
  type: ResourceType;
  fieldManager?: string;
  /** Counts API writes (the bench reports writes per lifecycle). */
  onWrite?: (result: 'written' | 'conflict' | 'failed') => void;
}

export function createStatusWriter(options: StatusWriterOptions): StatusWriter {
  const { client, type } = options;
  return {
    writeStatus: async (current, status) => {
      if (semanticEqual(current.status, status)) return { outcome: 'unchanged', object: current };
      if (current.metadata.resourceVersion === undefined || current.metadata.resourceVersion === '') {
        throw new Error(`status writer: ${type.kind} ${current.metadata.namespace}/${current.metadata.name} has no resourceVersion; pass the object as read from the cache or the API`);
      }
      const body = { ...current, status };
      const result = await client.replaceStatus(type, body, { ...(options.fieldManager !== undefined && { fieldManager: options.fieldManager }) });
      if (result.ok) {
        options.onWrite?.('written');
        return { outcome: 'written', object: result.value };
      }
      const error = result.error;
      if (isConflict(error)) {
        options.onWrite?.('conflict');
        return { outcome: 'conflict', error };
      }
      if (isNotFound(error)) return { outcome: 'notFound', error };
      options.onWrite?.('failed');
      return { outcome: 'failed', error };
    },
  };
}

/** For reconcilers: a conflict re-queues (controller-runtime does the same with a Conflict error); failures throw. */
export function requeueOnConflict(result: StatusWriteResult<KubeObject>): { requeue: true } | undefined {
  if (result.outcome === 'conflict') return { requeue: true };
  if (result.outcome === 'failed') throw new Error(`status write failed: ${describeError(result.error)}`);
  return undefined;
}
