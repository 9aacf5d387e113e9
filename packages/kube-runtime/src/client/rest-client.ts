// A typed Kubernetes REST client: list/get/create/replace/patch/delete, the status subresource, and watch,
// for any resource type. Every call resolves to a KubeResult; nothing throws for an API error. Like
// client-go, a 429 or 5xx that carries Retry-After is retried after that wait, a bounded number of times.
import { request } from 'undici';
import { sleep, systemClock, type Clock } from '../clock.ts';
import { bucketLimiter } from '../workqueue/rate-limiters.ts';
import { deadlineSignal } from '@rayjob/deadline-signal';
import { openConnection, type Connection, type ConnectionSource, type ConnectionTls } from './connection.ts';
import { parseListItems } from './list-items.ts';
import { errorFromException, errorFromResponse, type KubeError, type KubeResult } from './errors.ts';
import { resourcePath, type ObjectRef, type ResourceType } from './resources.ts';
import type { KubeObject, ObjectList, WatchEvent } from './types.ts';
import { readWatchStream } from './watch-stream.ts';

export type PatchType = 'merge' | 'json' | 'strategic' | 'apply';

const patchContentTypes: Record<PatchType, string> = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface ListOptions {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  /**
   * Each item as it is parsed (client-go's pager hands out pages; this hands out items): the page's items never
   * exist together as parsed objects, and the answer's `items` is then empty. See list-items.ts.
   */
  onItem?: (item: KubeObject) => void;
}

export interface WriteOptions {
  fieldManager?: string;
  dryRun?: boolean;
  /** Server-side apply only. */
  force?: boolean;
}

export interface DeleteOptions {
  propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export interface WatchOptions<T extends KubeObject> {
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  resourceVersion?: string;
  allowBookmarks?: boolean;
  timeoutSeconds?: number;
  /** A stream silent for this long (no event, no bookmark) is ended as a Timeout, catching half-open
   * connections that TCP keep-alive would take minutes to notice. Default 0 = never. */
  idleTimeoutMs?: number;
  signal: AbortSignal;
  onEvent: (event: WatchEvent<T>) => void;
}

export interface RawRequest {
  method: string;
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  signal?: AbortSignal;
  /** Parses a successful JSON answer's body instead of JSON.parse (a list read item by item). */
  parse?: (text: string) => unknown;
}

export interface KubeClient {
  readonly server: string;
  list<T extends KubeObject>(type: ResourceType, options?: ListOptions): Promise<KubeResult<ObjectList<T>>>;
  get<T extends KubeObject>(type: ResourceType, ref: ObjectRef): Promise<KubeResult<T>>;
  /** Namespace from `ref` or else from the object; `ref.name` + `ref.subresource` post to a subresource (eviction). */
  create<T extends KubeObject>(type: ResourceType, body: unknown, ref?: ObjectRef, options?: WriteOptions): Promise<KubeResult<T>>;
  /** PUT; the object's metadata.resourceVersion is the optimistic-concurrency precondition. */
  replace<T extends KubeObject>(type: ResourceType, obj: T, options?: WriteOptions): Promise<KubeResult<T>>;
  patch<T extends KubeObject>(type: ResourceType, ref: ObjectRef, patch: unknown, patchType?: PatchType, options?: WriteOptions): Promise<KubeResult<T>>;
  delete(type: ResourceType, ref: ObjectRef, options?: DeleteOptions): Promise<KubeResult<KubeObject | undefined>>;
  /** PUT /status with the object's resourceVersion as precondition. */
  replaceStatus<T extends KubeObject>(type: ResourceType, obj: T, options?: WriteOptions): Promise<KubeResult<T>>;
  patchStatus<T extends KubeObject>(type: ResourceType, ref: ObjectRef, patch: unknown, patchType?: PatchType, options?: WriteOptions): Promise<KubeResult<T>>;
  /** Streams events to `onEvent`; resolves when the server ends the stream or `signal` aborts. */
  watch<T extends KubeObject>(type: ResourceType, options: WatchOptions<T>): Promise<KubeResult<'ended'>>;
  /** Any other call (logs, proxy, discovery): JSON parsed when the answer is JSON, else text. */
  request<T = unknown>(req: RawRequest): Promise<KubeResult<T>>;
  /**
   * The same client (connection, rate limit, metrics) whose every call also ends when `signal` aborts: one still in
   * flight is cancelled, a later one fails at once with reason Aborted and never reaches the server. Leader
   * election hands its controllers such a view, so a replica that lost its lease writes nothing more.
   */
  withSignal(signal: AbortSignal): KubeClient;
  /** TLS material the connection trusts and presents (a route through the API server needs the same). */
  readonly tls: ConnectionTls;
  /** The authentication headers of the next request (a rotated token file is re-read). Never log them. */
  authHeaders(): Promise<Record<string, string>>;
  close(): Promise<void>;
}

/** What client-go counts per request (rest_client_requests_total, _request_duration_seconds, _rate_limiter_duration_seconds). */
export interface RestObserver {
  /** Every request that got an answer (its status) or none (status 0). */
  response(method: string, status: number, host: string): void;
  /** Seconds from sending a request to having read its answer (watches: to the response headers). */
  latency?(method: string, host: string, seconds: number): void;
  /** Seconds a request waited for the client-side rate limiter. */
  throttled?(method: string, host: string, seconds: number): void;
}

export interface KubeClientOptions {
  /** Per-request timeout (not watches). Default 30 s. */
  requestTimeoutMs?: number;
  /** How many times a Retry-After answer is honoured before giving up. Default 3 (client-go: 10). */
  maxRetryAfterRetries?: number;
  /** Longest Retry-After wait honoured. Default 10 s. */
  maxRetryAfterSeconds?: number;
  userAgent?: string;
  clock?: Clock;
  /** Client-side rate limit, as client-go's (KubeRay's --qps 100 / --burst 200). Unlimited when unset. */
  qps?: number;
  burst?: number;
  /** client-go's rest-client metrics: see RestObserver. */
  observer?: RestObserver;
}

const queryString = (query: RawRequest['query']): string => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') params.set(k, String(v));
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
};

