// Routes one HTTP request: discovery, OpenAPI, health, then resource verbs and subresources.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { auditRequest } from '../audit/audit.ts';
import { answerReview, checkRequest, requestToken, reviewResources } from '../auth/filters/requests.ts';
import type { ApiContext } from '../storage/context.ts';
import { coreVersions, groupDoc, groupList, resourceList, serverVersion } from '../openapi/discovery.ts';
import { readJsonBody, sendError, sendJson } from '../http/http-io.ts';
import { openapiInfo, openapiV2Doc, openapiV3Doc, openapiV3Index } from '../openapi/openapi.ts';
import { openapiV2Protobuf, openapiV2ProtobufType } from '../openapi/openapi-v2-proto.ts';
import { bindPod, evictPod } from './pod-actions.ts';
import { proxyPodLog } from '../proxy/kubelet-proxy.ts';
import { forward, resolvePodTarget, resolveServiceTarget } from '../proxy/proxy.ts';
import {
  handleCreate,
  handleDelete,
  handleDeleteCollection,
  handleGet,
  handleList,
  handlePatch,
  handleReplace,
  type RequestParts,
} from './resource-handlers.ts';
import { parseApiPath } from '../http/routes.ts';
import { readScale, writeScale } from './scale.ts';
import { methodNotAllowed, notAcceptable, notFound, pathNotFound } from '../errors/status.ts';
import type { WatchRegistry } from './watch.ts';

/** Discovery of versions and groups, OpenAPI, health and version: true when the path was one of them. */
function serveNonResource(ctx: ApiContext, req: IncomingMessage, res: ServerResponse, url: URL, address: () => string): boolean {
  const p = url.pathname.replace(/\/+$/, '') || '/';
  if (p === '/version') sendJson(res, 200, serverVersion);
  else if (p === '/healthz' || p === '/livez' || p === '/readyz') {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('ok');
  } else if (p === '/api') sendJson(res, 200, coreVersions(address()));
  else if (p === '/apis') sendJson(res, 200, groupList(ctx.registry));
  else if (p === '/openapi/v2') serveOpenapiV2(ctx, req, res);
  else if (p === '/openapi/v3') sendJson(res, 200, openapiV3Index(ctx.registry));
  else if (p.startsWith('/openapi/v3/')) {
    const parts = p.slice('/openapi/v3/'.length).split('/');
    const doc = parts[0] === 'api' ? openapiV3Doc(ctx.registry, '', parts[1] ?? '') : openapiV3Doc(ctx.registry, parts[1] ?? '', parts[2] ?? '');
    if (doc) sendJson(res, 200, doc);
    else throw pathNotFound();
  }
  else if (p === '/') sendJson(res, 200, { paths: ['/api', '/api/v1', '/apis', '/healthz', '/openapi/v2', '/openapi/v3', '/version'] });
  else return false;
  return true;
}

function serveOpenapiV2(ctx: ApiContext, req: IncomingMessage, res: ServerResponse): void {
  const accept = req.headers.accept ?? '*/*';
  if (/proto-openapi/.test(accept)) {
    const body = openapiV2Protobuf(openapiInfo);
    res.writeHead(200, { 'Content-Type': openapiV2ProtobufType, 'Content-Length': body.length });
    res.end(body);
  } else if (/json|\*\/\*/.test(accept)) sendJson(res, 200, openapiV2Doc(ctx.registry));
  else throw notAcceptable(`application/json, ${openapiV2ProtobufType}`);
}

