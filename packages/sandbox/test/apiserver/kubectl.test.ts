// kubectl (a real child process) against the sandbox: CRUD and printer columns for each kind, create
// generators, apply, patch types, scale, conflicts. (describe/logs/CRDs are in kubectl-crd.test.ts.)
import * as k8s from '@kubernetes/client-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { http, makePod as makeTestPod, useHarness, tableHeader } from '../harness.ts';

const h = useHarness();

const makePod = (name: string) => makeTestPod(h, name);
const header = tableHeader;

const kinds: Array<{ kind: string; resource: string; yaml: string; columns: string[] }> = [
  { kind: 'Namespace', resource: 'namespaces', yaml: 'apiVersion: v1\nkind: Namespace\nmetadata: {name: team-a}', columns: ['NAME', 'STATUS', 'AGE'] },
  { kind: 'ConfigMap', resource: 'configmaps', yaml: 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm1}\ndata: {a: "1", b: "2"}', columns: ['NAME', 'DATA', 'AGE'] },
  { kind: 'Secret', resource: 'secrets', yaml: 'apiVersion: v1\nkind: Secret\nmetadata: {name: s1}\nstringData: {token: abc}', columns: ['NAME', 'TYPE', 'DATA', 'AGE'] },
  { kind: 'ServiceAccount', resource: 'serviceaccounts', yaml: 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: sa1}', columns: ['NAME', 'SECRETS', 'AGE'] },
  { kind: 'Service', resource: 'services', yaml: 'apiVersion: v1\nkind: Service\nmetadata: {name: svc1}\nspec: {selector: {app: x}, ports: [{port: 80, targetPort: 8080}]}', columns: ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE'] },
  { kind: 'Endpoints', resource: 'endpoints', yaml: 'apiVersion: v1\nkind: Endpoints\nmetadata: {name: ep1}\nsubsets: [{addresses: [{ip: 127.0.0.9}], ports: [{port: 80}]}]', columns: ['NAME', 'ENDPOINTS', 'AGE'] },
  { kind: 'Pod', resource: 'pods', yaml: 'apiVersion: v1\nkind: Pod\nmetadata: {name: p1}\nspec: {containers: [{name: c, image: busybox}]}', columns: ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'] },
  { kind: 'Job', resource: 'jobs', yaml: 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: j1}\nspec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}', columns: ['NAME', 'STATUS', 'COMPLETIONS', 'DURATION', 'AGE'] },
  { kind: 'Deployment', resource: 'deployments', yaml: 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d1}\nspec: {selector: {matchLabels: {app: d}}, template: {metadata: {labels: {app: d}}, spec: {containers: [{name: c, image: busybox}]}}}', columns: ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE'] },
  { kind: 'Lease', resource: 'leases', yaml: 'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: l1}\nspec: {holderIdentity: me, renewTime: "2026-01-01T00:00:00.000000Z"}', columns: ['NAME', 'HOLDER', 'AGE'] },
  { kind: 'Role', resource: 'roles', yaml: 'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r1}\nrules: [{apiGroups: [""], resources: [pods], verbs: [get]}]', columns: ['NAME', 'CREATED AT'] },
  { kind: 'RoleBinding', resource: 'rolebindings', yaml: 'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: rb1}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r1}\nsubjects: [{kind: ServiceAccount, name: sa1}]', columns: ['NAME', 'ROLE', 'AGE'].slice(0, 1).concat(['CREATED AT']) },
  { kind: 'ClusterRole', resource: 'clusterroles', yaml: 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: cr1}\nrules: []', columns: ['NAME', 'CREATED AT'] },
  { kind: 'ClusterRoleBinding', resource: 'clusterrolebindings', yaml: 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: crb1}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cr1}', columns: ['NAME', 'CREATED AT'] },
  { kind: 'Node', resource: 'nodes', yaml: 'apiVersion: v1\nkind: Node\nmetadata: {name: node-1, labels: {node-role.kubernetes.io/worker: ""}}', columns: ['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION'] },
];

describe('kubectl CRUD on every served kind', () => {
  // One kubectl call per step for all kinds (kubectl start-up dominates the time otherwise).
  const sections = new Map<string, string>();
  beforeAll(async () => {
    const created = await h.kubectl(['create', '-f', '-'], kinds.map((k) => k.yaml).join('\n---\n'));
    expect(created.stderr).toBe('');
    const listed = await h.kubectl(['get', kinds.map((k) => k.resource).join(','), '-A']);
    for (const block of listed.stdout.split(/\n\s*\n/)) {
      const token = (block.split('\n')[1] ?? '').trim().split(/\s+/).find((t) => t.includes('/'));
      if (token) sections.set(token.slice(0, token.indexOf('/')), block);
    }
  });

  it.each(kinds)('$kind: created and listed with the real printer columns', ({ kind, yaml, columns }) => {
    const name = /name: ([\w-]+)/.exec(yaml)?.[1] ?? '';
    const group = /apiVersion: ([\w.]+)\//.exec(yaml)?.[1];
    const block = sections.get(`${kind.toLowerCase()}${group ? `.${group}` : ''}`) ?? [...sections.keys()].join(' ');
    const cols = header(block).filter((c) => c !== 'NAMESPACE');
    expect(cols).toEqual(columns);
    expect(block).toContain(`/${name}`);
  });

  it('deletes them all', async () => {
    const deleted = await h.kubectl(['delete', '-f', '-'], kinds.map((k) => k.yaml).join('\n---\n'));
    for (const { yaml } of kinds) expect(deleted.stdout).toContain(`"${/name: ([\w-]+)/.exec(yaml)?.[1] ?? ''}" deleted`);
    // Namespaces finish asynchronously (Terminating, then gone), so they are left out here.
    const others = kinds.filter((k) => k.kind !== 'Namespace');
    const left = await h.kubectl(['get', others.map((k) => k.resource).join(','), '-A', '-o', 'name']);
    for (const { yaml } of others) expect(left.stdout).not.toMatch(new RegExp(`/${/name: ([\w-]+)/.exec(yaml)?.[1] ?? ''}$`, 'm'));
  });
});

