// The service-account files a pod's containers find at /var/run/secrets/kubernetes.io/serviceaccount: token (from
// the TokenRequest API), ca.crt (the CA that signs the in-pod API endpoint) and namespace. On a real cluster the
// ServiceAccount admission plugin adds a projected `kube-api-access-*` volume for them to the pod spec; when the
// API server did not (the sandbox's may not), the kubelet mounts the same files itself, unless the pod opts out
// (automountServiceAccountToken: false) or a container mounts something else at that path.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Container, Pod } from '../kube-objects/types.ts';
import type { VolumeSources } from './volumes.ts';

export const serviceAccountMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Whether the kubelet should mount the service-account files into this container itself. */
export function needsServiceAccountFiles(pod: Pod, container: Container): boolean {
  if ((pod.spec as { automountServiceAccountToken?: boolean }).automountServiceAccountToken === false) return false;
  return !(container.volumeMounts ?? []).some((m) => m.mountPath.replace(/\/+$/, '') === serviceAccountMountPath);
}

/** Writes token, ca.crt and namespace under the pod dir; returns the directory to mount. */
export async function writeServiceAccountFiles(pod: Pod, podDir: string, sources: VolumeSources, caCert: string): Promise<string> {
  const namespace = pod.metadata.namespace ?? 'default';
  const dir = join(podDir, 'volumes', 'kube-api-access');
  mkdirSync(dir, { recursive: true });
  // The admission plugin's projected token: one hour (3607 s) for the API server's audiences.
  const token = await sources.serviceAccountToken(namespace, pod.spec.serviceAccountName ?? 'default', undefined, 3607);
  writeFileSync(join(dir, 'token'), token, { mode: 0o600 });
  writeFileSync(join(dir, 'ca.crt'), caCert);
  writeFileSync(join(dir, 'namespace'), namespace);
  return dir;
}
