// rayjob beside KubeRay, installed as the chart's README says: KubeRay's CRDs are there first (they refuse
// `managedBy: rayjob.io/operator`), ours (a superset) replace them (`kubectl replace -f crds/`), then two operators run, each under its own ServiceAccount token: KubeRay's (a stand-in: this
// operator with KubeRay's defaults, RayJob and RayCluster controllers) and rayjob's (`--managed-by
// rayjob.io/operator --enable-raycluster-controller=false`). Each RayJob is reconciled by its own operator only,
// both RayClusters by KubeRay's, and the two hold different leader-election Leases.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type AuditEvent, type Sandbox } from '@rayjob/sandbox';
import { createLogger } from '@rayjob/kube-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadConfig } from '../src/config/config.ts';
import { RAY_CRDS, repoPath, sandboxImages } from './support/sandbox-images.ts';
import { startOperator, type RunningOperator } from '../src/operator.ts';
import { api, eventually, type Json } from './support/api.ts';
import { extractKubectl, runTool } from './support/helm.ts';
import { createRayJob, rayJobManifest, SUBMITTER_IMAGE, waitForDeployment } from './support/env.ts';
import { discoverPlurals, saveOperatorCalls } from './support/operator-calls.ts';

const scratch = mkdtempSync(join(tmpdir(), 'operator-side-by-side-'));
const audit: AuditEvent[] = [];
const operators: RunningOperator[] = [];
let sandbox: Sandbox;

const kuberay = { namespace: 'ray-system', serviceAccount: 'kuberay-operator', argv: [] as string[] };
const rayjob = { namespace: 'rayjob-system', serviceAccount: 'rayjob-operator', argv: ['--managed-by', 'rayjob.io/operator', '--enable-raycluster-controller=false'] };
const userOf = (o: typeof kuberay) => `system:serviceaccount:${o.namespace}:${o.serviceAccount}`;

/** KubeRay's CRD as installed: ours, with the managedBy rule allowing only KubeRay's values (KubeRay v1.4+). */
function kuberayShapedCrd(file: string): Json {
  const crd = parse(readFileSync(file, 'utf8'));
  return JSON.parse(JSON.stringify(crd).replaceAll(", 'rayjob.io/operator'", '').replaceAll(" or 'rayjob.io/operator'", ''));
}

