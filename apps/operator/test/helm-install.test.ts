// `helm install` of our chart into the sandbox, as a platform team installs it: Helm installs the CRDs, the
// ServiceAccount, the least-privilege RBAC and the Deployment; the sandbox's Deployment controller starts the
// operator's pod (our operator image runs this checkout's bundle), which reaches the API server in-cluster
// (KUBERNETES_SERVICE_HOST/PORT, the projected ServiceAccount token and CA) and is authorized by the chart's RBAC
// alone. A RayJob applied afterwards runs to Complete, and no call the operator made was refused.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultImages, operatorImageName, podLogPath, startSandbox, type AuditEvent, type Sandbox } from '@rayjob/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from '../src/dev/sandbox-images.ts';
import { api, eventually, type Json } from './support/api.ts';
import { chartPath, extractHelm, runTool, type Run } from './support/helm.ts';
import { grantedPermissions, missing, neededPermissions, unused } from './support/rbac-derive.ts';
import { parseAllDocuments } from 'yaml';

const scratch = mkdtempSync(join(tmpdir(), 'operator-helm-install-'));
// The image's /app/dist (what the Dockerfile copies): the esbuild bundle, bind-mounted into the operator's container.
const imageDist = join(scratch, 'image-dist');
const namespace = 'rayjob-system';
const release = 'rayjob';
const operatorUser = `system:serviceaccount:${namespace}:rayjob-rayjob-operator`;
const audit: AuditEvent[] = [];
let sandbox: Sandbox;
let helm = '';

