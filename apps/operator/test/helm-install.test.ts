// `helm install` of our chart into the sandbox, as a platform team installs it: Helm installs the CRDs, the
// ServiceAccount, the least-privilege RBAC and the Deployment; the sandbox's Deployment controller starts the
// operator's pod (our operator image runs this checkout's bundle), which reaches the API server in-cluster
// (KUBERNETES_SERVICE_HOST/PORT, the projected ServiceAccount token and CA) and is authorized by the chart's RBAC
// alone. A RayJob applied afterwards runs to Complete, and no call the operator made was refused. The values are
// KubeRay's (test/fixtures/kuberay-chart-values.yaml: the keys both charts share, at KubeRay's defaults, its default
// featureGates list included) with only the image pointed at ours: a KubeRay values file installs and runs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultImages, operatorImageName, podLogPath, startSandbox, type AuditEvent, type Sandbox } from '@rayjob/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from './support/sandbox-images.ts';
import { api, eventually, giveUp, type Json } from './support/api.ts';
import { chartPath, extractHelm, extractKubectl, runTool, type Run } from './support/helm.ts';
import { operatorNamespace } from './support/least-privilege.ts';
import { discoverPlurals, isOperatorCall, saveOperatorCalls } from './support/operator-calls.ts';

const scratch = mkdtempSync(join(tmpdir(), 'operator-helm-install-'));
// The image's /app/dist (what the Dockerfile copies): the esbuild bundle, bind-mounted into the operator's container.
const imageDist = join(scratch, 'image-dist');
const namespace = operatorNamespace;
const release = 'rayjob';
// KubeRay's values name the ServiceAccount (and fullname) kuberay-operator.
const serviceAccount = 'kuberay-operator';
const operatorUser = `system:serviceaccount:${namespace}:${serviceAccount}`;
const kuberayValues = repoPath('apps/operator/test/fixtures/kuberay-chart-values.yaml');
const audit: AuditEvent[] = [];
let sandbox: Sandbox;
let helm = '';
let kubectl = '';

beforeAll(async () => {
  helm = await extractHelm(scratch);
  kubectl = await extractKubectl(scratch);
  execFileSync(process.execPath, [repoPath('apps/operator/esbuild.config.mjs')], { env: { ...process.env, OPERATOR_BUNDLE_OUT: join(imageDist, 'operator.mjs') }, timeout: 120_000 });
  // A pod sees the host's files except /tmp (its own), so the bundle comes in as the image's files do.
  const images = defaultImages({ repoRoot: repoPath(''), realRayBin: null });
  images[operatorImageName] = { entrypoint: [process.execPath, '/app/dist/operator.mjs'], mounts: [{ source: imageDist, target: '/app/dist', readOnly: true }] };
  sandbox = await startSandbox({ images, apiServer: { audit: (e) => audit.push(e) } });
}, 180_000);
afterAll(async () => {
  // Discovery while the sandbox serves (the CRDs may come with the test); the audit once it stopped.
  const plurals = sandbox && await discoverPlurals(sandbox.url);
  await sandbox?.stop();
  if (plurals) saveOperatorCalls(audit, plurals);
  rmSync(scratch, { recursive: true, force: true });
});

/** The operator pods' phase, restarts and last log lines: what a failed install or rollout is explained by. */
async function operatorDiagnosis(): Promise<string> {
  const pods = ((await api(sandbox.url, 'GET', `/api/v1/namespaces/${namespace}/pods`)).body?.items ?? []) as Json[];
  return pods.map((p) => {
    const name = p.metadata.name as string;
    const log = [podLogPath(sandbox.dir, namespace, name, 'rayjob-operator'), podLogPath(sandbox.dir, namespace, name, 'rayjob-operator', true)]
      .filter((f) => existsSync(f)).map((f) => readFileSync(f, 'utf8').trimEnd().split('\n').slice(-8).join('\n')).join('\n');
    return `${name} ${p.status?.phase} ${JSON.stringify(p.status?.containerStatuses?.[0]?.state)}\n${log}`;
  }).join('\n') || 'no operator pod';
}

