// The kubeconfig the sandbox writes. Plain HTTP on loopback: client-node accepts an http: server only
// with `insecure-skip-tls-verify: true`, and kubectl accepts that too, so both work with this file.
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

export async function writeKubeconfig(path: string, url: string, caPath?: string): Promise<void> {
  await writeFile(path, kubeconfigYaml(url, 'default', caPath), { mode: 0o600 });
}