beforeAll(async () => {
  helm = await extractHelm(scratch);
  execFileSync(process.execPath, [repoPath('apps/operator/esbuild.config.mjs')], { env: { ...process.env, OPERATOR_BUNDLE_OUT: join(imageDist, 'operator.mjs') }, timeout: 120_000 });
  // A pod sees the host's files except /tmp (its own), so the bundle comes in as the image's files do.
  const images = defaultImages({ repoRoot: repoPath(''), realRayBin: null });
  images[operatorImageName] = { entrypoint: [process.execPath, '/app/dist/operator.mjs'], mounts: [{ source: imageDist, target: '/app/dist', readOnly: true }] };
  sandbox = await startSandbox({ images, apiServer: { audit: (e) => audit.push(e) } });
}, 180_000);
afterAll(async () => {
  await sandbox?.stop();
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

/**
 * Rules whose only users are paths one RayJob lifecycle in K8sJobMode does not take, each with that path. Every
 * other rule must be used by this run.
 */
const unreachedHere = new Set([
  'ray.io|rayjobs|get', // reads one RayJob after a conflict, outside the cache
  'ray.io|rayjobs|delete', // DELETE_RAYJOB_CR_AFTER_JOB_FINISHES / deletionStrategy DeleteSelf
  'ray.io|rayclusters|get', // adopting a RayCluster after a 409 on create
  'ray.io|rayclusters|update', // clusterSelector / suspend changes written to a RayCluster
  'batch|jobs|get', // adopting a submitter Job after a 409 on create
  'batch|jobs|delete', // deletionStrategy DeleteWorkers/DeleteCluster and suspend
  '|pods|get', // reading a head pod outside the cache
  '|pods|patch', // RayCluster controller: annotating pods (workersToDelete)
  '|pods|delete', // RayCluster controller: scale down, workersToDelete, head restart
  '|services|get', // adopting a Service after a 409 on create
  '|services|update', // a head Service whose spec drifted
  '|secrets|get', // token auth (authOptions.mode token): the cluster's auth Secret
  '|secrets|create', // token auth: the RayCluster controller creates the Secret
  '|services/proxy|get', // --use-kubernetes-proxy: dashboard GETs through the API server
  '|services/proxy|create', // --use-kubernetes-proxy: job submission (POST) through the API server
  'events.k8s.io|events|patch', // a repeated event (count bumped)
]);

describe('helm install into the sandbox', { timeout: 300_000 }, () => {
  it('installs the chart, the operator runs in its pod under the chart\'s ServiceAccount, and a RayJob runs to Complete', async () => {
    // --wait: Helm waits for the Deployment's rollout (the readiness probe on /readyz, 10 s initial delay), bounded
    // by --timeout and by the process timeout around it.
    const installed = await helmRun(['install', release, chartPath, '--namespace', namespace, '--create-namespace', '--wait', '--timeout', '150s'], 180_000);
    if (installed.code !== 0) throw new Error(`helm install failed: ${installed.stderr}\n${await operatorDiagnosis()}`);
    expect(installed.stderr.replace(/^WARNING: .*\n?/gm, '')).toBe('');
    expect(installed.stdout).toContain('STATUS: deployed');

    const pods = (await api(sandbox.url, 'GET', `/api/v1/namespaces/${namespace}/pods`)).body.items as Json[];
    expect(pods).toHaveLength(1);
    expect(pods[0].spec.serviceAccountName).toBe('rayjob-rayjob-operator');
    expect(pods[0].status.containerStatuses[0].ready).toBe(true);

    expect((await api(sandbox.url, 'POST', '/apis/ray.io/v1/namespaces/default/rayjobs', rayJob)).status).toBe(201);
    const done = await eventually('the RayJob to complete', async () => {
      const status = (await api(sandbox.url, 'GET', '/apis/ray.io/v1/namespaces/default/rayjobs/after-helm')).body?.status;
      if (status?.jobDeploymentStatus === 'Failed') throw new Error(`RayJob failed: ${JSON.stringify(status)}`);
      return status?.jobDeploymentStatus === 'Complete' ? status : undefined;
    }, 150_000, 250);
    expect(done.jobStatus).toBe('SUCCEEDED');

    // The operator authenticated as the chart's ServiceAccount (not an admin), and RBAC refused none of its calls.
    const byOperator = audit.filter((e) => e.user?.username === operatorUser);
    expect(byOperator.map((e) => `${e.verb} ${e.objectRef?.resource}`)).toEqual(expect.arrayContaining(['create rayclusters', 'create jobs', 'update rayjobs']));
    expect(byOperator.filter((e) => e.responseStatus.code === 401 || e.responseStatus.code === 403).map((e) => `${e.responseStatus.code} ${e.verb} ${e.requestURI}`)).toEqual([]);

    const uninstalled = await helmRun(['uninstall', release, '--namespace', namespace, '--wait', '--timeout', '60s'], 90_000);
    expect(`${uninstalled.stdout}${uninstalled.stderr}`).toContain(`release "${release}" uninstalled`);
    await eventually('the operator pod to go', async () => ((await api(sandbox.url, 'GET', `/api/v1/namespaces/${namespace}/pods`)).body.items.length === 0), 60_000, 250);

    // Least privilege, read once the operator is gone (a watch is audited when it ends): the permissions its calls
    // needed (leader election, both controllers, a RayJob lifecycle with shutdown) against what the chart grants. A
    // missing one is a 403 for the operator and fails here too; an unused one fails unless only a path this run
    // cannot reach uses it.
    const rendered = await helmRun(['template', release, chartPath, '--namespace', namespace], 60_000);
    const roles = parseAllDocuments(rendered.stdout).map((d) => d.toJS() as Json).filter((o) => o?.kind === 'ClusterRole' || o?.kind === 'Role');
    const granted = grantedPermissions(roles.flatMap((r) => r.rules));
    const discovery = new Map<string, Json[]>();
    for (const path of ['/api/v1', '/apis/ray.io/v1', '/apis/batch/v1']) discovery.set(path === '/api/v1' ? '' : path.split('/')[2] ?? '', (await api(sandbox.url, 'GET', path)).body.resources);
    const needed = neededPermissions(audit.filter((e) => e.user?.username === operatorUser), (group, kind) => discovery.get(group)?.find((r) => r.kind === kind && !r.name.includes('/'))?.name);
    expect(missing(needed, granted)).toEqual([]);
    expect(unused(needed, granted).filter((p) => !unreachedHere.has(p))).toEqual([]);
    // An entry here that this run did reach is stale (the rule is then checked like the others).
    expect([...unreachedHere].filter((p) => needed.has(p))).toEqual([]);
  });
});
