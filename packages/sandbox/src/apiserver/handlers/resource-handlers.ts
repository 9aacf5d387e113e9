// HTTP verbs on a resource path: get, list, watch, create, replace, patch, delete, deletecollection,
// and the status subresource. Other subresources (log, binding, eviction, proxy) are in their own modules.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseFieldSelector, parseLabelSelector, type Predicate } from '../../store/selectors.ts';
import type { KubeObject } from '../../store/types.ts';
import type { UserInfo } from '../auth/authenticate.ts';
import type { ApiContext } from '../storage/context.ts';
import { queryFlag, readJsonBody, sendJson, setWarnings } from '../http/http-io.ts';
import { createObject, deleteObject, present, replaceObject, type DeleteOptions, type Propagation } from '../storage/objects.ts';
import { exactListRv, listAt } from './list-at.ts';
import { serverSideApply } from './apply-request.ts';
import { defaultManager, type Manager } from '../apply/managed-fields.ts';
import { applyPatch } from './patch.ts';
import { gvKey, type ResourceType } from '../registry/resource-types.ts';
import type { ApiPath } from '../http/routes.ts';
import { badRequest, continueExpired, methodNotAllowed, notFound } from '../errors/status.ts';
import { outputFormOf, toPartial, toPartialList, toTable } from '../tables/table.ts';
import { serveWatch, type WatchRegistry } from './watch.ts';

export interface RequestParts {
  req: IncomingMessage;
  res: ServerResponse;
  query: URLSearchParams;
  path: ApiPath;
  rt: ResourceType;
  /** Who asks (after impersonation); admission sees this user. */
  user?: UserInfo;
}

function selectors(query: URLSearchParams): { labels: Predicate; fields: Predicate } {
  const labels = parseLabelSelector(query.get('labelSelector') ?? undefined);
  if (!labels.ok) throw badRequest(labels.message);
  const fields = parseFieldSelector(query.get('fieldSelector') ?? undefined);
  if (!fields.ok) throw badRequest(fields.message);
  return { labels: labels.match, fields: fields.match };
}

function respondObject(ctx: ApiContext, p: RequestParts, code: number, obj: KubeObject): void {
  const form = outputFormOf(p.req.headers.accept);
  if (form === 'table') {
    sendJson(p.res, code, toTable(p.rt, [obj], obj.metadata.resourceVersion ?? '', p.query.get('includeObject') ?? undefined, ctx.now()));
  } else if (form === 'metadata') sendJson(p.res, code, toPartial(obj));
  else sendJson(p.res, code, obj);
}

export function handleList(ctx: ApiContext, watches: WatchRegistry, p: RequestParts): void {
  const { labels, fields } = selectors(p.query);
  const watch = p.path.legacyWatch || queryFlag(p.query, 'watch');
  if (watch) {
    const timeout = p.query.get('timeoutSeconds');
    serveWatch(ctx, watches, p.req, p.res, {
      rt: p.rt,
      ...(p.path.namespace !== undefined && { namespace: p.path.namespace }),
      ...(p.path.name !== undefined && { name: p.path.name }),
      labels,
      fields,
      ...(p.query.get('resourceVersion') !== null && { resourceVersion: p.query.get('resourceVersion') as string }),
      bookmarks: queryFlag(p.query, 'allowWatchBookmarks'),
      ...(timeout !== null && { timeoutSeconds: Number(timeout) }),
      form: outputFormOf(p.req.headers.accept),
      ...(p.query.get('includeObject') !== null && { includeObject: p.query.get('includeObject') as string }),
    });
    return;
  }
  const exact = exactListRv(p.query);
  const rv = String(exact ?? ctx.store.currentRv());
  const stored = exact === undefined ? ctx.store.list(p.rt.bucket, p.path.namespace) : listAt(ctx.store, p.rt.bucket, p.path.namespace, exact);
  // Selectors see the object as this API version shows it (events.k8s.io selects on regarding.*).
  const items = stored
    .map((o) => present(p.rt, o))
    .filter((o) => labels(o) && fields(o))
    .sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  const page = paginate(items, p.query, rv, ctx.store.oldestResumableRv());
  const form = outputFormOf(p.req.headers.accept);
  if (form === 'table') {
    const table = toTable(p.rt, page.items, page.rv, p.query.get('includeObject') ?? undefined, ctx.now());
    sendJson(p.res, 200, { ...table, metadata: page.meta });
    return;
  }
  if (form === 'metadata') {
    sendJson(p.res, 200, { ...toPartialList(page.items, page.rv), metadata: page.meta });
    return;
  }
  sendJson(p.res, 200, { kind: p.rt.listKind, apiVersion: gvKey(p.rt.group, p.rt.version), metadata: page.meta, items: page.items });
}

