// The Helm chart as a KubeRay user meets it: KubeRay's own chart values (the keys both charts share, at KubeRay's
// defaults) render a Deployment whose arguments the operator accepts; values.schema.json rejects typos and bad
// types with a message naming the key; the KubeRay keys (imagePullSecrets, serviceMonitor, service, labels,
// annotations, configuration, logging, batchScheduler) do what KubeRay's do; the grace period, PDB, user roles
// and the ConfigMap admission policy; the kustomize base moved to another namespace by an overlay.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.ts';
import { repoPath } from './support/sandbox-images.ts';
import type { Json } from './support/api.ts';
import { chartPath, extractHelm, extractKubectl, runTool, yamlDocuments, type Run } from './support/helm.ts';

const kuberayValues = repoPath('apps/operator/test/fixtures/kuberay-chart-values.yaml');
// KubeRay's values file with the one edit the chart's README asks for: `image` pointed at this operator.
const kuberay = ['-f', kuberayValues, '--set', 'image.repository=ghcr.io/rayjob/operator', '--set', 'image.tag=0.1.0'];
const base = repoPath('apps/operator/deploy/kustomize/base');
const scratch = mkdtempSync(join(tmpdir(), 'operator-chart-values-'));
let helm = '';
let kubectl = '';
beforeAll(async () => {
  helm = await extractHelm(scratch);
  kubectl = await extractKubectl(scratch);
}, 60_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** As against a Kubernetes 1.30+ API server, which serves ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1). */
const VAP_API = 'admissionregistration.k8s.io/v1/ValidatingAdmissionPolicy';
const render = (args: string[], apiVersions = [VAP_API]): Promise<Run> =>
  runTool(scratch, helm, ['template', 'rel', chartPath, '--namespace', 'ray-system', ...apiVersions.flatMap((v) => ['--api-versions', v]), ...args]);
const rendered = async (...args: string[]): Promise<Json[]> => {
  const r = await render(args);
  if (r.code !== 0) throw new Error(r.stderr);
  return yamlDocuments(r.stdout);
};
const one = (objects: Json[], kind: string, name?: string) => {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  if (found.length !== 1) throw new Error(`expected one ${kind} ${name ?? ''}, got ${found.length}`);
  return found[0];
};
const podSpec = (objects: Json[]) => one(objects, 'Deployment').spec.template.spec;
const args = (objects: Json[]): string[] => podSpec(objects).containers[0].args;

