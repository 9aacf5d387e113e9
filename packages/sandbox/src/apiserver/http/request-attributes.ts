// The RBAC attributes of an HTTP request (kube-apiserver's request-info resolver): the authorizer and the audit
// log both derive them from the method and path, so they live with the other request parsing.
import type { Attributes } from '../auth/rbac.ts';
import { parseApiPath } from './routes.ts';

/**
 * The RBAC attributes of an HTTP request, as kube-apiserver's request-info resolver derives them: the verb follows
 * the HTTP method for connect subresources too, so a WebSocket exec (GET) needs `get` on pods/exec and a SPDY one
 * (POST) `create` — kube-apiserver 1.32's behaviour (1.35 adds a second check for `create` on WebSocket upgrades).
 */
export function requestAttributes(method: string, url: URL): Attributes {
  const route = parseApiPath(url.pathname);
  const watch = url.searchParams.get('watch');
  const isWatch = watch === 'true' || watch === '1';
  if (route.kind !== 'api' || route.path.resource === undefined) return { verb: method === 'GET' || method === 'HEAD' ? 'get' : method.toLowerCase(), path: url.pathname };
  const p = route.path;
  let verb: string;
  if (method === 'GET' || method === 'HEAD') verb = p.legacyWatch || isWatch ? 'watch' : p.name === undefined ? 'list' : 'get';
  else if (method === 'POST') verb = 'create';
  else if (method === 'PUT') verb = 'update';
  else if (method === 'PATCH') verb = 'patch';
  else if (method === 'DELETE') verb = p.name === undefined ? 'deletecollection' : 'delete';
  else verb = method.toLowerCase();
  // A namespace is itself the object of /api/v1/namespaces/<name>.
  const namespace = p.resource === 'namespaces' && p.group === '' ? p.name : p.namespace;
  return {
    verb,
    group: p.group,
    resource: p.resource as string,
    ...(p.subresource !== undefined && { subresource: p.subresource }),
    ...(namespace !== undefined && { namespace }),
    ...(p.name !== undefined && { name: p.name }),
  };
}
