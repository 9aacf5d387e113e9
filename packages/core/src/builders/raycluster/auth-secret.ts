import type { RayCluster } from '../../schema/index.ts';
import { authSecretName } from '../auth-env.ts';
import { labelKeys } from '../labels.ts';
import { rayClusterOwnerReference } from './ray-pod.ts';

/**
 * Token auth without a user Secret: the operator creates `<cluster>` (clipped) holding `auth_token`, the base64 of
 * 32 random bytes. Only for `mode: token` without Kubernetes token auth or a `secretName` (KubeRay also creates it
 * for `authOptions: {}`, where no Pod ever reads it: a listed difference).
 */
export const needsAuthSecret = (cluster: RayCluster): boolean => {
  const auth = cluster.spec.authOptions;
  return auth?.mode === 'token' && auth.enableK8sTokenAuth !== true && !auth.secretName;
};

export const clusterAuthSecretName = (cluster: RayCluster): string => authSecretName(cluster.metadata.name ?? '', cluster.spec);

/** `tokenBytes` are the caller's cryptographically random bytes (core has no entropy source). */
export function buildAuthSecret(cluster: RayCluster, tokenBytes: Uint8Array) {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: clusterAuthSecretName(cluster),
      namespace: cluster.metadata.namespace,
      labels: { [labelKeys.cluster]: cluster.metadata.name ?? '' },
      ownerReferences: [rayClusterOwnerReference(cluster)],
    },
    stringData: { auth_token: base64(tokenBytes) },
  };
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a = 0, b = 0, c = 0] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | (b << 8) | c;
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? ALPHABET[(n >> 6) & 63]! : '=';
    out += i + 2 < bytes.length ? ALPHABET[n & 63]! : '=';
  }
  return out;
}
