// deploy/: the Helm chart and the kustomize base. The CRDs are the generated ones; both render; their RBAC is the
// same least-privilege rule set; the operator accepts the arguments they give it (parsed by its own flag parser).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadConfig } from '../src/config/config.ts';
import { repoPath } from './support/sandbox-images.ts';
import type { Json } from './support/api.ts';
import { chartPath, extractHelm, extractKubectl, runTool, type Run } from './support/helm.ts';

const chart = chartPath;
const base = repoPath('apps/operator/deploy/kustomize/base');
const scratch = mkdtempSync(join(tmpdir(), 'operator-deploy-'));
let helm = '';
let kubectl = '';

const exec = (cmd: string, args: string[]): Promise<Run> => runTool(scratch, cmd, args);

beforeAll(async () => {
  helm = await extractHelm(scratch);
  kubectl = await extractKubectl(scratch);
}, 60_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const docs = (text: string): Json[] => parseAllDocuments(text).map((d) => d.toJS()).filter((d) => d);
const renderWith = (args: string[]): Promise<Run> => exec(helm, ['template', 'rayjob', chart, '--namespace', 'rayjob-system', '--include-crds', ...args]);
const template = async (...set: string[]): Promise<Json[]> => {
  const r = await renderWith(set.flatMap((s) => ['--set', s]));
  if (r.code !== 0) throw new Error(r.stderr);
  return docs(r.stdout);
};
/** The operator's own ClusterRole (the chart also ships unbound editor/viewer roles for people). */
const operatorRole = (objects: Json[]) => {
  const binding = objects.find((o) => o.kind === 'ClusterRoleBinding');
  return objects.find((o) => o.kind === 'ClusterRole' && o.metadata.name === binding.roleRef.name);
};
const operatorArgs = (objects: Json[]): string[] => objects.find((o) => o.kind === 'Deployment').spec.template.spec.containers[0].args;
const sortedRules = (rules: Json[]) => rules.map((r) => JSON.stringify({ g: r.apiGroups, r: r.resources, v: [...r.verbs].sort() })).sort();

describe('deploy/', { timeout: 60_000 }, () => {
  it('ships the generated CRDs, unchanged, in the chart and the kustomize base', () => {
    for (const crd of ['ray.io_rayjobs.yaml', 'ray.io_rayclusters.yaml']) {
      const generated = readFileSync(repoPath(`packages/core/crds/${crd}`), 'utf8');
      expect(readFileSync(join(chart, 'crds', crd), 'utf8')).toBe(generated);
      expect(readFileSync(join(base, 'crds', crd), 'utf8')).toBe(generated);
    }
  });

  it('helm lint --strict passes', async () => {
    const r = await exec(helm, ['lint', '--strict', chart]);
    expect(r.stdout).toContain('0 chart(s) failed');
    expect(r.code).toBe(0);
  });

  it('the chart renders a non-root, read-only Deployment whose arguments the operator accepts; RBAC equals the kustomize base', async () => {
    const objects = await template();
    const deployment = objects.find((o) => o.kind === 'Deployment');
    expect(deployment.spec.template.spec.securityContext).toMatchObject({ runAsNonRoot: true });
    expect(deployment.spec.template.spec.containers[0].securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    const loaded = loadConfig(operatorArgs(objects), {});
    expect(loaded.ok).toBe(true);
    if (loaded.ok === true) expect(loaded.config).toMatchObject({ enableLeaderElection: true, leaderElectionNamespace: '', enableMetrics: true, watchNamespaces: [] });
    expect(objects.filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.metadata.name).sort()).toEqual(['rayclusters.ray.io', 'rayjobs.ray.io']);

    const kustomized = await exec(kubectl, ['kustomize', base]);
    expect(kustomized.code).toBe(0);
    const baseObjects = docs(kustomized.stdout);
    expect(loadConfig(operatorArgs(baseObjects), {}).ok).toBe(true);
    const helmRole = operatorRole(objects);
    const baseRole = operatorRole(baseObjects);
    expect(sortedRules(helmRole.rules)).toEqual(sortedRules(baseRole.rules));
    // Least privilege: no wildcards, no verbs on kinds the operator never touches.
    expect(JSON.stringify(helmRole.rules)).not.toContain('*');
    // ConfigMaps: only the submitter-state one of addition H is written, never listed or watched.
    expect(helmRole.rules.filter((r: Json) => r.resources.includes('configmaps')).map((r: Json) => r.verbs)).toEqual([['create', 'get', 'patch']]);
    expect(helmRole.rules.flatMap((r: Json) => r.resources)).not.toContain('ingresses');
  });

  it('singleNamespaceInstall: Roles only in the watched namespaces, and the operator watches just those', async () => {
    const objects = await template('singleNamespaceInstall=true', 'watchNamespace={team-a,team-b}', 'managedBy=rayjob.io/operator');
    expect(objects.filter((o) => o.kind === 'ClusterRole')).toEqual([]);
    // crNamespacedRbacEnable=false (KubeRay: a GitOps tool manages them): no Roles in the watched namespaces.
    const gitOps = await template('singleNamespaceInstall=true', 'watchNamespace={team-a,team-b}', 'crNamespacedRbacEnable=false');
    expect(gitOps.filter((o) => o.kind === 'Role').map((o) => o.metadata.name)).toEqual(['rayjob-rayjob-operator-leader-election']);
    const watched = objects.filter((o) => o.kind === 'Role' && !o.metadata.name.endsWith('leader-election'));
    expect(watched.map((o) => o.metadata.namespace)).toEqual(['team-a', 'team-b']);
    // The same rules as the ClusterRole the least-privilege check judges, only per namespace.
    const clusterWide = operatorRole(await template());
    for (const role of watched) expect(sortedRules(role.rules)).toEqual(sortedRules(clusterWide.rules));
    const loaded = loadConfig(operatorArgs(objects), {});
    expect(loaded.ok === true && loaded.config).toMatchObject({ watchNamespaces: ['team-a', 'team-b'], managedBy: 'rayjob.io/operator', leaderElectionId: 'rayjob-operator-leader' });
  });
});