const keyOf = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;

/**
 * limit/continue chunking. The continue token carries the list's resourceVersion and the last key
 * returned; later pages show the objects as they are now (not a snapshot at that resourceVersion).
 */
function paginate(items: KubeObject[], q: URLSearchParams, rv: string, oldestRv: number): { items: KubeObject[]; rv: string; meta: Record<string, unknown> } {
  let start = 0;
  let listRv = rv;
  const token = q.get('continue');
  if (token) {
    let parsed: { rv?: string; after?: string };
    try {
      parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { rv?: string; after?: string };
    } catch {
      throw badRequest('continue key is not valid: illegal base64 data');
    }
    listRv = parsed.rv ?? rv;
    const after = parsed.after ?? '';
    if (Number(listRv) < oldestRv) throw continueExpired(Buffer.from(JSON.stringify({ rv, after })).toString('base64url'));
    start = items.findIndex((o) => keyOf(o) > after);
    if (start < 0) start = items.length;
  }
  const limit = Number(q.get('limit') ?? 0);
  if (!Number.isInteger(limit) || limit <= 0 || start + limit >= items.length) {
    return { items: items.slice(start), rv: listRv, meta: { resourceVersion: listRv } };
  }
  const pageItems = items.slice(start, start + limit);
  const last = pageItems[pageItems.length - 1] as KubeObject;
  const next = Buffer.from(JSON.stringify({ rv: listRv, after: keyOf(last) })).toString('base64url');
  return { items: pageItems, rv: listRv, meta: { resourceVersion: listRv, continue: next, remainingItemCount: items.length - start - limit } };
}

function getOrThrow(ctx: ApiContext, p: RequestParts): KubeObject {
  const name = p.path.name ?? '';
  const stored = ctx.store.get(p.rt.bucket, p.path.namespace ?? '', name);
  if (!stored) throw notFound(p.rt.plural, p.rt.group, name);
  return present(p.rt, stored);
}

export function handleGet(ctx: ApiContext, p: RequestParts): void {
  respondObject(ctx, p, 200, getOrThrow(ctx, p));
}

const dryRunOf = (q: URLSearchParams): boolean => q.getAll('dryRun').includes('All');
const fieldValidationOf = (q: URLSearchParams): { fieldValidation?: string } => {
  const v = q.get('fieldValidation');
  return v === null ? {} : { fieldValidation: v };
};

/** The request's field manager: ?fieldManager=, else the User-Agent's product, as kube-apiserver names it. */
function managerOf(p: RequestParts): Manager {
  const named = p.query.get('fieldManager');
  return named ? { name: named, explicit: true } : { name: defaultManager(p.req.headers['user-agent']), explicit: false };
}

export async function handleCreate(ctx: ApiContext, p: RequestParts): Promise<void> {
  const body = await readJsonBody(p.req);
  const warnings: string[] = [];
  const created = createObject(ctx, p.rt, p.rt.namespaced ? p.path.namespace : undefined, body, dryRunOf(p.query), p.query.get('fieldValidation') ?? undefined, warnings, p.user, { manager: managerOf(p) });
  setWarnings(p.res, warnings);
  respondObject(ctx, p, 201, created);
}

function subresourceOf(p: RequestParts): 'status' | undefined {
  if (p.path.subresource === undefined) return undefined;
  if (p.path.subresource === 'status' && p.rt.subresources.includes('status')) return 'status';
  throw notFound(p.rt.plural, p.rt.group, p.path.name ?? '');
}

export async function handleReplace(ctx: ApiContext, p: RequestParts): Promise<void> {
  const body = await readJsonBody(p.req);
  const sub = subresourceOf(p);
  const warnings: string[] = [];
  const out = replaceObject(ctx, p.rt, p.path.namespace ?? '', p.path.name ?? '', body, { ...(sub && { subresource: sub }), dryRun: dryRunOf(p.query), ...fieldValidationOf(p.query), warnings, ...(p.user && { user: p.user }), manager: managerOf(p) });
  setWarnings(p.res, warnings);
  respondObject(ctx, p, 200, out.object);
}

