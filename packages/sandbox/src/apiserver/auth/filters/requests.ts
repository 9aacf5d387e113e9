// Authentication and RBAC on each request, with kube-apiserver's 401 and 403 answers, and the review APIs built
// on them: SelfSubjectAccessReview (`kubectl auth can-i`), SubjectAccessReview, SelfSubjectReview
// (`kubectl auth whoami`), TokenReview and TokenRequest (`kubectl create token`).
import type { IncomingMessage } from 'node:http';
import type { KubeObject } from '../../../store/types.ts';
import type { ApiContext } from '../../storage/context.ts';
import { defineResource } from '../../registry/define-resource.ts';
import type { ResourceType } from '../../registry/resource-types.ts';
import { requestUsers } from '../../http/audit-notes.ts';
import { requestAttributes } from '../../http/request-attributes.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../errors/status.ts';
import { adminUser, authenticate, type UserInfo } from '../authenticate.ts';
import { impersonate } from '../impersonation.ts';
import { authorize, forbiddenMessage, rulesFor, type Attributes } from '../rbac.ts';

const unauthorized = (): ApiError => new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });

/** Who is asking (or whom it may impersonate), if allowed to do what the request does; otherwise throws 401 or 403. */
export function checkRequest(ctx: ApiContext, req: IncomingMessage, url: URL): UserInfo {
  const authn = authenticate(req, ctx.store, ctx.tokens, ctx.now());
  if (!authn.ok) throw unauthorized();
  const acting = impersonate(ctx.store, authn.user, req);
  if (!acting.ok) throw acting.error;
  const user = acting.user;
  // The audit's user is who authenticated (kube-apiserver records an impersonated one beside it).
  requestUsers.set(req, authn.user);
  const attributes = requestAttributes(req.method ?? 'GET', url);
  if (!authorize(ctx.store, user, attributes)) {
    const error = forbidden(forbiddenMessage(user, attributes));
    if (!('path' in attributes)) error.status.details = { ...(attributes.name !== undefined && { name: attributes.name }), ...(attributes.group !== '' && { group: attributes.group }), kind: attributes.resource };
    throw error;
  }
  return user;
}

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' ? (v as Obj) : {});

function accessAttributes(spec: Obj): Attributes {
  const ra = spec.resourceAttributes as Obj | undefined;
  if (ra) {
    return {
      verb: String(ra.verb ?? ''),
      group: String(ra.group ?? ''),
      resource: String(ra.resource ?? ''),
      ...(ra.subresource ? { subresource: String(ra.subresource) } : {}),
      ...(ra.namespace ? { namespace: String(ra.namespace) } : {}),
      ...(ra.name ? { name: String(ra.name) } : {}),
    };
  }
  const nra = o(spec.nonResourceAttributes);
  return { verb: String(nra.verb ?? ''), path: String(nra.path ?? '') };
}

const review = (group: string, plural: string, kind: string): ResourceType => defineResource({
  group, plural, kind, namespaced: plural === 'localsubjectaccessreviews', verbs: ['create'], strategicMerge: false, table: { columns: [], cells: () => [] },
});

