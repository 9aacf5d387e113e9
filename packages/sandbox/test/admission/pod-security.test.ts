// Pod Security admission by namespace label, as kube-apiserver 1.32 answers: enforce refuses violating pods with
// the real 403 text, warn answers with a warning (also for workload templates), versions pin the checks, and a
// Job in a restricted namespace gets FailedCreate events for its refused pods.
import { describe, expect, it } from 'vitest';
import { eventually, http, startTestJobController, useHarness, type Json } from '../harness.ts';

const h = useHarness({}, startTestJobController);

const namespace = async (name: string, labels: Record<string, string>): Promise<void> => {
  const r = await h.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } }));
  expect(r.code).toBe(0);
};
const pod = (name: string, spec: Json = {}, container: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'main', image: 'busybox', ...container }], ...spec },
});
const create = (ns: string, body: Json) => h.kubectl(['create', '-n', ns, '-f', '-'], JSON.stringify(body));
const restrictedContainer = { securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } } };
const restrictedPod = { securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } };

describe('PodSecurity admission', () => {
  it('enforce=restricted refuses a default pod with every violation in check order, and admits a compliant one', async () => {
    await namespace('psa-restricted', { 'pod-security.kubernetes.io/enforce': 'restricted' });
    const refused = await create('psa-restricted', pod('plain'));
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      'Error from server (Forbidden): error when creating "STDIN": pods "plain" is forbidden: violates PodSecurity "restricted:latest": ' +
        'allowPrivilegeEscalation != false (container "main" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "main" must set securityContext.capabilities.drop=["ALL"]), ' +
        'runAsNonRoot != true (pod or container "main" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "main" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    );
    const raw = await http(h.server, 'POST', '/api/v1/namespaces/psa-restricted/pods', pod('raw'));
    expect(raw.status).toBe(403);
    expect(raw.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', details: { name: 'raw', kind: 'pods' } });
    expect((await create('psa-restricted', pod('ok', restrictedPod, restrictedContainer))).code).toBe(0);
  });

  it('names several containers, volumes, capabilities and explicit bad values as the real plugin does', async () => {
    await namespace('psa-detail', { 'pod-security.kubernetes.io/enforce': 'restricted' });
    // kube-apiserver 1.32 answered exactly this (baseline's hostPort first, then restricted's checks).
    const body = pod('many', { ...restrictedPod, volumes: [{ name: 'host', hostPath: { path: '/tmp' } }, { name: 'cfg', configMap: { name: 'x' } }] }, {
      securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'], add: ['SYS_ADMIN', 'NET_BIND_SERVICE'] }, runAsUser: 0 },
    });
    body.spec.initContainers = [{ name: 'init', image: 'busybox', securityContext: { capabilities: { drop: ['ALL'] }, runAsNonRoot: false, seccompProfile: { type: 'Unconfined' } } }];
    body.spec.containers.push({ name: 'second', image: 'busybox', ports: [{ containerPort: 80, hostPort: 8080 }] });
    const refused = await create('psa-detail', body);
    expect(refused.stderr.trim()).toBe(
      'Error from server (Forbidden): error when creating "STDIN": pods "many" is forbidden: violates PodSecurity "restricted:latest": ' +
        'hostPort (container "second" uses hostPort 8080), ' +
        'allowPrivilegeEscalation != false (containers "init", "second" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "second" must set securityContext.capabilities.drop=["ALL"]; container "main" must not include "SYS_ADMIN" in securityContext.capabilities.add), ' +
        'restricted volume types (volume "host" uses restricted volume type "hostPath"), ' +
        'runAsNonRoot != true (container "init" must not set securityContext.runAsNonRoot=false), ' +
        'runAsUser=0 (container "main" must not set runAsUser=0), ' +
        'seccompProfile (container "init" must not set securityContext.seccompProfile.type to "Unconfined")',
    );
  });

  it('refuses a namespace whose Pod Security label names no level, as kube-apiserver does', async () => {
    const r = await h.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'psa-bad', labels: { 'pod-security.kubernetes.io/enforce': 'strict' } } }));
    expect(r.stderr.trim()).toBe('The Namespace "psa-bad" is invalid: metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted');
  });

  it('enforce=baseline refuses host namespaces and privileged containers but not what only restricted forbids', async () => {
    await namespace('psa-baseline', { 'pod-security.kubernetes.io/enforce': 'baseline' });
    expect((await create('psa-baseline', pod('plain'))).code).toBe(0);
    const refused = await create('psa-baseline', pod('host', { hostNetwork: true, hostPID: true }, { securityContext: { privileged: true }, ports: [{ containerPort: 8080, hostPort: 8080 }] }));
    expect(refused.stderr).toContain(
      'pods "host" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostNetwork=true, hostPID=true), hostPort (container "main" uses hostPort 8080), privileged (container "main" must not set securityContext.privileged=true)',
    );
  });

  it('enforce-version pins the policy: restricted:v1.21 has no capabilities check', async () => {
    await namespace('psa-version', { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.21' });
    const refused = await create('psa-version', pod('p', restrictedPod, { securityContext: { allowPrivilegeEscalation: false } }));
    expect(refused.code).toBe(0);
    const second = await create('psa-version', pod('q', restrictedPod));
    expect(second.stderr).toContain('pods "q" is forbidden: violates PodSecurity "restricted:v1.21": allowPrivilegeEscalation != false (container "main" must set securityContext.allowPrivilegeEscalation=false)\n');
  });

  it('warn answers with a warning for pods and workload templates, and privileged (or no label) checks nothing', async () => {
    await namespace('psa-warn', { 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/enforce': 'privileged' });
    const created = await create('psa-warn', pod('w', {}, restrictedContainer));
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('Warning: would violate PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "main" must set securityContext.runAsNonRoot=true), seccompProfile');
    const deployment = await h.kubectl(['create', 'deployment', '-n', 'psa-warn', 'web', '--image=busybox']);
    expect(deployment.code).toBe(0);
    expect(deployment.stderr).toContain('Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "busybox" must set');
    await namespace('psa-none', {});
    const quiet = await create('psa-none', pod('n', { hostNetwork: true }));
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it('a Job in an enforce=restricted namespace: the Job is admitted, its pods are refused and surface as FailedCreate events', async () => {
    await namespace('psa-job', { 'pod-security.kubernetes.io/enforce': 'restricted' });
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } };
    expect((await h.kubectl(['create', '-n', 'psa-job', '-f', '-'], JSON.stringify(job))).code).toBe(0);
    const event = await eventually(async () => ((await http(h.server, 'GET', '/api/v1/namespaces/psa-job/events')).body.items as Json[]).find((e) => e.reason === 'FailedCreate'), 5000, 'FailedCreate');
    expect(event.message).toMatch(/^Error creating: pods "j-[a-z0-9]{5}" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false \(container "main" must set/);
    expect(((await http(h.server, 'GET', '/api/v1/namespaces/psa-job/pods')).body.items as Json[]).length).toBe(0);
  });
});