/** The subresources other than status: log, binding, eviction, token, scale and proxy. */
async function serveSubresource(ctx: ApiContext, p: RequestParts, url: URL, sub: string): Promise<void> {
  const { req, res, rt, path } = p;
  const method = req.method ?? 'GET';
  const ns = path.namespace ?? '';
  const name = path.name ?? '';
  const corePods = rt.plural === 'pods' && rt.group === '';
  if (!rt.subresources.includes(sub)) throw notFound(rt.plural, rt.group, name);
  if (corePods && sub === 'log' && method === 'GET') return proxyPodLog(ctx, ctx.kubeletClient, req, res, ns, name, url.searchParams);
  if (corePods && sub === 'binding' && method === 'POST') return sendJson(res, 201, bindPod(ctx, rt, ns, name, await readJsonBody(req)));
  if (corePods && sub === 'eviction' && method === 'POST') return sendJson(res, 201, evictPod(ctx, rt, ns, name, await readJsonBody(req)));
  if (rt.plural === 'serviceaccounts' && rt.group === '' && sub === 'token' && method === 'POST') {
    return sendJson(res, 201, requestToken(ctx, ns, name, await readJsonBody(req)));
  }
  if (sub === 'scale' && rt.scale) {
    if (method === 'GET') sendJson(res, 200, readScale(ctx, rt, rt.scale, ns, name));
    else if (method === 'PUT') sendJson(res, 200, writeScale(ctx, rt, rt.scale, ns, name, await readJsonBody(req)));
    else if (method === 'PATCH') sendJson(res, 200, writeScale(ctx, rt, rt.scale, ns, name, await readJsonBody(req), req.headers['content-type'] ?? ''));
    else throw methodNotAllowed(`${method} is not supported on ${rt.plural}/scale`);
    return;
  }
  if (sub === 'proxy' && rt.group === '' && (rt.plural === 'services' || rt.plural === 'pods')) {
    const target = rt.plural === 'services' ? resolveServiceTarget(ctx, ns, name) : resolvePodTarget(ctx, ns, name);
    forward(req, res, target, path.rest ?? '/', url.search.slice(1));
    return;
  }
  throw methodNotAllowed(`${method} is not supported on ${rt.plural}/${sub} by the sandbox`);
}

/** The verbs on a collection or one object (and its status). */
function serveVerb(ctx: ApiContext, watches: WatchRegistry, p: RequestParts): Promise<void> | void {
  const method = p.req.method ?? 'GET';
  if (p.path.name === undefined) {
    if (method === 'GET') return handleList(ctx, watches, p);
    if (method === 'POST') return handleCreate(ctx, p);
    if (method === 'DELETE') return handleDeleteCollection(ctx, p);
    throw methodNotAllowed(`the server does not allow this method on the requested resource`);
  }
  if (method === 'GET') {
    if (p.path.legacyWatch) return handleList(ctx, watches, p);
    return handleGet(ctx, p);
  }
  if (method === 'PUT') return handleReplace(ctx, p);
  if (method === 'PATCH') return handlePatch(ctx, p);
  if (method === 'DELETE') return handleDelete(ctx, p);
  throw methodNotAllowed(`the server does not allow this method on the requested resource`);
}

export function createDispatcher(ctx: ApiContext, watches: WatchRegistry, address: () => string) {
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const user = checkRequest(ctx, req, url);
    if (serveNonResource(ctx, req, res, url, address)) return;
    const route = parseApiPath(url.pathname);
    if (route.kind === 'none') throw pathNotFound();
    if (route.kind === 'group') {
      const doc = groupDoc(ctx.registry, route.group);
      if (!doc) throw pathNotFound();
      sendJson(res, 200, doc);
      return;
    }
    const path = route.path;
    if (path.resource === undefined) {
      const list = resourceList(ctx.registry, path.group, path.version);
      if (!list) throw pathNotFound();
      sendJson(res, 200, list);
      return;
    }
    const rt = ctx.registry.lookup(path.group, path.version, path.resource);
    if (!rt) throw pathNotFound();
    if (rt.namespaced && path.namespace !== undefined && path.name === undefined && !ctx.store.get('/namespaces', '', path.namespace) && req.method === 'POST') {
      throw notFound('namespaces', '', path.namespace);
    }
    if (req.method === 'POST' && path.name === undefined && reviewResources.includes(rt)) {
      return sendJson(res, 201, answerReview(ctx, rt, user, await readJsonBody(req), path.namespace));
    }
    const p: RequestParts = { req, res, query: url.searchParams, path, rt, user };
    if (path.subresource !== undefined && path.subresource !== 'status') return serveSubresource(ctx, p, url, path.subresource);
    return serveVerb(ctx, watches, p);
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    if (ctx.audit) auditRequest(ctx.audit, req, res);
    handle(req, res).catch((err: unknown) => sendError(res, err));
  };
}