/** Create-only kinds that answer and are not stored. */
export const reviewResources: ResourceType[] = [
  review('authorization.k8s.io', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'),
  review('authorization.k8s.io', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview'),
  review('authorization.k8s.io', 'subjectaccessreviews', 'SubjectAccessReview'),
  review('authorization.k8s.io', 'localsubjectaccessreviews', 'LocalSubjectAccessReview'),
  review('authentication.k8s.io', 'selfsubjectreviews', 'SelfSubjectReview'),
  review('authentication.k8s.io', 'tokenreviews', 'TokenReview'),
];

const userInfoJson = (u: UserInfo): Obj => ({ username: u.username, ...(u.uid && { uid: u.uid }), groups: u.groups, ...(u.extra && { extra: u.extra }) });

/** Answers a review create (`rt` one of reviewResources). */
export function answerReview(ctx: ApiContext, rt: ResourceType, user: UserInfo, body: unknown, namespace?: string): Obj {
  const input = o(body);
  const spec = o(input.spec);
  const base = { apiVersion: `${rt.group}/v1`, kind: rt.kind, metadata: { ...o(input.metadata), creationTimestamp: null } };
  switch (rt.plural) {
    case 'selfsubjectaccessreviews':
      return { ...base, spec, status: { allowed: authorize(ctx.store, user, accessAttributes(spec)) } };
    case 'selfsubjectrulesreviews': {
      const rules = rulesFor(ctx.store, user, String(spec.namespace ?? ''));
      const resourceRules = rules.filter((r) => (r.nonResourceURLs ?? []).length === 0).map((r) => ({ verbs: r.verbs ?? [], apiGroups: r.apiGroups ?? [], resources: r.resources ?? [], ...(r.resourceNames && { resourceNames: r.resourceNames }) }));
      const nonResourceRules = rules.filter((r) => (r.nonResourceURLs ?? []).length > 0).map((r) => ({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs ?? [] }));
      return { ...base, spec, status: { resourceRules, nonResourceRules, incomplete: false } };
    }
    case 'subjectaccessreviews':
    case 'localsubjectaccessreviews': {
      const subject: UserInfo = { username: String(spec.user ?? ''), groups: (spec.groups as string[] | undefined) ?? [] };
      const attrs = accessAttributes(spec);
      if (rt.plural === 'localsubjectaccessreviews' && !('path' in attrs)) attrs.namespace = namespace ?? '';
      return { ...base, spec, status: { allowed: authorize(ctx.store, subject, attrs) } };
    }
    case 'selfsubjectreviews':
      return { ...base, status: { userInfo: userInfoJson(user) } };
    case 'tokenreviews': {
      const token = String(spec.token ?? '');
      const fake = { headers: { authorization: `Bearer ${token}` } } as IncomingMessage;
      // The review's audiences, or the API server's when it names none; the answer says which of them the token has.
      const asked = Array.isArray(spec.audiences) && spec.audiences.length > 0 ? (spec.audiences as unknown[]).map(String) : ctx.tokens.apiAudiences;
      const authn = token === '' ? { ok: false as const } : authenticate(fake, ctx.store, ctx.tokens, ctx.now(), asked);
      const audiences = authn.ok ? asked.filter((a) => ctx.tokens.verify(token, ctx.now())?.aud.includes(a)) : [];
      return { ...base, spec, status: authn.ok && authn.user !== adminUser ? { authenticated: true, user: userInfoJson(authn.user), audiences } : { authenticated: false } };
    }
    default:
      throw badRequest(`${rt.kind} is not a review`);
  }
}

/** POST .../serviceaccounts/<name>/token (TokenRequest). */
export function requestToken(ctx: ApiContext, namespace: string, name: string, body: unknown): Obj {
  const sa = ctx.store.get('/serviceaccounts', namespace, name);
  if (!sa) throw notFound('serviceaccounts', '', name);
  const spec = o(o(body).spec);
  const seconds = spec.expirationSeconds === undefined ? 3600 : Number(spec.expirationSeconds);
  if (!Number.isInteger(seconds) || seconds < 600) throw badRequest('spec.expirationSeconds: Invalid value: may not specify a duration less than 10 minutes');
  const bound = o(spec.boundObjectRef);
  let pod: { name: string; uid: string } | undefined;
  if (bound.kind === 'Pod') {
    const p = ctx.store.get('/pods', namespace, String(bound.name ?? '')) as KubeObject | undefined;
    if (!p) throw notFound('pods', '', String(bound.name ?? ''));
    pod = { name: p.metadata.name ?? '', uid: p.metadata.uid ?? '' };
  }
  const minted = ctx.tokens.mint({ namespace, name, uid: sa.metadata.uid ?? '', audiences: (spec.audiences as string[] | undefined) ?? [], expirationSeconds: seconds, ...(pod && { pod }) }, ctx.now());
  return { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: { name, namespace, creationTimestamp: null }, spec: { ...spec, expirationSeconds: seconds }, status: minted };
}

