// User impersonation (`kubectl --as` / `--as-group` / `--as-uid`, so `kubectl auth can-i ... --as=...` answers for
// another user), as kube-apiserver's impersonation filter does it: the authenticated requester needs the
// `impersonate` verb on each thing it asks to be (users, groups, serviceaccounts for a ServiceAccount's name,
// uids, userextras), else 403 with the usual text; the request then runs as the impersonated user alone.
import type { IncomingMessage } from 'node:http';
import type { Store } from '../../store/store.ts';
import { forbidden, internal, type ApiError } from '../errors/status.ts';
import type { UserInfo } from './authenticate.ts';
import { authorize, forbiddenMessage, type ResourceAttributes } from './rbac.ts';

export type Impersonation = { ok: true; user: UserInfo } | { ok: false; error: ApiError };

const serviceAccountPrefix = 'system:serviceaccount:';
const extraPrefix = 'impersonate-extra-';

/** The impersonation headers of a request; repeated headers (several --as-group) stay apart. */
function headerValues(req: Pick<IncomingMessage, 'headersDistinct'>, name: string): string[] {
  return req.headersDistinct[name] ?? [];
}

/** The RBAC check for impersonating a user name: a ServiceAccount's name is checked on its serviceaccount. */
function userAttributes(username: string): ResourceAttributes {
  const parts = username.startsWith(serviceAccountPrefix) ? username.slice(serviceAccountPrefix.length).split(':') : [];
  if (parts.length === 2 && parts[0] !== '' && parts[1] !== '') return { verb: 'impersonate', group: '', resource: 'serviceaccounts', namespace: parts[0] as string, name: parts[1] as string };
  return { verb: 'impersonate', group: '', resource: 'users', name: username };
}

/** The user a request acts as: the requester itself, or whom it may impersonate. */
export function impersonate(store: Store, requester: UserInfo, req: Pick<IncomingMessage, 'headersDistinct'>): Impersonation {
  // kube-apiserver reads the first Impersonate-User and Impersonate-Uid only.
  const username = headerValues(req, 'impersonate-user')[0];
  const groups = headerValues(req, 'impersonate-group');
  const uid = headerValues(req, 'impersonate-uid')[0];
  const extra: Record<string, string[]> = {};
  for (const name of Object.keys(req.headersDistinct)) {
    if (name.startsWith(extraPrefix)) extra[decodeURIComponent(name.slice(extraPrefix.length))] = headerValues(req, name);
  }
  const extraKeys = Object.keys(extra);
  if (username === undefined) {
    if (groups.length === 0 && uid === undefined && extraKeys.length === 0) return { ok: true, user: requester };
    const asked = [...groups.map((g) => `Impersonate-Group=${g}`), ...(uid === undefined ? [] : [`Impersonate-Uid=${uid}`]), ...extraKeys.map((k) => `Impersonate-Extra-${k}`)];
    return { ok: false, error: internal(`requested [${asked.join(' ')}] without impersonating a user`) };
  }
  const checks: ResourceAttributes[] = [
    userAttributes(username),
    ...groups.map((g): ResourceAttributes => ({ verb: 'impersonate', group: '', resource: 'groups', name: g })),
    ...(uid === undefined ? [] : [{ verb: 'impersonate', group: 'authentication.k8s.io', resource: 'uids', name: uid }]),
    ...extraKeys.flatMap((k) => (extra[k] ?? []).map((v): ResourceAttributes => ({ verb: 'impersonate', group: 'authentication.k8s.io', resource: 'userextras', subresource: k, name: v }))),
  ];
  for (const attributes of checks) {
    if (!authorize(store, requester, attributes)) {
      const error = forbidden(forbiddenMessage(requester, attributes));
      error.status.details = { name: attributes.name ?? '', ...(attributes.group !== '' && { group: attributes.group }), kind: attributes.resource };
      return { ok: false, error };
    }
  }
  const userGroups = [...groups];
  // A ServiceAccount impersonated without groups gets a ServiceAccount's groups, as its token would.
  const sa = checks[0]?.resource === 'serviceaccounts' ? checks[0].namespace : undefined;
  if (sa !== undefined && groups.length === 0) userGroups.push('system:serviceaccounts', `system:serviceaccounts:${sa}`);
  if (username === 'system:anonymous') {
    if (!userGroups.includes('system:unauthenticated')) userGroups.push('system:unauthenticated');
  } else if (!userGroups.includes('system:authenticated') && !userGroups.includes('system:unauthenticated')) {
    userGroups.push('system:authenticated');
  }
  return { ok: true, user: { username, groups: userGroups, ...(uid !== undefined && { uid }), ...(extraKeys.length > 0 && { extra }) } };
}
