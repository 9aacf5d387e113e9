// The kubeconfig the sandbox writes. Plain HTTP on loopback: client-node accepts an http: server only
// with `insecure-skip-tls-verify: true`, and kubectl accepts that too, so both work with this file.
import { writeFile } from 'node:fs/promises';
import { stringify } from 'yaml';

export function kubeconfigYaml(url: string, namespace = 'default'): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'rayjob-sandbox', cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name: 'rayjob-sandbox', user: { token: 'sandbox' } }],
    contexts: [{ name: 'rayjob-sandbox', context: { cluster: 'rayjob-sandbox', user: 'rayjob-sandbox', namespace } }],
    'current-context': 'rayjob-sandbox',
    preferences: {},
  });
}

export async function writeKubeconfig(path: string, url: string): Promise<void> {
  await writeFile(path, kubeconfigYaml(url), { mode: 0o600 });
}