const writeQuery = (o: WriteOptions = {}): RawRequest['query'] => ({ fieldManager: o.fieldManager, dryRun: o.dryRun ? 'All' : undefined, force: o.force });

/** The caller's signal ended the call (whatever reason it was given): status 0, reason Aborted. */
function aborted(req: RawRequest): KubeError {
  const why = req.signal?.reason instanceof Error ? req.signal.reason.message : 'aborted';
  return { status: 0, reason: 'Aborted', message: `${req.method} ${req.path}: ${why}`, method: req.method, path: req.path };
}

const nameOf = (obj: KubeObject): ObjectRef => ({ ...(obj.metadata.namespace !== undefined && { namespace: obj.metadata.namespace }), ...(obj.metadata.name !== undefined && { name: obj.metadata.name }) });

export async function createKubeClient(source: ConnectionSource, options: KubeClientOptions = {}): Promise<KubeClient> {
  return kubeClientOver(await openConnection(source), options);
}

/** One connection with its settings and rate limit, shared by every view withSignal makes. */
interface ClientCore {
  conn: Connection;
  timeoutMs: number;
  maxRetries: number;
  maxWait: number;
  clock: Clock;
  userAgent: string;
  host: string;
  observer: RestObserver | undefined;
  bucket: ReturnType<typeof bucketLimiter> | undefined;
}

type Call = <T>(req: RawRequest) => Promise<KubeResult<T>>;

export function kubeClientOver(conn: Connection, options: KubeClientOptions = {}): KubeClient {
  const clock = options.clock ?? systemClock;
  const core: ClientCore = {
    conn,
    timeoutMs: options.requestTimeoutMs ?? 30_000,
    maxRetries: options.maxRetryAfterRetries ?? 3,
    maxWait: options.maxRetryAfterSeconds ?? 10,
    clock,
    userAgent: options.userAgent ?? 'rayjob-kube-runtime',
    host: new URL(conn.server).host,
    observer: options.observer,
    // client-go's flowcontrol token bucket: `burst` requests at once, then `qps` per second, every verb and watches
    // included; each request reserves its token, so waiters are served in order.
    bucket: options.qps !== undefined && options.qps > 0 ? bucketLimiter(clock, options.qps, Math.max(1, options.burst ?? Math.ceil(options.qps))) : undefined,
  };
  return scopedClient(core, undefined);
}

async function throttle(c: ClientCore, method: string, signal?: AbortSignal): Promise<void> {
  if (!c.bucket) return;
  const wait = c.bucket.when('');
  if (wait > 0) await sleep(c.clock, wait, signal);
  c.observer?.throttled?.(method, c.host, wait / 1000);
}

const secondsSince = (c: ClientCore, since: number): number => (c.clock.now() - since) / 1000;

/** One request, no retry; `retryAfter` when the answer asks to be retried after a wait. */
async function sendOnce<T>(c: ClientCore, req: RawRequest): Promise<{ result: KubeResult<T>; retryAfter?: number }> {
  const { conn, observer, host } = c;
  const path = req.path + queryString(req.query);
  if (req.signal?.aborted) return { result: { ok: false, error: aborted(req) } };
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': c.userAgent, ...(await conn.headers()) };
  if (req.body !== undefined) headers['content-type'] = req.contentType ?? 'application/json';
  const deadline = deadlineSignal(c.timeoutMs, [req.signal]);
  const signal = deadline.signal;
  const started = c.clock.now();
  try {
    const res = await request(conn.server + path, {
      method: req.method as 'GET',
      headers,
      signal,
      dispatcher: conn.dispatcher,
      ...(req.body !== undefined && { body: typeof req.body === 'string' ? req.body : JSON.stringify(req.body) }),
    });
    const text = await res.body.text();
    observer?.response(req.method, res.statusCode, host);
    observer?.latency?.(req.method, host, secondsSince(c, started));
    if (res.statusCode >= 200 && res.statusCode < 300) {
      const json = (res.headers['content-type'] ?? '').toString().includes('json') && text !== '';
      return { result: { ok: true, value: (json ? (req.parse ?? JSON.parse)(text) : text === '' ? undefined : text) as T } };
    }
    const retryHeader = res.headers['retry-after'];
    const error = errorFromResponse(req.method, req.path, res.statusCode, text, Array.isArray(retryHeader) ? retryHeader[0] : retryHeader);
    const retryable = res.statusCode === 429 || res.statusCode >= 500;
    return { result: { ok: false, error }, ...(retryable && retryHeader !== undefined && error.retryAfterSeconds !== undefined && { retryAfter: error.retryAfterSeconds }) };
  } catch (e) {
    observer?.response(req.method, 0, host);
    observer?.latency?.(req.method, host, secondsSince(c, started));
    return { result: { ok: false, error: req.signal?.aborted ? aborted(req) : errorFromException(req.method, req.path, e) } };
  } finally {
    deadline.release();
  }
}

