// Watch streams: newline-delimited JSON events over a chunked response. Resumes from a resourceVersion
// out of the store's bounded history (HTTP 410 when it no longer reaches back), sends BOOKMARKs when
// asked, honours timeoutSeconds, and turns selector transitions into ADDED/DELETED like the real server.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Predicate } from '../../store/selectors.ts';
import type { KubeObject, StoreEvent } from '../../store/types.ts';
import type { ApiContext } from '../storage/context.ts';
import { present } from '../storage/objects.ts';
import { gvKey, type ResourceType } from '../registry/resource-types.ts';
import { gone, type StatusBody } from '../errors/status.ts';
import { toPartial, toTable, type OutputForm } from '../tables/table.ts';

export interface WatchRequest {
  rt: ResourceType;
  namespace?: string;
  name?: string;
  labels: Predicate;
  fields: Predicate;
  resourceVersion?: string;
  bookmarks: boolean;
  timeoutSeconds?: number;
  form: OutputForm;
  includeObject?: string;
}

export interface WatchRegistry {
  /** Open watches, for fault injection and shutdown. */
  active: Set<ActiveWatch>;
  bookmarkIntervalMs: number;
  /** Close a watch whose unsent output exceeds this many bytes (a slow consumer), with a 410 ERROR event. */
  maxBufferedBytes: number;
}

export interface ActiveWatch {
  /** End the stream with an ERROR event carrying this Status (410 Expired by default). */
  expire(status?: StatusBody): void;
  close(): void;
}

/** Stored objects are immutable, so one serialization per (event type, object) serves every watcher. */
const serialized = new WeakMap<KubeObject, Map<string, string>>();
function serializedEvent(type: string, object: KubeObject): string {
  let byType = serialized.get(object);
  if (!byType) {
    byType = new Map();
    serialized.set(object, byType);
  }
  let line = byType.get(type);
  if (line === undefined) {
    line = JSON.stringify({ type, object }) + '\n';
    byType.set(type, line);
  }
  return line;
}

export function tooOld(requested: number, oldest: number): StatusBody {
  return gone(`too old resource version: ${requested} (${oldest})`).status;
}

/** `obj` is already presented in this API version, so field selectors see its field names. */
const matcher = (w: WatchRequest) => (obj: KubeObject): boolean =>
  (w.namespace === undefined || (obj.metadata.namespace ?? '') === w.namespace) &&
  (w.name === undefined || obj.metadata.name === w.name) &&
  w.labels(obj) &&
  w.fields(obj);

/**
 * Where the stream starts: the current state (`fromRv` undefined) or the history after a resourceVersion. Undefined
 * when history no longer reaches back that far (the 410 is already answered).
 */
function startingPoint(ctx: ApiContext, res: ServerResponse, w: WatchRequest): { fromRv?: number; backlog: StoreEvent[] } | undefined {
  const rvParam = w.resourceVersion;
  const fromRv = rvParam === undefined || rvParam === '' || rvParam === '0' ? undefined : Number(rvParam);
  if (fromRv === undefined) return { backlog: [] };
  const backlog = Number.isFinite(fromRv) ? ctx.store.eventsSince(w.rt.bucket, fromRv) : undefined;
  if (backlog) return { fromRv, backlog };
  const status = Number.isFinite(fromRv) ? tooOld(fromRv, ctx.store.oldestResumableRv()) : gone(`invalid resource version: ${rvParam}`).status;
  const text = JSON.stringify(status);
  res.writeHead(410, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
  return undefined;
}

/** Renders an object in the asked form (a table sends its column definitions once, with the first row). */
function renderer(ctx: ApiContext, w: WatchRequest): (obj: KubeObject) => unknown {
  let sentColumns = false;
  return (obj) => {
    if (w.form === 'table') {
      const table = toTable(w.rt, [obj], obj.metadata.resourceVersion ?? '', w.includeObject, ctx.now(), !sentColumns);
      sentColumns = true;
      return table;
    }
    if (w.form === 'metadata') return toPartial(obj);
    return obj;
  };
}

/** Bookmarks every interval when asked, and the end of the stream after timeoutSeconds. */
function startTimers(ctx: ApiContext, watches: WatchRegistry, res: ServerResponse, w: WatchRequest, watch: { handle: ActiveWatch; closed(): boolean; lastRv(): number }): NodeJS.Timeout[] {
  const { rt } = w;
  const timers: NodeJS.Timeout[] = [];
  if (w.bookmarks) {
    const bookmark = (): void => {
      const rv = String(Math.max(watch.lastRv(), ctx.store.currentRv()));
      if (!watch.closed()) res.write(JSON.stringify({ type: 'BOOKMARK', object: { kind: rt.kind, apiVersion: gvKey(rt.group, rt.version), metadata: { resourceVersion: rv } } }) + '\n');
    };
    timers.push(setInterval(bookmark, watches.bookmarkIntervalMs));
  }
  if (w.timeoutSeconds !== undefined && w.timeoutSeconds > 0) {
    timers.push(setTimeout(() => watch.handle.close(), w.timeoutSeconds * 1000));
  }
  return timers;
}

export function serveWatch(ctx: ApiContext, watches: WatchRegistry, req: IncomingMessage, res: ServerResponse, w: WatchRequest): void {
  const { rt } = w;
  const matches = matcher(w);
  const start = startingPoint(ctx, res, w);
  if (!start) return;

  res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked', 'Cache-Control': 'no-cache, private' });
  res.flushHeaders();
  let closed = false;
  const render = renderer(ctx, w);
  const write = (type: string, object: KubeObject): void => {
    if (closed) return;
    res.write(w.form === 'object' ? serializedEvent(type, object) : JSON.stringify({ type, object: render(object) }) + '\n');
    if (res.writableLength > watches.maxBufferedBytes) handle.expire();
  };
  const deliver = (event: StoreEvent): void => {
    const shown = present(rt, event.object);
    const now = matches(shown);
    const before = event.old ? matches(present(rt, event.old)) : false;
    if (event.type === 'MODIFIED') {
      if (now && before) write('MODIFIED', shown);
      else if (now) write('ADDED', shown);
      else if (before) write('DELETED', shown);
    } else if (now) write(event.type, shown);
  };

  let lastRv = ctx.store.currentRv();
  const unsubscribe = ctx.store.subscribe((event) => {
    lastRv = event.rv;
    deliver(event);
  }, rt.bucket);

  let timers: NodeJS.Timeout[] = [];
  const handle: ActiveWatch = {
    expire: (status) => {
      if (closed) return;
      res.write(JSON.stringify({ type: 'ERROR', object: status ?? tooOld(lastRv, ctx.store.currentRv()) }) + '\n');
      handle.close();
    },
    close: () => {
      if (closed) return;
      closed = true;
      unsubscribe();
      for (const t of timers) clearInterval(t);
      watches.active.delete(handle);
      res.end();
    },
  };
  watches.active.add(handle);
  req.on('close', () => handle.close());
  res.on('close', () => handle.close());

  if (start.fromRv === undefined) {
    for (const obj of ctx.store.list(rt.bucket, w.namespace)) {
      const shown = present(rt, obj);
      if (matches(shown)) write('ADDED', shown);
    }
  } else {
    for (const event of start.backlog) deliver(event);
  }
  if (!closed) timers = startTimers(ctx, watches, res, w, { handle, closed: () => closed, lastRv: () => lastRv });
}
