// A small Kubernetes REST client over fetch: the node components (kubelet, Job controller, DNS,
// endpoints controller, faults) talk to any API server through it, never to a store. Results are
// typed values, so callers branch on `ok` and on the HTTP status (404 gone, 409 conflict).
import type { KubeObject, ObjectList, WatchEvent } from './types.ts';

export interface ResourceType {
  /** '' for the core group. */
  group: string;
  version: string;
  plural: string;
}

export const resources = {
  pods: { group: '', version: 'v1', plural: 'pods' },
  nodes: { group: '', version: 'v1', plural: 'nodes' },
  services: { group: '', version: 'v1', plural: 'services' },
  endpoints: { group: '', version: 'v1', plural: 'endpoints' },
  configmaps: { group: '', version: 'v1', plural: 'configmaps' },
  secrets: { group: '', version: 'v1', plural: 'secrets' },
  events: { group: '', version: 'v1', plural: 'events' },
  serviceaccounts: { group: '', version: 'v1', plural: 'serviceaccounts' },
  jobs: { group: 'batch', version: 'v1', plural: 'jobs' },
  leases: { group: 'coordination.k8s.io', version: 'v1', plural: 'leases' },
  deployments: { group: 'apps', version: 'v1', plural: 'deployments' },
  replicasets: { group: 'apps', version: 'v1', plural: 'replicasets' },
} as const satisfies Record<string, ResourceType>;

export type KubeResult<T> =
  | { ok: true; value: T }
  | { ok: false; status: number; reason: string; message: string };

export interface KubeClientOptions {
  /** API server base URL, e.g. http://127.0.0.1:6443 */
  url: string;
  /** Bearer token; sent as a header, never logged. */
  token?: string;
}

export interface ObjectRef {
  namespace?: string;
  name?: string;
  subresource?: string;
}

export type PatchType = 'merge' | 'json' | 'strategic';

const patchContentTypes: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
};

export function resourcePath(type: ResourceType, ref: ObjectRef = {}): string {
  const base = type.group === '' ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
  let path = base;
  if (ref.namespace !== undefined) path += `/namespaces/${encodeURIComponent(ref.namespace)}`;
  path += `/${type.plural}`;
  if (ref.name !== undefined) path += `/${encodeURIComponent(ref.name)}`;
  if (ref.subresource !== undefined) path += `/${ref.subresource}`;
  return path;
}

export interface KubeClient {
  readonly url: string;
  get<T extends KubeObject>(type: ResourceType, ref: ObjectRef): Promise<KubeResult<T>>;
  list<T extends KubeObject>(type: ResourceType, opts?: { namespace?: string; labelSelector?: string; fieldSelector?: string }): Promise<KubeResult<ObjectList<T>>>;
  create<T extends KubeObject>(type: ResourceType, ref: ObjectRef, body: unknown): Promise<KubeResult<T>>;
  replace<T extends KubeObject>(type: ResourceType, ref: ObjectRef, body: unknown): Promise<KubeResult<T>>;
  patch<T extends KubeObject>(type: ResourceType, ref: ObjectRef, body: unknown, patchType?: PatchType): Promise<KubeResult<T>>;
  remove(type: ResourceType, ref: ObjectRef, body?: unknown): Promise<KubeResult<unknown>>;
  /** Opens a watch; `onEvent` gets each event. Resolves when the stream ends (or `signal` aborts). */
  watch<T extends KubeObject>(type: ResourceType, opts: { namespace?: string; resourceVersion?: string; labelSelector?: string; signal: AbortSignal; onEvent: (event: WatchEvent<T>) => void }): Promise<KubeResult<'ended'>>;
}

export function createKubeClient(options: KubeClientOptions): KubeClient {
  const baseUrl = options.url.replace(/\/+$/, '');
  const headers = (contentType?: string): Record<string, string> => {
    const h: Record<string, string> = { accept: 'application/json' };
    if (contentType !== undefined) h['content-type'] = contentType;
    if (options.token !== undefined) h.authorization = `Bearer ${options.token}`;
    return h;
  };

  async function call<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<KubeResult<T>> {
    let response: Response;
    try {
      response = await fetch(baseUrl + path, {
        method,
        headers: headers(body === undefined ? undefined : contentType),
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      return { ok: false, status: 0, reason: 'ConnectionFailed', message: `${method} ${path}: ${(error as Error).message}` };
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? {} : JSON.parse(text);
    } catch {
      parsed = { message: text };
    }
    if (!response.ok) {
      const status = parsed as { reason?: string; message?: string };
      return { ok: false, status: response.status, reason: status.reason ?? response.statusText, message: status.message ?? text };
    }
    return { ok: true, value: parsed as T };
  }

  const query = (params: Record<string, string | undefined>): string => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) if (value !== undefined) search.set(key, value);
    const text = search.toString();
    return text === '' ? '' : `?${text}`;
  };

  return {
    url: baseUrl,
    get: (type, ref) => call('GET', resourcePath(type, ref)),
    list: (type, opts = {}) =>
      call('GET', resourcePath(type, { namespace: opts.namespace }) + query({ labelSelector: opts.labelSelector, fieldSelector: opts.fieldSelector })),
    create: (type, ref, body) => call('POST', resourcePath(type, { namespace: ref.namespace, name: ref.name, subresource: ref.subresource }), body),
    replace: (type, ref, body) => call('PUT', resourcePath(type, ref), body),
    patch: (type, ref, body, patchType = 'merge') => call('PATCH', resourcePath(type, ref), body, patchContentTypes[patchType]),
    remove: (type, ref, body) => call('DELETE', resourcePath(type, ref), body),
    async watch(type, opts) {
      const path = resourcePath(type, { namespace: opts.namespace })
        + query({ watch: 'true', resourceVersion: opts.resourceVersion, labelSelector: opts.labelSelector, allowWatchBookmarks: 'true' });
      let response: Response;
      try {
        response = await fetch(baseUrl + path, { headers: headers(), signal: opts.signal });
      } catch (error) {
        return { ok: false, status: 0, reason: 'ConnectionFailed', message: `watch ${path}: ${(error as Error).message}` };
      }
      if (!response.ok || response.body === null) {
        const text = await response.text().catch(() => '');
        return { ok: false, status: response.status, reason: response.statusText, message: text };
      }
      const decoder = new TextDecoder();
      let buffered = '';
      try {
        for await (const chunk of response.body) {
          buffered += decoder.decode(chunk as Uint8Array, { stream: true });
          let newline = buffered.indexOf('\n');
          while (newline >= 0) {
            const line = buffered.slice(0, newline).trim();
            buffered = buffered.slice(newline + 1);
            if (line !== '') opts.onEvent(JSON.parse(line) as WatchEvent<never>);
            newline = buffered.indexOf('\n');
          }
        }
      } catch (error) {
        if (opts.signal.aborted) return { ok: true, value: 'ended' };
        return { ok: false, status: 0, reason: 'StreamBroken', message: (error as Error).message };
      }
      return { ok: true, value: 'ended' };
    },
  };
}
