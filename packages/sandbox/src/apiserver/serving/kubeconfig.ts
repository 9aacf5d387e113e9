// The kubeconfig the sandbox writes. Plain HTTP on loopback: client-node accepts an http: server only
// with `insecure-skip-tls-verify: true`, and kubectl accepts that too, so both work with this file.
import { writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

export function kubeconfigYaml(url: string, namespace = 'default', caPath?: string): string {
  const cluster = caPath === undefined ? { server: url, 'insecure-skip-tls-verify': true } : { server: url, 'certificate-authority': caPath };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'rayjob-sandbox', cluster }],
    users: [{ name: 'rayjob-sandbox', user: { token: 'sandbox' } }],
    contexts: [{ name: 'rayjob-sandbox', context: { cluster: 'rayjob-sandbox', user: 'rayjob-sandbox', namespace } }],
    'current-context': 'rayjob-sandbox',
    preferences: {},
  });
}

/** A kubelet's kubeconfig: the server's CA and a client certificate (its identity), no token. */
export function writeKubeletKubeconfig(path: string, server: { url: string; caPath: string }, identity: { cert: string; key: string }): void {
  const data = (pem: string): string => Buffer.from(pem).toString('base64');
  writeFileSync(path, stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'rayjob-sandbox', cluster: { server: server.url, 'certificate-authority': server.caPath } }],
    users: [{ name: 'kubelet', user: { 'client-certificate-data': data(identity.cert), 'client-key-data': data(identity.key) } }],
    contexts: [{ name: 'kubelet', context: { cluster: 'rayjob-sandbox', user: 'kubelet' } }],
    'current-context': 'kubelet',
  }), { mode: 0o600 });
}

export async function writeKubeconfig(path: string, url: string, caPath?: string): Promise<void> {
  await writeFile(path, kubeconfigYaml(url, 'default', caPath), { mode: 0o600 });
}