describe('the chart with KubeRay\'s values', { timeout: 60_000 }, () => {
  it('renders, and the operator accepts the arguments (KubeRay\'s default featureGates list included)', async () => {
    const objects = await rendered(...kuberay);
    const loaded = loadConfig(args(objects), {});
    if (loaded.ok !== true) throw new Error(JSON.stringify(loaded));
    expect(loaded.config).toMatchObject({ enableLeaderElection: true, reconcileConcurrency: 1, qps: 100, burst: 200, enableMetrics: true, leaderElectionNamespace: '' });
    expect(loaded.config.featureGates).toMatchObject({ RayClusterMTLS: false, RayMultiHostIndexing: true });
    // fullnameOverride and serviceAccount.name as KubeRay names them; the component label from componentOverride.
    expect(one(objects, 'ServiceAccount').metadata.name).toBe('kuberay-operator');
    expect(one(objects, 'ClusterRoleBinding').subjects).toEqual([{ kind: 'ServiceAccount', name: 'kuberay-operator', namespace: 'ray-system' }]);
    expect(one(objects, 'Deployment').spec.template.metadata.labels['app.kubernetes.io/component']).toBe('kuberay-operator');
    expect(one(objects, 'Service').spec).toMatchObject({ type: 'ClusterIP', ports: [{ port: 8080, targetPort: 'http-metrics' }] });
  });

  it('configuration.enabled writes KubeRay\'s configuration file, which the operator reads with --config', async () => {
    const objects = await rendered(...kuberay, '--set', 'configuration.enabled=true', '--set', 'configuration.defaultPodLabels.team=ml',
      '--set', 'configuration.workerSidecarContainers[0].name=logs', '--set', 'configuration.workerSidecarContainers[0].image=busybox',
      '--set', 'configuration.defaultContainerEnvs[0].name=RAY_DEDUP_LOGS', '--set-string', 'configuration.defaultContainerEnvs[0].value=0',
      '--set', 'watchNamespace={a,b}', '--set', 'reconcileConcurrency=3');
    const file = one(objects, 'ConfigMap').data['config.yaml'];
    const spec = podSpec(objects);
    expect(spec.volumes).toEqual([{ name: 'operator-config', configMap: { name: 'kuberay-operator-config' } }]);
    const path = args(objects).find((a) => a.startsWith('--config='))!.slice('--config='.length);
    expect(spec.containers[0].volumeMounts).toEqual([{ name: 'operator-config', mountPath: path.slice(0, path.lastIndexOf('/')), readOnly: true }]);
    const loaded = loadConfig(args(objects), {}, (p) => (p === path ? file : ''));
    if (loaded.ok !== true) throw new Error(JSON.stringify(loaded));
    expect(loaded.config).toMatchObject({ watchNamespaces: ['a', 'b'], reconcileConcurrency: 3, enableMetrics: true, notices: [] });
    expect(loaded.config.podDefaults).toMatchObject({ defaultPodLabels: { team: 'ml' }, workerSidecarContainers: [{ name: 'logs', image: 'busybox' }], defaultContainerEnvs: [{ name: 'RAY_DEDUP_LOGS', value: '0' }] });
    // A changed configuration restarts the Pod (its checksum annotation changes).
    const other = await rendered(...kuberay, '--set', 'configuration.enabled=true', '--set', 'reconcileConcurrency=4');
    expect(one(other, 'Deployment').spec.template.metadata.annotations['rayjob.io/config-checksum']).not.toBe(one(objects, 'Deployment').spec.template.metadata.annotations['rayjob.io/config-checksum']);
  });

  it.each([
    { set: ['imagePullSecrets[0].name=regcred'], check: (o: Json[]) => expect(podSpec(o).imagePullSecrets).toEqual([{ name: 'regcred' }]) },
    { set: ['service.type=NodePort', 'service.port=9090'], check: (o: Json[]) => expect(one(o, 'Service').spec).toMatchObject({ type: 'NodePort', ports: [{ port: 9090 }] }) },
    {
      set: ['labels.team=ml', 'annotations.owner=ops'],
      check: (o: Json[]) => {
        expect(one(o, 'Deployment').metadata.labels.team).toBe('ml');
        expect(one(o, 'Deployment').spec.template.metadata).toMatchObject({ labels: { team: 'ml' }, annotations: { owner: 'ops' } });
      },
    },
    {
      set: ['metrics.serviceMonitor.enabled=true', 'metrics.serviceMonitor.namespace=monitoring', 'metrics.serviceMonitor.additionalLabels.release=prom'],
      check: (o: Json[]) => expect(one(o, 'ServiceMonitor')).toMatchObject({
        metadata: { namespace: 'monitoring', labels: { release: 'prom' } },
        spec: { endpoints: [{ port: 'http-metrics', interval: '30s', honorLabels: true }], namespaceSelector: { matchNames: ['ray-system'] }, selector: { matchLabels: one(o, 'Service').spec.selector } },
      }),
    },
    {
      set: ['logging.baseDir=/var/log/op', 'logging.fileName=op.log', 'logging.sizeLimit=100Mi'],
      check: (o: Json[]) => {
        expect(args(o)).toContain('--log-file-path=/var/log/op/op.log');
        expect(podSpec(o).volumes).toEqual([{ name: 'operator-logs', emptyDir: { sizeLimit: '100Mi' } }]);
      },
    },
    { set: ['batchScheduler.name=volcano'], check: (o: Json[]) => expect(loadConfig(args(o), {}).ok === true && (loadConfig(args(o), {}) as { config: { batchScheduler: string } }).config.batchScheduler).toBe('volcano') },
    { set: ['terminationGracePeriodSeconds=60'], check: (o: Json[]) => expect(podSpec(o).terminationGracePeriodSeconds).toBe(60) },
    { set: ['podDisruptionBudget.enabled=true', 'replicas=2'], check: (o: Json[]) => expect(one(o, 'PodDisruptionBudget').spec).toEqual({ maxUnavailable: 1, selector: { matchLabels: one(o, 'Deployment').spec.selector.matchLabels } }) },
  ])('$set', async ({ set, check }) => {
    check(await rendered(...kuberay, ...set.flatMap((s) => ['--set', s])));
  });

  it('by default the operator runs with the memory settings the scale bench measured (values.yaml), and they can be unset', async () => {
    const env = (objects: Json[]): Array<{ name: string; value?: string }> => podSpec(objects).containers[0].env;
    const defaults = env(await rendered());
    expect(defaults.filter((e) => ['NODE_OPTIONS', 'RAYJOB_V8_FLAGS', 'MALLOC_ARENA_MAX'].includes(e.name))).toEqual([
      { name: 'NODE_OPTIONS', value: '--max-semi-space-size=2' },
      { name: 'RAYJOB_V8_FLAGS', value: '--optimize-for-size' },
      { name: 'MALLOC_ARENA_MAX', value: '1' },
    ]);
    const unset = env(await rendered('--set', 'nodeOptions=', '--set', 'v8Flags=', '--set', 'mallocArenaMax=null'));
    expect(unset.map((e) => e.name)).toEqual(['POD_NAMESPACE', 'POD_NAME']);
  });

  it('by default: the grace period outlasts the 30 s drain; no PDB or ServiceMonitor', async () => {
    const objects = await rendered();
    expect(podSpec(objects).terminationGracePeriodSeconds).toBeGreaterThan(30 + 5);
    expect(objects.filter((o) => ['PodDisruptionBudget', 'ServiceMonitor', 'ConfigMap'].includes(o.kind))).toEqual([]);
  });
});