describe('kubectl get and create errors', () => {
  it('reads objects as JSON, reports AlreadyExists and NotFound with the real texts', async () => {
    const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: once}\ndata: {a: "1"}';
    await h.kubectl(['create', '-f', '-'], yaml);
    const got = await h.kubectl(['get', 'cm', 'once', '-o', 'json']);
    expect(JSON.parse(got.stdout).metadata).toMatchObject({ name: 'once', uid: expect.any(String), resourceVersion: expect.stringMatching(/^\d+$/) });
    expect((await h.kubectl(['create', '-f', '-'], yaml)).stderr).toContain('configmaps "once" already exists');
    expect((await h.kubectl(['get', 'cm', 'nope'])).stderr).toContain('configmaps "nope" not found');
  });
});

describe('kubectl apply, patch and replace', () => {
  const jobYaml = (cmd: string) => `apiVersion: batch/v1
kind: Job
metadata: {name: applied}
spec:
  template:
    spec:
      restartPolicy: Never
      containers: [{name: main, image: busybox, command: [sh, -c, "${cmd}"]}]
`;

  it('applies: created, unchanged, configured (generation bumps only on spec change)', async () => {
    expect((await h.kubectl(['apply', '-f', '-'], jobYaml('echo 1'))).stdout).toContain('job.batch/applied created');
    expect((await h.kubectl(['apply', '-f', '-'], jobYaml('echo 1'))).stdout).toContain('job.batch/applied unchanged');
    const changed = await h.kubectl(['apply', '-f', '-'], jobYaml('echo 2'));
    expect(changed.stdout).toContain('job.batch/applied configured');
    const job = JSON.parse((await h.kubectl(['get', 'job', 'applied', '-o', 'json'])).stdout);
    expect(job.metadata.generation).toBe(2);
    await h.kubectl(['label', 'job', 'applied', 'team=a']);
    const labelled = JSON.parse((await h.kubectl(['get', 'job', 'applied', '-o', 'json'])).stdout);
    expect(labelled.metadata.generation).toBe(2);
    expect(labelled.metadata.labels.team).toBe('a');
  });

  it.each([
    ['strategic', '{"spec":{"containers":[{"name":"b","image":"nginx:1"}]}}', (p: k8s.V1Pod) => p.spec?.containers.map((c) => c.name)],
    ['merge', '{"metadata":{"labels":{"x":"y"}}}', (p: k8s.V1Pod) => p.metadata?.labels?.x],
    ['json', '[{"op":"replace","path":"/spec/containers/0/image","value":"busybox:2"}]', (p: k8s.V1Pod) => p.spec?.containers[0]?.image],
  ] as const)('kubectl patch --type=%s', async (type, patch, read) => {
    const name = `patch-${type}`;
    await makePod(name);
    const out = await h.kubectl(['patch', 'pod', name, `--type=${type}`, '-p', patch]);
    expect(out.stderr).toBe('');
    const pod = JSON.parse((await h.kubectl(['get', 'pod', name, '-o', 'json'])).stdout) as k8s.V1Pod;
    const expected = { strategic: [name, 'b'], merge: 'y', json: 'busybox:2' }[type];
    expect(read(pod)).toEqual(expected);
  });

  it('kubectl scale writes replicas through the scale subresource', async () => {
    await h.kubectl(['apply', '-f', '-'], 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: scaled}\nspec: {selector: {matchLabels: {app: s}}, template: {metadata: {labels: {app: s}}, spec: {containers: [{name: c, image: x}]}}}');
    expect((await h.kubectl(['scale', 'deployment', 'scaled', '--replicas=3'])).stdout).toContain('deployment.apps/scaled scaled');
    const d = JSON.parse((await h.kubectl(['get', 'deployment', 'scaled', '-o', 'json'])).stdout);
    expect(d.spec.replicas).toBe(3);
    expect(d.metadata.generation).toBe(2);
    const scale = await http(h.server, 'GET', '/apis/apps/v1/namespaces/default/deployments/scaled/scale');
    expect(scale.body).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 }, status: { selector: 'app=s' } });
  });

  it('replace with a stale resourceVersion gets the real Conflict message', async () => {
    await h.kubectl(['create', '-f', '-'], 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: stale}\ndata: {a: "1"}');
    const cm = JSON.parse((await h.kubectl(['get', 'cm', 'stale', '-o', 'json'])).stdout);
    await h.kubectl(['label', 'cm', 'stale', 'bump=1']);
    cm.data.a = '2';
    const out = await h.kubectl(['replace', '-f', '-'], JSON.stringify(cm));
    expect(out.stderr).toContain(
      'Operation cannot be fulfilled on configmaps "stale": the object has been modified; please apply your changes to the latest version and try again',
    );
  });
});
