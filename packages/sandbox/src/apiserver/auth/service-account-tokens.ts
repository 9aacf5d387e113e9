// ServiceAccount tokens as kube-apiserver issues them: JWTs (ES256 here: its key is made in a millisecond at every
// start, where RSA's takes long on a loaded machine) with the `kubernetes.io` claims, for the
// TokenRequest API (`kubectl create token`) and for the projected token a kubelet mounts into a pod. A token
// authenticates as system:serviceaccount:<ns>:<name> while it is unexpired and its ServiceAccount (and pod,
// when bound to one) still exists with the same uid, and only for an audience it was issued for: the API server's
// own (the issuer) for requests, a TokenReview's for that review (authenticate.ts).
import { createPublicKey, generateKeyPairSync, randomUUID, sign, verify, type KeyObject } from 'node:crypto';
import { formatKubeTime } from '@rayjob/kube-model';

export const defaultIssuer = 'https://kubernetes.default.svc.cluster.local';

export interface TokenClaims {
  iss: string;
  sub: string;
  aud: string[];
  exp: number;
  iat: number;
  nbf: number;
  jti: string;
  'kubernetes.io': { namespace: string; serviceaccount: { name: string; uid: string }; pod?: { name: string; uid: string } };
}

export interface MintRequest {
  namespace: string;
  name: string;
  uid: string;
  /** Default: the issuer (as kube-apiserver's default --api-audiences). */
  audiences?: string[];
  /** Default 3600 (TokenRequest's default); kube-apiserver's minimum is 600. */
  expirationSeconds?: number;
  /** Binds the token to a pod: it stops working once the pod is gone. */
  pod?: { name: string; uid: string };
}

export interface TokenIssuer {
  /** The API server's own audiences (kube-apiserver's --api-audiences, by default its issuer). */
  apiAudiences: string[];
  mint(request: MintRequest, nowMs: number): { token: string; expirationTimestamp: string };
  /** The claims of a token this issuer signed, if its signature and times are valid. */
  verify(token: string, nowMs: number): TokenClaims | undefined;
  publicKeyPem: string;
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

export function createTokenIssuer(issuer = defaultIssuer): TokenIssuer {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const pub: KeyObject = createPublicKey(publicKey.export({ type: 'spki', format: 'pem' }));
  const kid = randomUUID();
  // Tokens whose signature this issuer checked, with their claims: a pod's client sends the same token on every
  // request, and an ECDSA verify each time was most of what authenticating it cost. Times are still checked on
  // every use (and the ServiceAccount and pod by the caller). Bounded: emptied when full.
  const signed = new Map<string, TokenClaims>();
  const checkSignature = (token: string): TokenClaims | undefined => {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [header, payload, signature] = parts as [string, string, string];
    if (!verify('sha256', Buffer.from(`${header}.${payload}`), { key: pub, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))) return undefined;
    let claims: TokenClaims;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
    } catch {
      return undefined;
    }
    if (signed.size >= 1024) signed.clear();
    signed.set(token, claims);
    return claims;
  };
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    apiAudiences: [issuer],
    mint(request, nowMs) {
      const iat = Math.floor(nowMs / 1000);
      const exp = iat + (request.expirationSeconds ?? 3600);
      const claims: TokenClaims = {
        iss: issuer,
        sub: `system:serviceaccount:${request.namespace}:${request.name}`,
        aud: request.audiences && request.audiences.length > 0 ? request.audiences : [issuer],
        exp,
        iat,
        nbf: iat,
        jti: randomUUID(),
        'kubernetes.io': { namespace: request.namespace, serviceaccount: { name: request.name, uid: request.uid }, ...(request.pod && { pod: request.pod }) },
      };
      const signingInput = `${b64({ alg: 'ES256', kid })}.${b64(claims)}`;
      const signature = sign('sha256', Buffer.from(signingInput), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
      return { token: `${signingInput}.${signature}`, expirationTimestamp: formatKubeTime(exp * 1000) };
    },
    verify(token, nowMs) {
      const claims = signed.get(token) ?? checkSignature(token);
      if (claims === undefined) return undefined;
      const now = nowMs / 1000;
      if (claims.iss !== issuer || claims.exp <= now || claims.nbf > now + 60) return undefined;
      return claims;
    },
  };
}
