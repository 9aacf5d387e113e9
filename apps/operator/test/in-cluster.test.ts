// The operator as it runs in a pod (issue 23): the in-cluster connection over HTTPS with the cluster CA and a
// projected ServiceAccount token the kubelet rotates, --use-kubernetes-proxy (the dashboard through the API server,
// with the same CA and token), RayJobs in a namespace that enforces Pod Security `restricted`, and /metrics with
// client-go's rest-client series and the process metrics.
import { copyFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import type { Sandbox } from '@rayjob/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { rayJobManifest, startEnv, type Env } from './support/env.ts';
import { operatorNamespace } from './support/least-privilege.ts';
import { isOperatorCall } from './support/operator-calls.ts';

const RESTRICTED = 'restricted-ns';
const restricted = { runAsNonRoot: true, runAsUser: 1000, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, seccompProfile: { type: 'RuntimeDefault' } };
/** The pod's service account files, where client-node's in-cluster loader reads them under a path prefix. */
let prefix = '';
const saDir = () => join(prefix, 'var/run/secrets/kubernetes.io/serviceaccount');
const saUser = (name: string) => `system:serviceaccount:${operatorNamespace}:${name}`;

async function serviceAccount(sandbox: Sandbox, name: string): Promise<void> {
  const created = await api(sandbox.url, 'POST', `/api/v1/namespaces/${operatorNamespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } });
  if (created.status !== 201) throw new Error(`service account: ${created.status}`);
  await api(sandbox.url, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: `operator-${name}` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name, namespace: operatorNamespace }],
  });
}

/** As the kubelet rotates a projected token: a new file swapped in atomically. */
function writeToken(sandbox: Sandbox, name: string): void {
  const { token } = sandbox.apiServer.mintServiceAccountToken({ namespace: operatorNamespace, name, expirationSeconds: 3600 });
  writeFileSync(join(saDir(), '..token.tmp'), token);
  renameSync(join(saDir(), '..token.tmp'), join(saDir(), 'token'));
}

let env: Env;
beforeAll(async () => {
  env = await startEnv(['--use-kubernetes-proxy', '--metrics-addr=127.0.0.1:0'], {
    connection: async (sandbox) => {
      const https = sandbox.apiServer.https;
      if (!https) throw new Error('the sandbox serves no HTTPS');
      prefix = join(sandbox.dir, 'pod-root');
      mkdirSync(saDir(), { recursive: true });
      await api(sandbox.url, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: operatorNamespace } });
      await serviceAccount(sandbox, 'operator-a');
      await serviceAccount(sandbox, 'operator-b');
      writeToken(sandbox, 'operator-a');
      copyFileSync(https.caPath, join(saDir(), 'ca.crt'));
      writeFileSync(join(saDir(), 'namespace'), operatorNamespace);
      // client-node's own in-cluster loader: KUBERNETES_SERVICE_HOST/PORT, ca.crt and the token file.
      const saved = { host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT };
      process.env.KUBERNETES_SERVICE_HOST = '127.0.0.1';
      process.env.KUBERNETES_SERVICE_PORT = String(https.port);
      const kc = new KubeConfig();
      kc.loadFromCluster(prefix);
      process.env.KUBERNETES_SERVICE_HOST = saved.host;
      process.env.KUBERNETES_SERVICE_PORT = saved.port;
      if (saved.host === undefined) delete process.env.KUBERNETES_SERVICE_HOST;
      if (saved.port === undefined) delete process.env.KUBERNETES_SERVICE_PORT;
      return { kubeConfig: kc };
    },
  });
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

async function runToComplete(namespace: string, name: string, spec: Json): Promise<Json> {
  const manifest = rayJobManifest(name, spec);
  manifest.metadata.namespace = namespace;
  manifest.spec.rayClusterSpec.headGroupSpec.template.spec.containers[0].securityContext = restricted;
  const created = await api(env.url, 'POST', `/apis/ray.io/v1/namespaces/${namespace}/rayjobs`, manifest);
  if (created.status !== 201) throw new Error(`create RayJob: ${created.status} ${JSON.stringify(created.body)}`);
  return eventually(`RayJob ${namespace}/${name} to complete`, async () => {
    const job = (await api(env.url, 'GET', `/apis/ray.io/v1/namespaces/${namespace}/rayjobs/${name}`)).body;
    const status = job?.status?.jobDeploymentStatus;
    if (['Failed', 'ValidationFailed'].includes(status)) throw new Error(`RayJob ${name} is ${status}: ${JSON.stringify(job.status)}`);
    return status === 'Complete' ? job : undefined;
  }, 120_000, 200);
}

const proxiedBy = (user: string) => env.audit.filter((e) => isOperatorCall(e) && e.user?.username === user && e.objectRef?.resource === 'services' && e.objectRef.subresource === 'proxy');

describe('the operator in a pod', { timeout: 200_000 }, () => {
  it('runs a K8sJobMode RayJob to Complete in a namespace enforcing Pod Security restricted, the dashboard reached through the API server over TLS', async () => {
    await api(env.url, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: RESTRICTED, labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } });
    const done = await runToComplete(RESTRICTED, 'restricted-job', { submissionMode: 'K8sJobMode', entrypoint: 'echo restricted' });
    expect(done.status).toMatchObject({ jobStatus: 'SUCCEEDED' });
    // The submitter Job's pod was admitted: the namespace refuses any pod that is not restricted.
    const pods = (await api(env.url, 'GET', `/api/v1/namespaces/${RESTRICTED}/pods`)).body.items as Json[];
    expect(pods.some((p) => p.metadata.labels?.['batch.kubernetes.io/job-name'] === 'restricted-job' || p.metadata.labels?.['job-name'] === 'restricted-job')).toBe(true);
    expect(env.audit.some((e) => e.objectRef?.namespace === RESTRICTED && e.objectRef.resource === 'pods' && e.verb === 'create' && e.responseStatus.code === 403)).toBe(false);
    // Every operator call went over HTTPS as the pod's ServiceAccount, the dashboard's through the service proxy.
    expect(proxiedBy(saUser('operator-a')).some((e) => e.responseStatus.code === 200)).toBe(true);
    expect(env.audit.filter((e) => isOperatorCall(e) && e.user?.username !== saUser('operator-a'))).toEqual([]);
  });

  it('uses the token the kubelet rotated, for API calls and the proxy route alike, once the old one stops working', async () => {
    writeToken(env.sandbox, 'operator-b');
    const rotatedAt = env.audit.length;
    // The old token's ServiceAccount is gone: that token authenticates nobody any more (a 401 if it were still sent).
    await api(env.url, 'DELETE', `/api/v1/namespaces/${operatorNamespace}/serviceaccounts/operator-a`);
    const done = await runToComplete('default', 'after-rotation', { submissionMode: 'HTTPMode', entrypoint: 'echo rotated' });
    expect(done.status).toMatchObject({ jobStatus: 'SUCCEEDED' });
    const after = env.audit.slice(rotatedAt).filter(isOperatorCall);
    expect(after.filter((e) => e.responseStatus.code === 401)).toEqual([]);
    expect(proxiedBy(saUser('operator-b')).filter((e) => e.verb === 'create' && e.responseStatus.code === 200)).toHaveLength(1);
  });

  it('/metrics: rest_client_requests_total moves with the calls the operator made, and the process metrics are there', async () => {
    const scrape = async (): Promise<string> => (await fetch(`http://${env.operator.addresses.metrics}/metrics`)).text();
    const counted = (text: string, method: string, code: number): number =>
      text.split('\n').filter((l) => l.startsWith('rest_client_requests_total{') && l.includes(`code="${code}"`) && l.includes(`method="${method}"`)).reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0);
    // The dashboard's requests through the service proxy are the Ray client's, not the API client's.
    const audited = (verbs: string[], code: number): number =>
      env.audit.filter((e) => isOperatorCall(e) && e.objectRef?.subresource !== 'proxy' && verbs.includes(e.verb) && e.responseStatus.code === code).length;
    // Writes are counted one for one with what the API server saw (the watches never end here, so GETs are at least).
    await eventually('the counts to settle', async () => {
      const text = await scrape();
      return counted(text, 'POST', 201) === audited(['create'], 201) && counted(text, 'PUT', 200) === audited(['update'], 200) && counted(text, 'PATCH', 200) === audited(['patch'], 200);
    }, 20_000, 200);
    const text = await scrape();
    expect(counted(text, 'POST', 201)).toBeGreaterThan(3);
    expect(counted(text, 'GET', 200)).toBeGreaterThanOrEqual(audited(['get', 'list'], 200));
    expect(text).toMatch(/^rest_client_request_duration_seconds_count\{verb="GET",host="127\.0\.0\.1:\d+"\} \d+/m);
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d+/m);
  });
});