/** The client whose every call also carries `scope` (withSignal's view); undefined: the plain client. */
function scopedClient(c: ClientCore, scope: AbortSignal | undefined): KubeClient {
  const call: Call = async <T>(raw: RawRequest): Promise<KubeResult<T>> => {
    const signal = scope && raw.signal ? AbortSignal.any([scope, raw.signal]) : (scope ?? raw.signal);
    const req = signal ? { ...raw, signal } : raw;
    for (let attempt = 0; ; attempt++) {
      await throttle(c, req.method, req.signal);
      const { result, retryAfter } = await sendOnce<T>(c, req);
      if (result.ok || retryAfter === undefined || attempt >= c.maxRetries || req.signal?.aborted) return result;
      await sleep(c.clock, Math.min(retryAfter, c.maxWait) * 1000, req.signal);
    }
  };
  return {
    server: c.conn.server,
    list: (type, o = {}) => {
      const { onItem } = o;
      return call({
        method: 'GET',
        path: resourcePath(type, { ...(o.namespace !== undefined && { namespace: o.namespace }) }),
        query: { labelSelector: o.labelSelector, fieldSelector: o.fieldSelector, limit: o.limit, continue: o.continue, resourceVersion: o.resourceVersion },
        ...(onItem && { parse: (text: string) => parseListItems(text, onItem as (item: unknown) => void) }),
      });
    },
    get: (type, ref) => call({ method: 'GET', path: resourcePath(type, ref) }),
    create: (type, body, ref, o) => {
      const ns = ref?.namespace ?? (body as Partial<KubeObject>).metadata?.namespace;
      return call({ method: 'POST', path: resourcePath(type, { ...ref, ...(ns !== undefined && { namespace: ns }) }), query: writeQuery(o), body });
    },
    replace: (type, obj, o) => call({ method: 'PUT', path: resourcePath(type, nameOf(obj)), query: writeQuery(o), body: obj }),
    patch: (type, ref, patch, patchType = 'merge', o) =>
      call({ method: 'PATCH', path: resourcePath(type, ref), query: writeQuery(o), body: patch, contentType: patchContentTypes[patchType] }),
    delete: (type, ref, o) => {
      const body = o === undefined ? undefined : { apiVersion: 'v1', kind: 'DeleteOptions', ...o };
      return call({ method: 'DELETE', path: resourcePath(type, ref), ...(body !== undefined && { body }) });
    },
    replaceStatus: (type, obj, o) => call({ method: 'PUT', path: resourcePath(type, { ...nameOf(obj), subresource: 'status' }), query: writeQuery(o), body: obj }),
    patchStatus: (type, ref, patch, patchType = 'merge', o) =>
      call({ method: 'PATCH', path: resourcePath(type, { ...ref, subresource: 'status' }), query: writeQuery(o), body: patch, contentType: patchContentTypes[patchType] }),
    watch: (type, o) => watch(c, scope, type, o),
    request: call,
    withSignal: (signal) => scopedClient(c, scope ? AbortSignal.any([scope, signal]) : signal),
    tls: c.conn.tls,
    authHeaders: () => c.conn.headers(),
    close: () => c.conn.close(),
  };
}

async function watch<T extends KubeObject>(c: ClientCore, scope: AbortSignal | undefined, type: ResourceType, o: WatchOptions<T>): Promise<KubeResult<'ended'>> {
  const path = resourcePath(type, { ...(o.namespace !== undefined && { namespace: o.namespace }) });
  const query = { watch: 'true', labelSelector: o.labelSelector, fieldSelector: o.fieldSelector, resourceVersion: o.resourceVersion, allowWatchBookmarks: o.allowBookmarks, timeoutSeconds: o.timeoutSeconds };
  const signal = scope ? AbortSignal.any([scope, o.signal]) : o.signal;
  await throttle(c, 'GET', signal);
  if (signal.aborted) return { ok: true, value: 'ended' };
  const started = c.clock.now();
  return readWatchStream(c.conn, {
    path, query: queryString(query), userAgent: c.userAgent, signal, idleTimeoutMs: o.idleTimeoutMs ?? 0, onEvent: o.onEvent,
    onAnswer: (status) => {
      c.observer?.response('GET', status, c.host);
      c.observer?.latency?.('GET', c.host, secondsSince(c, started));
    },
  });
}