export async function handlePatch(ctx: ApiContext, p: RequestParts): Promise<void> {
  const patch = await readJsonBody(p.req);
  const sub = subresourceOf(p);
  if (/^application\/apply-patch\+yaml\s*(;|$)/.test(p.req.headers['content-type'] ?? '')) {
    const applied = serverSideApply(ctx, p, patch);
    setWarnings(p.res, applied.warnings);
    respondObject(ctx, p, applied.code, applied.object);
    return;
  }
  const current = getOrThrow(ctx, p);
  const patched = applyPatch(p.rt, current, p.req.headers['content-type'] ?? '', patch) as KubeObject;
  if (patched !== null && typeof patched === 'object' && patched.metadata && patched.metadata.resourceVersion === undefined) {
    patched.metadata.resourceVersion = current.metadata.resourceVersion;
  }
  const warnings: string[] = [];
  const out = replaceObject(ctx, p.rt, p.path.namespace ?? '', p.path.name ?? '', patched, { ...(sub && { subresource: sub }), dryRun: dryRunOf(p.query), internal: true, ...fieldValidationOf(p.query), warnings, ...(p.user && { user: p.user }), manager: managerOf(p) });
  setWarnings(p.res, warnings);
  respondObject(ctx, p, 200, out.object);
}

const propagations = new Set(['Background', 'Foreground', 'Orphan']);

async function deleteOptionsOf(p: RequestParts): Promise<DeleteOptions> {
  const body = ((await readJsonBody(p.req)) ?? {}) as Record<string, unknown>;
  const q = p.query;
  const policy = (body.propagationPolicy as string | undefined) ?? q.get('propagationPolicy') ?? undefined;
  if (policy !== undefined && !propagations.has(policy)) {
    throw badRequest(`propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`);
  }
  const orphan = (body.orphanDependents as boolean | undefined) ?? (q.get('orphanDependents') === null ? undefined : queryFlag(q, 'orphanDependents'));
  const graceRaw = (body.gracePeriodSeconds as number | undefined) ?? (q.get('gracePeriodSeconds') === null ? undefined : Number(q.get('gracePeriodSeconds')));
  const dryRun = Array.isArray(body.dryRun) ? (body.dryRun as string[]).includes('All') : dryRunOf(q);
  const resolved: Propagation | undefined = (policy as Propagation | undefined) ?? (orphan === undefined ? undefined : orphan ? 'Orphan' : 'Background');
  return {
    ...(resolved && { propagationPolicy: resolved }),
    ...(graceRaw !== undefined && Number.isFinite(graceRaw) && { gracePeriodSeconds: graceRaw }),
    ...(body.preconditions !== undefined && { preconditions: body.preconditions as DeleteOptions['preconditions'] }),
    dryRun,
  };
}

export async function handleDelete(ctx: ApiContext, p: RequestParts): Promise<void> {
  if (p.path.subresource !== undefined) throw methodNotAllowed(`DELETE is not supported on ${p.rt.plural}/${p.path.subresource}`);
  const options = { ...(await deleteOptionsOf(p)), ...(p.user && { user: p.user }) };
  const out = deleteObject(ctx, p.rt, p.path.namespace ?? '', p.path.name ?? '', options);
  sendJson(p.res, out.code, out.body);
}

export async function handleDeleteCollection(ctx: ApiContext, p: RequestParts): Promise<void> {
  const options = { ...(await deleteOptionsOf(p)), ...(p.user && { user: p.user }) };
  const { labels, fields } = selectors(p.query);
  const targets = ctx.store.list(p.rt.bucket, p.path.namespace).filter((o) => {
    const shown = present(p.rt, o);
    return labels(shown) && fields(shown);
  });
  const items: KubeObject[] = [];
  for (const t of targets) {
    const out = deleteObject(ctx, p.rt, t.metadata.namespace ?? '', t.metadata.name ?? '', options);
    if ('metadata' in out.body && (out.body as KubeObject).metadata?.name) items.push(out.body as KubeObject);
  }
  sendJson(p.res, 200, { kind: p.rt.listKind, apiVersion: gvKey(p.rt.group, p.rt.version), metadata: { resourceVersion: String(ctx.store.currentRv()) }, items });
}