describe('values.schema.json', { timeout: 60_000 }, () => {
  it.each([
    { set: ['imagePullSecret=regcred'], says: 'Additional property imagePullSecret is not allowed' },
    { set: ['metrics.serviceMonitor.enable=true'], says: 'Additional property enable is not allowed' },
    { set: ['kubeClient.qps=fast'], says: 'kubeClient.qps' },
    { set: ['featureGates[0].name=RayClusterMTSL', 'featureGates[0].enabled=true'], says: 'featureGates.0.name' },
    { set: ['logging.stdoutEncoder=text'], says: 'logging.stdoutEncoder' },
    { set: ['terminationGracePeriodSeconds=30'], says: 'terminationGracePeriodSeconds' },
    { set: ['managedBy=someone'], says: 'managedBy' },
    { set: ['service.type=Ingress'], says: 'service.type' },
  ])('rejects $set naming the key', async ({ set, says }) => {
    const r = await render(set.flatMap((s) => ['--set', s]));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('values don\'t meet the specifications of the schema');
    expect(r.stderr).toContain(says);
  });

  it('accepts the defaults and KubeRay\'s values', async () => {
    expect((await render([])).code).toBe(0);
    expect((await render(kuberay)).code).toBe(0);
  });

  it.each([
    { repository: 'quay.io/kuberay/operator', values: ['-f', kuberayValues] },
    { repository: 'kuberay/operator', values: ['--set', 'image.repository=kuberay/operator'] },
    { repository: 'registry.corp:5000/mirror/KubeRay/operator', values: ['--set', 'image.repository=registry.corp:5000/mirror/KubeRay/operator', '--set', 'image.tag=v1.4.2'] },
  ])('refuses KubeRay\'s operator image ($repository), naming image.repository and the fix', async ({ repository, values }) => {
    const r = await render(values);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`image.repository "${repository}" is KubeRay's operator image`);
    expect(r.stderr).toContain('Set image.repository=ghcr.io/rayjob/operator and image.tag=0.1.0');
  });

  it.each(['ghcr.io/rayjob/operator', 'registry.corp/mirror/rayjob/operator', 'registry.corp/kuberay/operator-rayjob'])('renders any other operator image as given (%s)', async (repository) => {
    const image = podSpec(await rendered('--set', `image.repository=${repository}`, '--set', 'image.tag=1.2')).containers[0].image;
    expect(image).toBe(`${repository}:1.2`);
  });
});