const helmRun = (args: string[], timeoutMs: number): Promise<Run> => runTool(scratch, helm, [...args, '--kubeconfig', sandbox.kubeconfigPath], timeoutMs);

/**
 * The chart's ConfigMap policy: the operator's ServiceAccount (impersonated; RBAC lets it patch any ConfigMap)
 * cannot patch kube-system's ConfigMaps nor create a ConfigMap that is not a RayJob's submitter state, while its
 * own submitter-state writes (the RayJob below, K8sJobMode) pass.
 */
async function checkSubmitterStatePolicy(notes: string): Promise<void> {
  const served = ((await api(sandbox.url, 'GET', '/apis/admissionregistration.k8s.io/v1')).body?.resources ?? []).some((r: Json) => r.name === 'validatingadmissionpolicies');
  // The sandbox serves it, as kube-apiserver 1.30+ does (chart-values.test.ts renders the older cluster's case).
  expect(served).toBe(true);
  expect(notes).not.toContain('WARNING: this cluster does not serve');
  expect((await api(sandbox.url, 'GET', '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings')).body.items.map((b: Json) => b.spec.policyName)).toEqual(['kuberay-operator-submitter-state']);
  const asOperator = { 'Impersonate-User': operatorUser, 'Impersonate-Group': 'system:serviceaccounts' };
  await api(sandbox.url, 'POST', '/api/v1/namespaces/kube-system/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } });
  const patched = await api(sandbox.url, 'PATCH', '/api/v1/namespaces/kube-system/configmaps/x', { data: { a: 'evil' } }, 'application/merge-patch+json', asOperator);
  expect(patched.status, JSON.stringify(patched.body)).toBe(422);
  expect(patched.body.message).toContain('ValidatingAdmissionPolicy');
  const created = await api(sandbox.url, 'POST', '/api/v1/namespaces/default/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'not-state' } }, 'application/json', asOperator);
  expect(created.status).toBe(422);
}

const rayJob: Json = {
  apiVersion: 'ray.io/v1',
  kind: 'RayJob',
  metadata: { name: 'after-helm', namespace: 'default' },
  spec: {
    entrypoint: 'echo hello from ray',
    shutdownAfterJobFinishes: true,
    rayClusterSpec: {
      rayVersion: '2.58.0',
      headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.58.0' }] } } },
    },
  },
};

describe('helm install into the sandbox', { timeout: 300_000 }, () => {
  it('installs the chart, the operator runs in its pod under the chart\'s ServiceAccount, and a RayJob runs to Complete', async () => {
    // --wait: Helm waits for the Deployment's rollout (the readiness probe on /readyz, 10 s initial delay), bounded
    // by --timeout and by the process timeout around it.
    const installed = await helmRun(['install', release, chartPath, '--namespace', namespace, '--create-namespace', '-f', kuberayValues,
      '--set', `image.repository=${operatorImageName}`, '--set', 'image.tag=0.1.0', '--wait', '--timeout', '150s'], 180_000);
    if (installed.code !== 0) throw new Error(`helm install failed: ${installed.stderr}\n${await operatorDiagnosis()}`);
    expect(installed.stderr.replace(/^WARNING: .*\n?/gm, '')).toBe('');
    expect(installed.stdout).toContain('STATUS: deployed');
    expect(installed.stdout).toContain(`kubectl -n ${namespace} rollout status deployment/kuberay-operator`);
    await checkSubmitterStatePolicy(installed.stdout);
    // `kubectl auth can-i` as the ServiceAccount: what the chart's RBAC grants it, and what it does not.
    const canI = async (...args: string[]) => (await runTool(scratch, kubectl, ['--kubeconfig', sandbox.kubeconfigPath, 'auth', 'can-i', '--as', operatorUser, ...args])).stdout.trim();
    const rights = [
      ['create', 'rayclusters.ray.io', '-n', 'default'], ['update', 'rayjobs.ray.io', '--subresource=status', '-n', 'default'], ['create', 'jobs.batch', '-n', 'team-a'],
      ['update', 'leases.coordination.k8s.io', '-n', namespace], ['update', 'leases.coordination.k8s.io', '-n', 'default'],
      ['list', 'secrets', '-n', 'default'], ['delete', 'configmaps', '-n', 'kube-system'], ['create', 'pods', '--subresource=exec', '-n', 'default'],
      ['create', 'clusterrolebindings'], ['*', '*', '-A'],
    ];
    const answers = await Promise.all(rights.map((r) => canI(...r)));
    expect(Object.fromEntries(rights.map((r, i) => [r.join(' '), answers[i]]))).toEqual({
      'create rayclusters.ray.io -n default': 'yes', 'update rayjobs.ray.io --subresource=status -n default': 'yes', 'create jobs.batch -n team-a': 'yes',
      [`update leases.coordination.k8s.io -n ${namespace}`]: 'yes', 'update leases.coordination.k8s.io -n default': 'no',
      'list secrets -n default': 'no', 'delete configmaps -n kube-system': 'no', 'create pods --subresource=exec -n default': 'no',
      'create clusterrolebindings': 'no', '* * -A': 'no',
    });

    const pods = (await api(sandbox.url, 'GET', `/api/v1/namespaces/${namespace}/pods`)).body.items as Json[];
    expect(pods).toHaveLength(1);
    expect(pods[0].spec.serviceAccountName).toBe(serviceAccount);
    expect(pods[0].status.containerStatuses[0].ready).toBe(true);

    expect((await api(sandbox.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', rayJob)).status).toBe(201);
    const done = await eventually('the RayJob to complete', async () => {
      const status = (await api(sandbox.url, 'GET', '/apis/ray.io/v1/namespaces/default/rayjobs/after-helm')).body?.status;
      if (status?.jobDeploymentStatus === 'Failed') giveUp(`RayJob failed: ${JSON.stringify(status)}`);
      return status?.jobDeploymentStatus === 'Complete' ? status : undefined;
    }, 150_000, 250);
    expect(done.jobStatus).toBe('SUCCEEDED');

    // The operator authenticated as the chart's ServiceAccount (not an admin), and RBAC refused none of its calls.
    const byOperator = audit.filter((e) => e.user?.username === operatorUser);
    expect(audit.filter(isOperatorCall).filter((e) => e.user?.username !== operatorUser).map((e) => `${e.user?.username} ${e.verb} ${e.requestURI}`)).toEqual([]);
    expect(byOperator.map((e) => `${e.verb} ${e.objectRef?.resource}`)).toEqual(expect.arrayContaining(['create rayclusters', 'create jobs', 'update rayjobs']));
    expect(byOperator.filter((e) => e.responseStatus.code === 401 || e.responseStatus.code === 403).map((e) => `${e.responseStatus.code} ${e.verb} ${e.requestURI}`)).toEqual([]);
    // Its submitter-state ConfigMap writes (K8sJobMode records the head) passed the ConfigMap policy.
    const configMapWrites = byOperator.filter((e) => e.objectRef?.resource === 'configmaps' && e.verb !== 'get');
    expect(configMapWrites.filter((e) => e.verb === 'create' && e.responseStatus.code === 201)).toHaveLength(1);
    expect(configMapWrites.filter((e) => e.responseStatus.code >= 400).map((e) => `${e.responseStatus.code} ${e.verb} ${e.requestURI}`)).toEqual([]);

    const uninstalled = await helmRun(['uninstall', release, '--namespace', namespace, '--wait', '--timeout', '60s'], 90_000);
    expect(`${uninstalled.stdout}${uninstalled.stderr}`).toContain(`release "${release}" uninstalled`);
    await eventually('the operator pod to go', async () => ((await api(sandbox.url, 'GET', `/api/v1/namespaces/${namespace}/pods`)).body.items.length === 0), 60_000, 250);

    // The operator's calls (leader election in its namespace, both controllers, a RayJob lifecycle with shutdown)
    // join the suite's least-privilege record when the sandbox has stopped (a watch is audited when it ends).
  });
});
