// Who is asking: the admin kubeconfig's token (and, for the sandbox's own components and tests, no credentials
// at all) is the all-powerful admin; a ServiceAccount token is its ServiceAccount; any other bearer token is
// rejected with 401, as kube-apiserver does.
import type { IncomingMessage } from 'node:http';
import type { Store } from '../../store/store.ts';
import type { TokenIssuer } from './service-account-tokens.ts';

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** The token the sandbox writes into its admin kubeconfig. */
export const adminToken = 'sandbox';
export const adminUser: UserInfo = { username: 'kubernetes-admin', groups: ['system:masters', 'system:authenticated'] };

export type Authentication = { ok: true; user: UserInfo } | { ok: false };

export function authenticate(req: IncomingMessage, store: Store, issuer: TokenIssuer, nowMs: number): Authentication {
  const header = req.headers.authorization;
  if (header === undefined || header === '') return { ok: true, user: adminUser };
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match) return { ok: false };
  const token = match[1] as string;
  if (token === adminToken) return { ok: true, user: adminUser };
  const claims = issuer.verify(token, nowMs);
  if (!claims) return { ok: false };
  const k = claims['kubernetes.io'];
  const sa = store.get('/serviceaccounts', k.namespace, k.serviceaccount.name);
  if (!sa || sa.metadata.uid !== k.serviceaccount.uid) return { ok: false };
  if (k.pod) {
    const pod = store.get('/pods', k.namespace, k.pod.name);
    if (!pod || pod.metadata.uid !== k.pod.uid) return { ok: false };
  }
  return {
    ok: true,
    user: {
      username: claims.sub,
      uid: k.serviceaccount.uid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${k.namespace}`, 'system:authenticated'],
      ...(k.pod && { extra: { 'authentication.kubernetes.io/pod-name': [k.pod.name], 'authentication.kubernetes.io/pod-uid': [k.pod.uid] } }),
    },
  };
}
