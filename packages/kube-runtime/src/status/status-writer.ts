// Writes an object's /status only when the desired status differs from what the cache holds, as a PUT
// carrying the cached resourceVersion: a stale view gets 409 instead of overwriting a newer status. The answer
// is the REST call's own KubeResult (no request, no result: `undefined` when nothing changed), so callers act
// only after the write landed (core's writeStatusFirst) and turn a failure into the work queue's answer with
// `reconcileResultOf`.
import type { KubeResult } from '../client/errors.ts';
import type { ResourceType } from '../client/resources.ts';
import type { KubeClient } from '../client/rest-client.ts';
import type { KubeObject } from '../client/types.ts';
import { semanticEqual } from '@rayjob/kube-model';

export interface StatusWriter {
  /** The PUT's result, or undefined when `status` is not a change (no request was made). */
  writeStatus<T extends KubeObject & { status?: unknown }>(current: T, status: T['status']): Promise<KubeResult<T> | undefined>;
}

export interface StatusWriterOptions {
  client: KubeClient;
  type: ResourceType;
  fieldManager?: string;
  /** Whether `after` is a change worth a write. Default: not semantically equal (key order ignored). */
  changed?: (before: unknown, after: unknown) => boolean;
  /** Counts API writes (the bench reports writes per lifecycle). */
  onWrite?: (result: 'written' | 'conflict' | 'failed') => void;
}

export function createStatusWriter(options: StatusWriterOptions): StatusWriter {
  const { client, type } = options;
  const changed = options.changed ?? ((before: unknown, after: unknown) => !semanticEqual(before, after));
  return {
    writeStatus: async (current, status) => {
      if (!changed(current.status, status)) return undefined;
      if (current.metadata.resourceVersion === undefined || current.metadata.resourceVersion === '') {
        throw new Error(`status writer: ${type.kind} ${current.metadata.namespace}/${current.metadata.name} has no resourceVersion; pass the object as read from the cache or the API`);
      }
      const result = await client.replaceStatus(type, { ...current, status }, { ...(options.fieldManager !== undefined && { fieldManager: options.fieldManager }) });
      options.onWrite?.(result.ok ? 'written' : result.error.status === 409 ? 'conflict' : 'failed');
      return result;
    },
  };
}
