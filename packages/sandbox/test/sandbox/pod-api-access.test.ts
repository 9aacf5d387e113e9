// A pod of the composed sandbox reaches the API server as an in-cluster client does: KUBERNETES_SERVICE_HOST/PORT,
// and token, ca.crt and namespace under /var/run/secrets/kubernetes.io/serviceaccount (TLS verified with ca.crt).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/index.ts';
import { createKubeClient, resources } from '@rayjob/kube-runtime';
import type { Pod } from '../../src/kube-objects/types.ts';
import { waitFor } from '../kubelet/harness.ts';

const inClusterClient = `
const fs = require('node:fs'); const https = require('node:https');
const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
const token = fs.readFileSync(dir + '/token', 'utf8'); const namespace = fs.readFileSync(dir + '/namespace', 'utf8');
// Who am I (kubectl auth whoami): any authenticated user may ask.
const req = https.request({ method: 'POST', host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT, path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
  ca: fs.readFileSync(dir + '/ca.crt'), headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' } }, (res) => {
  let body = ''; res.on('data', (c) => { body += c; });
  res.on('end', () => { const answer = JSON.parse(body); console.log(JSON.stringify({ status: res.statusCode, user: answer.status && answer.status.userInfo && answer.status.userInfo.username, message: answer.message, namespace, port: process.env.KUBERNETES_PORT_443_TCP })); });
});
req.on('error', (e) => { console.log(JSON.stringify({ error: e.message })); process.exit(1); });
req.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }));
`;

// Each of the names a pod may use for the API server, over TLS verified against the name (port 443, the Service's).
const byServiceName = `
const fs = require('node:fs'); const https = require('node:https'); const dns = require('node:dns');
const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
const names = ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local'];
Promise.all(names.map((name) => new Promise((resolve) => {
  dns.lookup(name, (lookupError, address) => {
    const req = https.get({ host: name, path: '/version', ca: fs.readFileSync(dir + '/ca.crt'), headers: { authorization: 'Bearer ' + fs.readFileSync(dir + '/token', 'utf8') } }, (res) => {
      let body = ''; res.on('data', (c) => { body += c; });
      res.on('end', () => resolve([name, { address, status: res.statusCode, version: JSON.parse(body).gitVersion }]));
    });
    req.on('error', (e) => resolve([name, { address, error: e.message, lookupError: lookupError && lookupError.message }]));
  });
}))).then((results) => console.log(JSON.stringify(Object.fromEntries(results))));
`;

describe('pods reach the API server', () => {
  let sandbox: Sandbox;
  beforeAll(async () => { sandbox = await startSandbox({ images: { node: { entrypoint: [process.execPath] } }, node: { log: () => {} } }); });
  afterAll(async () => { await sandbox?.stop(); });

  it('with the service variables and the service-account files, over TLS the pod verifies, as its ServiceAccount', async () => {
    const client = await createKubeClient({ server: sandbox.url });
    const created = await client.create<Pod>(resources.pods, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'in-cluster' },
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'node', args: ['-e', inClusterClient] }] },
    }, { namespace: 'default' });
    expect(created.ok).toBe(true);
    const pod = await waitFor('pod finished', async () => {
      const got = await client.get<Pod>(resources.pods, { namespace: 'default', name: 'in-cluster' });
      return got.ok && ['Succeeded', 'Failed'].includes(got.value.status?.phase ?? '') ? got.value : undefined;
    }, 30_000);
    const log = await fetch(`${sandbox.url}/api/v1/namespaces/default/pods/in-cluster/log`).then((r) => r.text());
    expect(pod.status?.phase, log).toBe('Succeeded');
    const answer = JSON.parse(log.trim()) as { status: number; user: string; namespace: string; port: string };
    // The token (TokenRequest) authenticates as the pod's ServiceAccount.
    expect(answer).toMatchObject({ status: 201, user: 'system:serviceaccount:default:default', namespace: 'default' });
    expect(answer.port).toBe(`tcp://${sandbox.node?.network.gatewayIP ?? ''}:443`);
  });

  it('by the kubernetes Service\'s names (kubernetes, kubernetes.default, .svc, .svc.cluster.local) on port 443', async () => {
    const client = await createKubeClient({ server: sandbox.url });
    const created = await client.create<Pod>(resources.pods, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'by-name' },
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'node', args: ['-e', byServiceName] }] },
    }, { namespace: 'default' });
    expect(created.ok).toBe(true);
    const pod = await waitFor('pod finished', async () => {
      const got = await client.get<Pod>(resources.pods, { namespace: 'default', name: 'by-name' });
      return got.ok && ['Succeeded', 'Failed'].includes(got.value.status?.phase ?? '') ? got.value : undefined;
    }, 30_000);
    const log = await fetch(`${sandbox.url}/api/v1/namespaces/default/pods/by-name/log`).then((r) => r.text());
    expect(pod.status?.phase, log).toBe('Succeeded');
    const answers = JSON.parse(log.trim()) as Record<string, unknown>;
    const expected = { address: sandbox.node?.network.gatewayIP, status: 200, version: expect.stringMatching(/^v1\.32\./) };
    expect(answers).toEqual({ kubernetes: expected, 'kubernetes.default': expected, 'kubernetes.default.svc': expected, 'kubernetes.default.svc.cluster.local': expected });
  });

  it('leaves the files out when the pod opts out (automountServiceAccountToken: false)', async () => {
    const client = await createKubeClient({ server: sandbox.url });
    await client.create<Pod>(resources.pods, {
      apiVersion: 'v1', kind: 'Pod', metadata: { name: 'no-token' },
      spec: { restartPolicy: 'Never', automountServiceAccountToken: false, containers: [{ name: 'main', image: 'node', args: ['-e', "console.log(require('node:fs').existsSync('/var/run/secrets/kubernetes.io/serviceaccount/token'))"] }] },
    } as Pod, { namespace: 'default' });
    await waitFor('pod finished', async () => {
      const got = await client.get<Pod>(resources.pods, { namespace: 'default', name: 'no-token' });
      return got.ok && got.value.status?.phase === 'Succeeded' ? true : undefined;
    }, 30_000);
    expect(await fetch(`${sandbox.url}/api/v1/namespaces/default/pods/no-token/log`).then((r) => r.text())).toBe('false\n');
  });
});