describe('least privilege beyond RBAC, and roles for people', { timeout: 60_000 }, () => {
  it('ships a ValidatingAdmissionPolicy confining the ServiceAccount\'s ConfigMap writes to *-submitter-state, bound with Deny', async () => {
    const objects = await rendered();
    const policy = one(objects, 'ValidatingAdmissionPolicy');
    expect(policy.spec.matchConstraints.resourceRules).toEqual([{ apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['configmaps'] }]);
    expect(policy.spec.matchConditions[0].expression).toContain('"system:serviceaccount:ray-system:rel-rayjob-operator"');
    expect(policy.spec.validations.map((v: Json) => v.expression).join('\n')).toContain("endsWith('-submitter-state')");
    expect(one(objects, 'ValidatingAdmissionPolicyBinding').spec).toEqual({ policyName: policy.metadata.name, validationActions: ['Deny'] });
    expect((await rendered('--set', 'submitterStatePolicy.enabled=false')).filter((o) => o.kind.startsWith('ValidatingAdmissionPolicy'))).toEqual([]);
    // A cluster without the API (< 1.30) gets no policy (an install would fail on the unknown kind); NOTES.txt warns.
    const old = await render([], []);
    expect(yamlDocuments(old.stdout).filter((o) => o.kind.startsWith('ValidatingAdmissionPolicy'))).toEqual([]);
  });

  it('editor and viewer ClusterRoles for RayJobs and RayClusters, bound to no one, like KubeRay\'s', async () => {
    const objects = await rendered('--set', 'userRoles.aggregateToDefaultRoles=true');
    const bindings = objects.filter((o) => o.kind.endsWith('Binding')).map((b) => b.roleRef?.name);
    const users = objects.filter((o) => o.kind === 'ClusterRole' && !bindings.includes(o.metadata.name));
    expect(users.map((r) => r.metadata.name).sort()).toEqual(['rel-rayjob-operator-raycluster-editor', 'rel-rayjob-operator-raycluster-viewer', 'rel-rayjob-operator-rayjob-editor', 'rel-rayjob-operator-rayjob-viewer']);
    const editor = users.find((r) => r.metadata.name.endsWith('rayjob-editor'));
    expect(editor.rules[0]).toEqual({ apiGroups: ['ray.io'], resources: ['rayjobs'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] });
    expect(editor.metadata.labels['rbac.authorization.k8s.io/aggregate-to-edit']).toBe('true');
    expect(users.find((r) => r.metadata.name.endsWith('raycluster-viewer')).rules[0].verbs).toEqual(['get', 'list', 'watch']);
    expect((await rendered('--set', 'singleNamespaceInstall=true')).filter((o) => o.kind === 'ClusterRole')).toEqual([]);
  });
});

describe('kustomize', { timeout: 60_000 }, () => {
  it.each(['team-b'])('an overlay moving the base to %s moves the bindings\' subjects and the Lease with it', async (namespace) => {
    const overlay = join(scratch, `overlay-${namespace}`);
    mkdirSync(overlay, { recursive: true });
    writeFileSync(join(overlay, 'kustomization.yaml'), `apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: ${namespace}\nresources:\n  - ${relative(overlay, base)}\n`);
    const r = await runTool(scratch, kubectl, ['kustomize', '--load-restrictor', 'LoadRestrictionsNone', overlay]);
    if (r.code !== 0) throw new Error(r.stderr);
    const objects = yamlDocuments(r.stdout);
    const namespaced = objects.filter((o) => !['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding'].includes(o.kind));
    expect(namespaced.map((o) => `${o.kind} ${o.metadata.namespace}`)).toEqual(namespaced.map((o) => `${o.kind} ${namespace}`));
    expect(one(objects, 'Namespace').metadata.name).toBe(namespace);
    for (const b of objects.filter((o) => o.kind.endsWith('RoleBinding'))) expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: 'rayjob-operator', namespace }]);
    // The Lease follows the Pod's namespace (POD_NAMESPACE): no namespace is pinned in the arguments.
    const loaded = loadConfig(one(objects, 'Deployment').spec.template.spec.containers[0].args, {});
    expect(loaded.ok === true && loaded.config.leaderElectionNamespace).toBe('');
    expect(one(objects, 'Deployment').spec.template.spec.containers[0].env[0]).toEqual({ name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } });
    // The same process settings as the chart's defaults.
    expect(one(objects, 'Deployment').spec.template.spec.containers[0].env).toEqual(podSpec(await rendered()).containers[0].env);
  });

  it('the shipped example overlay builds', async () => {
    const r = await runTool(scratch, kubectl, ['kustomize', repoPath('apps/operator/deploy/kustomize/overlays/namespace-example')]);
    expect(r.code, r.stderr).toBe(0);
    expect(one(yamlDocuments(r.stdout), 'ClusterRoleBinding').subjects[0].namespace).toBe('ml-platform');
  });
});
