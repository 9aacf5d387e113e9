import type { EventSpec, ObjectMeta, RayJob } from '@rayjob/core';
import { createEventRecorder, resources, type KubeClient, type KubeObject as RuntimeObject, type KubeResult as RuntimeResult, type ResourceType } from '@rayjob/kube-runtime';

/** Any Kubernetes object as JSON (timestamps as strings, as the API server sends them and core reads them). */
export interface KubernetesObject {
  apiVersion?: string | undefined;
  kind?: string | undefined;
  metadata: ObjectMeta;
}

/** An API answer as a value: the executor decides on every outcome (409 adopt, 404 gone, 429/5xx retry). */
export type KubeResult<T> = { ok: true; value: T } | { ok: false; code: number; reason: string; message: string };

export interface ObjectRef {
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
}

export interface KubeWriter {
  create<T extends KubernetesObject>(obj: T): Promise<KubeResult<T>>;
  read<T extends KubernetesObject>(ref: ObjectRef): Promise<KubeResult<T>>;
  replace<T extends KubernetesObject>(obj: T): Promise<KubeResult<T>>;
  /** JSON merge patch; include metadata.resourceVersion in the patch for an optimistic-concurrency precondition. */
  mergePatch<T extends KubernetesObject>(ref: ObjectRef, patch: object): Promise<KubeResult<T>>;
  delete(ref: ObjectRef, propagationPolicy?: 'Background' | 'Foreground'): Promise<KubeResult<void>>;
  /** PUT .../rayjobs/<name>/status with the object's resourceVersion (409 when it moved). */
  replaceRayJobStatus(rayJob: RayJob): Promise<KubeResult<RayJob>>;
  /** An events.k8s.io/v1 Event about the object (KubeRay's recorder: reason, action, note). */
  recordEvent(regarding: KubernetesObject, event: EventSpec): Promise<void>;
  /** Resolves once every recorded event has been written (or given up on). */
  flush(): Promise<void>;
  /** One key of a Secret, or undefined when the Secret or key is missing. */
  readSecretKey(namespace: string, name: string, key: string): Promise<string | undefined>;
}

const types: Record<string, ResourceType> = {
  'ray.io/v1/RayJob': resources.rayJobs,
  'ray.io/v1/RayCluster': resources.rayClusters,
  'batch/v1/Job': resources.jobs,
  'v1/Service': resources.services,
  'v1/Secret': resources.secrets,
  'v1/ConfigMap': resources.configmaps,
};

function typeOf(apiVersion: string | undefined, kind: string | undefined): ResourceType {
  const type = types[`${apiVersion}/${kind}`];
  if (!type) throw new Error(`the RayJob controller does not write ${apiVersion} ${kind}`);
  return type;
}

function mapped<T>(r: RuntimeResult<T>): KubeResult<T> {
  return r.ok ? r : { ok: false, code: r.error.status, reason: r.error.reason, message: r.error.message };
}

/** The writer over @rayjob/kube-runtime's REST client (which already honours Retry-After on 429 and 5xx). */
export function createKubeWriter(client: KubeClient, controllerName: string, instance: string): KubeWriter {
  const options = { fieldManager: controllerName };
  const recorder = createEventRecorder({ client, component: controllerName, instance });
  return {
    create: async <T extends KubernetesObject>(obj: T) => mapped(await client.create<T & RuntimeObject>(typeOf(obj.apiVersion, obj.kind), obj, undefined, options)),
    read: async <T extends KubernetesObject>(ref: ObjectRef) => mapped(await client.get<T & RuntimeObject>(typeOf(ref.apiVersion, ref.kind), { namespace: ref.namespace, name: ref.name })),
    replace: async <T extends KubernetesObject>(obj: T) => mapped(await client.replace(typeOf(obj.apiVersion, obj.kind), obj as T & RuntimeObject, options)),
    mergePatch: async <T extends KubernetesObject>(ref: ObjectRef, patch: object) =>
      mapped(await client.patch<T & RuntimeObject>(typeOf(ref.apiVersion, ref.kind), { namespace: ref.namespace, name: ref.name }, patch, 'merge', options)),
    delete: async (ref, propagationPolicy) => {
      const r = await client.delete(typeOf(ref.apiVersion, ref.kind), { namespace: ref.namespace, name: ref.name }, propagationPolicy ? { propagationPolicy } : undefined);
      return r.ok ? { ok: true, value: undefined } : mapped(r);
    },
    replaceRayJobStatus: async (rayJob) => mapped(await client.replaceStatus(resources.rayJobs, { apiVersion: 'ray.io/v1', kind: 'RayJob', ...rayJob } as RayJob & RuntimeObject, options)),
    async recordEvent(regarding, event) {
      // kube-runtime's recorder: written in the background, repeats counted on one Event (no event storms when
      // a failing create is retried with backoff).
      const withKind = { apiVersion: 'ray.io/v1', kind: 'RayJob', ...regarding } as RuntimeObject;
      recorder.event(withKind, event.type, event.reason, event.action, event.note);
    },
    flush: () => recorder.flush(),
    async readSecretKey(namespace, name, key) {
      const r = await client.get<RuntimeObject & { data?: Record<string, string> }>(resources.secrets, { namespace, name });
      if (!r.ok) return undefined;
      const encoded = r.value.data?.[key];
      return encoded === undefined ? undefined : Buffer.from(encoded, 'base64').toString('utf8');
    },
  };
}
