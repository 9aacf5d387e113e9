// Client certificates on the HTTPS port, as kube-apiserver's --client-ca-file: CN is the user, O the groups. A
// kubelet-style kubeconfig (client certificate, key, CA) works through kube-runtime's client; a certificate another
// CA signed gets 401; a server the kubeconfig's CA did not sign fails with the TLS cause in the error.
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createKubeClient, resources, type KubeClient } from '@rayjob/kube-runtime';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { createCertificateAuthority, issueCertificate, type CertificateAndKey } from '../../src/pki/x509.ts';

const clusterCA = createCertificateAuthority('cluster-ca');
const nodeCert = issueCertificate(clusterCA, { commonName: 'system:node:n1', organizations: ['system:nodes'], usages: ['client'] });

let api: ApiServer;
const clients: KubeClient[] = [];
beforeAll(async () => { api = await startApiServer({ https: true, clientCA: clusterCA.cert }); });
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await api?.stop();
});

const b64 = (pem: string): string => Buffer.from(pem).toString('base64');

/** A kubelet's kubeconfig: the server's CA, a client certificate and key, no token. */
function kubeconfig(name: string, cert: CertificateAndKey, ca: { file: string } | { data: string }): string {
  const path = join(api.dir, `${name}.kubeconfig`);
  const cluster = { server: api.https?.url, ...('file' in ca ? { 'certificate-authority': ca.file } : { 'certificate-authority-data': b64(ca.data) }) };
  writeFileSync(path, stringify({
    apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
    clusters: [{ name: 'c', cluster }],
    users: [{ name: 'u', user: { 'client-certificate-data': b64(cert.cert), 'client-key-data': b64(cert.key) } }],
    contexts: [{ name: 'c', context: { cluster: 'c', user: 'u' } }],
  }));
  return path;
}

async function clientFor(name: string, cert: CertificateAndKey, ca: { file: string } | { data: string } = { file: api.https?.caPath ?? '' }): Promise<KubeClient> {
  const client = await createKubeClient({ kubeconfigPath: kubeconfig(name, cert, ca) });
  clients.push(client);
  return client;
}

const whoami = (client: KubeClient) =>
  client.request<{ status?: { userInfo?: { username?: string; groups?: string[] } } }>({
    method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  });

describe('client certificates on the HTTPS port', () => {
  it('authenticate as CN with O as groups, like a kubelet (system:node:<name>, system:nodes)', async () => {
    const answer = await whoami(await clientFor('node', nodeCert));
    expect(answer.ok && answer.value.status?.userInfo).toEqual({ username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] });
  });

  it('the node gets what a node may do, and 403 with kube-apiserver\'s message beyond it', async () => {
    const client = await clientFor('node-rbac', nodeCert);
    expect((await client.list(resources.pods)).ok).toBe(true);
    const denied = await client.create(resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'default' } });
    expect(denied.ok ? undefined : { status: denied.error.status, message: denied.error.message }).toEqual({
      status: 403, message: 'secrets is forbidden: User "system:node:n1" cannot create resource "secrets" in API group "" in the namespace "default"',
    });
  });

  it('a certificate another CA signed authenticates nobody: 401', async () => {
    const stranger = issueCertificate(createCertificateAuthority('other-ca'), { commonName: 'system:node:n1', organizations: ['system:masters'], usages: ['client'] });
    const answer = await whoami(await clientFor('stranger', stranger));
    expect(answer.ok ? 200 : answer.error.status).toBe(401);
  });

  it('a server the kubeconfig\'s CA did not sign fails, and the error keeps the TLS cause', async () => {
    const wrongCA = createCertificateAuthority('not-the-server-ca');
    const client = await clientFor('wrong-ca', nodeCert, { data: wrongCA.cert });
    const answer = await whoami(client);
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error).toMatchObject({ status: 0, reason: 'ConnectionError' });
    expect(answer.error.message).toMatch(/SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT/);
    // The real CA works with the same certificate (the failure above is the CA, nothing else).
    expect((await whoami(await clientFor('right-ca', nodeCert, { data: await readFile(api.https?.caPath ?? '', 'utf8') }))).ok).toBe(true);
  });
});
