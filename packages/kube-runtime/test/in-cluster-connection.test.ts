import { createServer } from 'node:https';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inClusterServer } from '../src/client/connection.ts';
import { createKubeClient, resources, type KubeObject } from '../src/index.ts';
import { makeTestPki } from './support/certs.ts';

// The in-cluster connection is built without @kubernetes/client-node (its import costs ~25 MB of heap, issue 27),
// so it must resolve exactly as client-go's InClusterConfig and client-node's loadFromDefault do.
const root = mkdtempSync(join(tmpdir(), 'kube-runtime-incluster-'));
const sa = join(root, 'serviceaccount');
const home = join(root, 'home');
const homeWithConfig = join(root, 'home-with-config');
mkdirSync(sa);
mkdirSync(home);
mkdirSync(join(homeWithConfig, '.kube'), { recursive: true });
writeFileSync(join(homeWithConfig, '.kube', 'config'), 'apiVersion: v1\nkind: Config\n');
const pod = { KUBERNETES_SERVICE_HOST: '10.96.0.1', KUBERNETES_SERVICE_PORT: '443', HOME: home };
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('in-cluster connection settings', () => {
  writeFileSync(join(sa, 'token'), 'pod-token\n');
  const inPod = { caFile: join(sa, 'ca.crt'), tokenFile: join(sa, 'token') };
  it.each([
    ['{inCluster} in a pod: https to the service host, the service account CA and token file', { inCluster: true } as const, pod, { server: 'https://10.96.0.1:443', ...inPod }],
    ['an IPv6 service host is bracketed', { inCluster: true } as const, { ...pod, KUBERNETES_SERVICE_HOST: 'fd00::1' }, { server: 'https://[fd00::1]:443', ...inPod }],
    ['ports 80, 8080 and 8001 are plain http (client-node)', { inCluster: true } as const, { ...pod, KUBERNETES_SERVICE_PORT: '8080' }, { server: 'http://10.96.0.1:8080', ...inPod }],
    ['{fromDefault} in a pod without any kubeconfig: in-cluster', { fromDefault: true } as const, pod, { server: 'https://10.96.0.1:443', ...inPod }],
    ['{fromDefault} with KUBECONFIG set: the kubeconfig wins', { fromDefault: true } as const, { ...pod, KUBECONFIG: '/somewhere/config' }, undefined],
    ['{fromDefault} with ~/.kube/config present: the kubeconfig wins', { fromDefault: true } as const, { ...pod, HOME: homeWithConfig }, undefined],
    ['{fromDefault} with a context: a kubeconfig is meant', { fromDefault: true, context: 'prod' } as const, pod, undefined],
    ['a kubeconfig path is never in-cluster', { kubeconfigPath: '/k' } as const, pod, undefined],
  ])('%s', (_name, source, env, expected) => {
    expect(inClusterServer(source, env, sa)).toEqual(expected);
  });

  it('{fromDefault} without a mounted token is not in-cluster (client-node falls back to a kubeconfig)', () => {
    expect(inClusterServer({ fromDefault: true }, pod, join(root, 'no-such-dir'))).toBeUndefined();
  });

  it('{inCluster} outside a pod names the missing variables and the fix', () => {
    expect(() => inClusterServer({ inCluster: true }, { HOME: home }, sa)).toThrow(/KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set.*--kubeconfig/);
  });
});

describe('in-cluster connection against a TLS server', () => {
  const pki = makeTestPki();
  const authorizations: Array<string | undefined> = [];
  const server = createServer({ cert: pki.serverCert, key: pki.serverKey }, (req, res) => {
    authorizations.push(req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } }));
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('trusts the service account CA and sends the token file, read again after the kubelet rotates it', async () => {
    const dir = join(root, 'tls-sa');
    mkdirSync(dir);
    writeFileSync(join(dir, 'ca.crt'), pki.ca);
    writeFileSync(join(dir, 'token'), 'first\n');
    const settings = inClusterServer({ inCluster: true }, { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: String(port) }, dir);
    const client = await createKubeClient(settings!);
    expect((await client.get<KubeObject>(resources.namespaces, { name: 'default' })).ok).toBe(true);
    writeFileSync(join(dir, 'token'), 'rotated-and-longer\n');
    expect((await client.get<KubeObject>(resources.namespaces, { name: 'default' })).ok).toBe(true);
    expect(authorizations).toEqual(['Bearer first', 'Bearer rotated-and-longer']);
    await client.close();
  });
});