/** A kubeconfig holding a ServiceAccount token minted by the TokenRequest API (cluster-admin bound for brevity). */
async function serviceAccountKubeconfig(o: typeof kuberay): Promise<string> {
  await api(sandbox.url, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: o.namespace } });
  await api(sandbox.url, 'POST', `/api/v1/namespaces/${o.namespace}/serviceaccounts`, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: o.serviceAccount } });
  await api(sandbox.url, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', metadata: { name: o.serviceAccount },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: o.serviceAccount, namespace: o.namespace }],
  });
  const minted = await api(sandbox.url, 'POST', `/api/v1/namespaces/${o.namespace}/serviceaccounts/${o.serviceAccount}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } });
  if (minted.status !== 201) throw new Error(`TokenRequest: ${minted.status} ${JSON.stringify(minted.body)}`);
  const kubeconfig = parse(readFileSync(sandbox.kubeconfigPath, 'utf8'));
  for (const u of kubeconfig.users) u.user = { token: minted.body.status.token };
  const path = join(scratch, `${o.serviceAccount}.kubeconfig`);
  writeFileSync(path, stringify(kubeconfig));
  return path;
}

async function startOne(o: typeof kuberay): Promise<void> {
  const loaded = loadConfig(['--metrics-addr=0', '--health-probe-bind-address=0', '--submitter-image', SUBMITTER_IMAGE, '--leader-election-namespace', o.namespace, '--kubeconfig', await serviceAccountKubeconfig(o), ...o.argv], {});
  if (loaded.ok !== true) throw new Error(JSON.stringify(loaded));
  operators.push(await startOperator({
    config: loaded.config,
    ...(sandbox.node && { dashboardLookup: sandbox.node.lookup }),
    identity: o.serviceAccount,
    // No leaderElection timings: KubeRay's 15 s / 10 s / 2 s, so a loaded machine does not make an operator lose
    // its Lease mid-test (it would stop reconciling, as KubeRay's exits).
    logger: createLogger({ level: process.env.OPERATOR_TEST_LOG ?? 'silent' }),
  }));
}

/** What the RayJobs, RayClusters and Pods look like: why a RayJob did not complete. */
async function diagnosis(): Promise<string> {
  const list = async (path: string) => ((await api(sandbox.url, 'GET', path)).body?.items ?? []) as Json[];
  const jobs = (await list('/apis/ray.io/v1/namespaces/default/rayjobs')).map((j) => `RayJob ${j.metadata.name} ${JSON.stringify(j.status)}`);
  const clusters = (await list('/apis/ray.io/v1/namespaces/default/rayclusters')).map((c) => `RayCluster ${c.metadata.name} managedBy=${c.spec.managedBy} ${JSON.stringify(c.status)}`);
  const pods = (await list('/api/v1/namespaces/default/pods')).map((p) => `Pod ${p.metadata.name} ${p.status?.phase} ${JSON.stringify(p.status?.conditions)}`);
  const denied = audit.filter((e) => e.responseStatus.code >= 400 && e.user?.username?.startsWith('system:serviceaccount')).slice(0, 10).map((e) => `${e.responseStatus.code} ${e.user?.username} ${e.verb} ${e.requestURI}`);
  const watches = audit.filter((e) => e.verb === 'watch' && e.user?.username?.startsWith('system:serviceaccount')).map((e) => `${e.responseStatus.code} ${e.user?.username} ${e.stage ?? ''} ${e.requestURI}`);
  const perUser = Object.entries(audit.reduce<Record<string, number>>((acc, e) => ({ ...acc, [`${e.user?.username} ${e.verb}`]: (acc[`${e.user?.username} ${e.verb}`] ?? 0) + 1 }), {})).map(([k, n]) => `${k}: ${n}`);
  return [...jobs, ...clusters, ...pods, ...denied, ...watches.slice(0, 30), ...perUser].join('\n');
}

beforeAll(async () => {
  // KubeRay's probes on Ray Pods, scaled down as in the other RayCluster controller tests (raycluster-env.ts).
  sandbox = await startSandbox({ images: sandboxImages({ submitterImages: [SUBMITTER_IMAGE] }), apiServer: { audit: (e) => audit.push(e) }, node: { timing: { probeTimeScale: 0.2 } } });
}, 120_000);
afterAll(async () => {
  for (const o of operators.reverse()) await o.stop();
  const plurals = sandbox && await discoverPlurals(sandbox.url);
  await sandbox?.stop();
  // Both operators' calls count for the shipped RBAC, except the KubeRay-configured one's Lease: it lives in that
  // install's own namespace (ray-system), which in our chart is always the release namespace (helm-install covers it).
  const ownLease = (e: AuditEvent) => e.user?.username === userOf(kuberay) && e.requestURI.includes(`/namespaces/${kuberay.namespace}/leases`);
  if (plurals) saveOperatorCalls(audit.filter((e) => (e.user?.username === userOf(rayjob) || e.user?.username === userOf(kuberay)) && !ownLease(e)), plurals);
  rmSync(scratch, { recursive: true, force: true });
}, 60_000);

describe('side by side with KubeRay', { timeout: 240_000 }, () => {
  it('our CRDs go over KubeRay\'s; each operator reconciles only its own RayJobs; KubeRay\'s runs both RayClusters', async () => {
    // KubeRay's CRDs, installed first by its chart.
    for (const file of RAY_CRDS) expect((await api(sandbox.url, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', kuberayShapedCrd(file))).status).toBe(201);
    const ours = rayJobManifest('ours', { managedBy: 'rayjob.io/operator' });
    const refused = await eventually('KubeRay\'s CRD to serve', async () => {
      const r = await api(sandbox.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', ours);
      return r.status === 404 ? undefined : r;
    }, 20_000, 100);
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('managedBy');

    // The README's step: put ours over them (Helm never replaces installed CRDs); `kubectl replace`, the README's
    // alternative to server-side apply (too large for client-side apply's last-applied annotation).
    const crds = repoPath('apps/operator/deploy/helm/rayjob-operator/crds');
    const replaced = await runTool(scratch, await extractKubectl(scratch), ['--kubeconfig', sandbox.kubeconfigPath, 'replace', '-f', crds], 120_000);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stdout).toMatch(/rayjobs.ray.io replaced/);

    await startOne(kuberay);
    await startOne(rayjob);
    await eventually('our RayJob to be accepted by the new CRD', async () => (await api(sandbox.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', ours)).status === 201, 20_000, 200);
    await createRayJob(sandbox.url, rayJobManifest('theirs'));
    try {
      await waitForDeployment(sandbox.url, 'ours', 'Complete', 150_000);
      await waitForDeployment(sandbox.url, 'theirs', 'Complete', 150_000);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${await diagnosis()}`);
    }

    const writes = (user: string, resource: string) => audit.filter((e) => e.user?.username === user && e.objectRef?.resource === resource && !['get', 'list', 'watch'].includes(e.verb));
    const names = (events: AuditEvent[]) => [...new Set(events.map((e) => e.objectRef?.name ?? ''))].sort();
    // Each RayJob's status is written by its own operator only.
    expect(names(writes(userOf(rayjob), 'rayjobs'))).toEqual(['ours']);
    expect(names(writes(userOf(kuberay), 'rayjobs'))).toEqual(['theirs']);
    // Ray Pods are KubeRay's RayCluster controller's work for both clusters; ours creates no Pod but submitters'.
    expect(writes(userOf(rayjob), 'pods')).toEqual([]);
    expect(writes(userOf(kuberay), 'pods').filter((e) => e.verb === 'create').length).toBeGreaterThanOrEqual(2);
    const clusterStatus = writes(userOf(kuberay), 'rayclusters').filter((e) => e.objectRef?.subresource === 'status');
    expect(clusterStatus.length).toBeGreaterThan(0);
    expect(writes(userOf(rayjob), 'rayclusters').filter((e) => e.objectRef?.subresource === 'status')).toEqual([]);
    // Two Leases, one per operator.
    const lease = async (ns: string, name: string) => (await api(sandbox.url, 'GET', `/apis/coordination.k8s.io/v1/namespaces/${ns}/leases/${name}`)).body?.spec?.holderIdentity;
    expect(await lease(kuberay.namespace, 'ray-operator-leader')).toMatch(/^kuberay-operator/);
    expect(await lease(rayjob.namespace, 'rayjob-operator-leader')).toMatch(/^rayjob-operator/);
  });
});
