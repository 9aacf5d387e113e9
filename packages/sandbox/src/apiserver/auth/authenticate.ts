// Who is asking: a client certificate signed by the client CA is its subject (CN = user, O = groups, as
// kube-apiserver's x509 authenticator, tried before tokens); the admin kubeconfig's token (and, for the sandbox's
// own components and tests, no credentials at all) is the all-powerful admin; a ServiceAccount token is its
// ServiceAccount; any other bearer token, or a certificate the client CA did not sign, is rejected with 401.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
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

const asList = (value: string | string[] | undefined): string[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

// A connection's peer certificate is fixed at its handshake (TLS 1.3 has no renegotiation), so its verdict is
// kept per socket: getPeerCertificate builds a fresh object tree on every call, and was ~5% of a sandbox test
// file's API-server CPU when asked on every request of a kept-alive connection.
const verdicts = new WeakMap<object, UserInfo | 'none' | 'rejected'>();

function peerVerdict(socket: Partial<TLSSocket>): UserInfo | 'none' | 'rejected' {
  const peer = socket.getPeerCertificate?.();
  if (peer === undefined || peer === null || Object.keys(peer).length === 0) return 'none';
  const commonName = asList(peer.subject?.CN)[0];
  if (socket.authorized !== true || commonName === undefined || commonName === '') return 'rejected';
  return { username: commonName, groups: [...asList(peer.subject.O), 'system:authenticated'] };
}

/** The x509 authenticator: 'none' when no certificate was presented (or not over TLS). */
export function certificateUser(req: Pick<IncomingMessage, 'socket'>): UserInfo | 'none' | 'rejected' {
  const socket = req.socket as Partial<TLSSocket> | undefined;
  if (socket?.encrypted !== true || typeof socket.getPeerCertificate !== 'function') return 'none';
  let verdict = verdicts.get(socket);
  if (verdict === undefined) {
    verdict = peerVerdict(socket);
    verdicts.set(socket, verdict);
  }
  return typeof verdict === 'string' ? verdict : { username: verdict.username, groups: [...verdict.groups] };
}

/**
 * `audiences`: those a ServiceAccount token must have one of (kube-apiserver's check): the API server's own for a
 * request, a TokenReview's spec.audiences for that review. A token minted for another audience (a projected token
 * for Ray, say) is a 401 at the API server, as on a real one.
 */
export function authenticate(req: IncomingMessage, store: Store, issuer: TokenIssuer, nowMs: number, audiences: readonly string[] = issuer.apiAudiences): Authentication {
  const certificate = certificateUser(req);
  if (certificate !== 'none' && certificate !== 'rejected') return { ok: true, user: certificate };
  const header = req.headers.authorization;
  // A certificate the client CA did not sign authenticates nobody; without a token that is a 401, not the admin.
  if (header === undefined || header === '') return certificate === 'rejected' ? { ok: false } : { ok: true, user: adminUser };
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  if (!match) return { ok: false };
  const token = match[1] as string;
  if (token === adminToken) return { ok: true, user: adminUser };
  const claims = issuer.verify(token, nowMs);
  if (!claims || !claims.aud.some((a) => audiences.includes(a))) return { ok: false };
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
