// The node joined to an API server it was not started with (`rayjob-sandbox node --kubeconfig`): only the REST API
// and the kubeconfig's HTTPS connect them, as a kubelet joins a real kube-apiserver (the manual run on
// kube-reference is in docs/real-apiserver.md). The node registers, binds and runs a pod with an address
// the API server reaches (not loopback: a real kube-apiserver refuses to proxy there), the API server's service
// proxy reaches the pod, logs come from the kubelet endpoint to the API server's kubelet client certificate only,
// and a deleted pod is stopped and removed.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { get as httpsGet } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKubeClient, resources, type KubeClient } from '@rayjob/kube-runtime';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.ts';
import { joinNode } from '../../src/join-node.ts';
import type { SandboxNode } from '../../src/kubelet/sandbox-node.ts';
import type { KubeObject } from '../../src/kube-objects/types.ts';
import { createCertificateAuthority, issueCertificate } from '../../src/pki/x509.ts';
import { createPod, getPod, testImages, waitFor, waitForPhase } from './harness.ts';

let dir: string;
let api: ApiServer;
let client: KubeClient;
let node: SandboxNode;
let caCert: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rayjob-join-node-'));
  // As kube-apiserver's --kubelet-client-certificate: the API server reaches kubelets with a certificate of this CA.
  const ca = createCertificateAuthority('join-node-test-ca');
  caCert = ca.cert;
  const kubeletClient = issueCertificate(ca, { commonName: 'kube-apiserver-kubelet-client', organizations: ['system:masters'], usages: ['client'] });
  await mkdir(join(dir, 'api'));
  api = await startApiServer({ dir: join(dir, 'api'), https: true, kubeletClient: { cert: kubeletClient.cert, key: kubeletClient.key, ca: ca.cert } });
  client = await createKubeClient({ server: api.url });
  node = await joinNode({ connection: { kubeconfigPath: api.https!.kubeconfigPath }, dir: join(dir, 'node'), images: testImages, nodeName: 'joined', endpointsController: true, kubeletClientCA: ca.cert,
    // The sandbox's API server verifies the kubelet's serving certificate (as kube-apiserver with --kubelet-certificate-authority).
    kubeletServing: (host) => issueCertificate(ca, { commonName: `${host}@kubelet`, ipAddresses: [host], usages: ['server'] }) });
}, 60_000);
afterAll(async () => {
  await node?.stop();
  await client?.close();
  await api?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const server = "require('http').createServer((q, s) => s.end('hello from ' + process.env.HOSTNAME + ' ' + q.url)).listen(8080, '0.0.0.0'); console.log('listening')";

describe('the sandbox node joined to an API server over REST', { timeout: 60_000 }, () => {
  it('registers a Ready Node with its kubelet endpoint on its pod-network address', async () => {
    const registered = await client.get<KubeObject & { status?: { conditions?: Array<{ type: string; status: string }>; addresses?: Array<{ type: string; address: string }>; daemonEndpoints?: { kubeletEndpoint?: { Port?: number } } } }>(resources.nodes, { name: 'joined' });
    expect(registered.ok).toBe(true);
    const status = registered.ok ? registered.value.status : undefined;
    expect(status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(status?.addresses).toEqual([{ type: 'InternalIP', address: node.network.gatewayIP }]);
    expect(status?.daemonEndpoints?.kubeletEndpoint?.Port).toBe(node.kubelet.server?.port);
  });

  it('runs a pod the API server reaches through its service proxy, with logs from the kubelet endpoint', async () => {
    await createPod(client, { metadata: { name: 'web', labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'node', args: ['-e', server], ports: [{ name: 'http', containerPort: 8080 }], readinessProbe: { tcpSocket: { port: 8080 }, periodSeconds: 1 } }] } });
    const running = await waitForPhase(client, 'web', ['Running']);
    expect(running.spec.nodeName).toBe('joined');
    if (node.network.mode === 'netns') expect(running.status?.podIP).toMatch(/^10\.244\.\d+\.\d+$/);
    await client.create(resources.services, { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default' }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 8080, targetPort: 8080 }] } }, { namespace: 'default' });
    const answer = await waitFor('the service proxy to reach the pod', async () => {
      const r = await fetch(`${api.url}/api/v1/namespaces/default/services/web:http/proxy/through-the-proxy`);
      return r.status === 200 ? r.text() : undefined;
    });
    expect(answer).toBe('hello from web /through-the-proxy');
    const logs = await fetch(`${api.url}/api/v1/namespaces/default/pods/web/log`);
    expect(await logs.text()).toBe('listening\n');
    // The kubelet endpoint itself refuses a client without the API server's kubelet client certificate.
    const direct = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpsGet({ host: node.network.gatewayIP, port: node.kubelet.server?.port, path: '/containerLogs/default/web/main', ca: caCert }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
    });
    expect(direct).toBe(401);
  });

  it('stops and removes a deleted pod', async () => {
    await client.delete(resources.pods, { namespace: 'default', name: 'web' }, { gracePeriodSeconds: 1 });
    await waitFor('the pod to be gone', async () => ((await getPod(client, 'web')) === undefined ? true : undefined));
  });
});
