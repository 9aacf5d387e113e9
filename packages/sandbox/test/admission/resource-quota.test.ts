// ResourceQuota admission for pods (and object counts) as kube-apiserver 1.32 answers: the 403 texts kubectl
// prints, status.hard/used kept current, and a Job whose pods the quota forbids gets FailedCreate events.
import { describe, expect, it } from 'vitest';
import { eventually, http, startTestJobController, useHarness, type Json } from '../harness.ts';

const h = useHarness({}, startTestJobController);

const namespace = async (name: string): Promise<void> => {
  expect((await h.kubectl(['create', 'namespace', name])).code).toBe(0);
};
const quota = (ns: string, name: string, hard: Record<string, string>, extra: Json = {}): Promise<{ code: number; stderr: string }> =>
  h.kubectl(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name, namespace: ns }, spec: { hard, ...extra } }));
const pod = (name: string, resources: Json = {}, extra: Json = {}): Json => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'main', image: 'busybox', resources }], ...extra },
});
const createPod = (ns: string, body: Json) => h.kubectl(['create', '-n', ns, '-f', '-'], JSON.stringify(body));

describe('ResourceQuota admission', () => {
  it('refuses the pod past the count with the real message, and frees the count when a pod is deleted', async () => {
    await namespace('q-count');
    expect((await quota('q-count', 'pod-count', { pods: '1', 'count/pods': '5' })).code).toBe(0);
    expect((await createPod('q-count', pod('a'))).code).toBe(0);
    const refused = await createPod('q-count', pod('b'));
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe('Error from server (Forbidden): error when creating "STDIN": pods "b" is forbidden: exceeded quota: pod-count, requested: pods=1, used: pods=1, limited: pods=1');
    const raw = await http(h.server, 'POST', '/api/v1/namespaces/q-count/pods', pod('c'));
    expect(raw.status).toBe(403);
    expect(raw.body).toMatchObject({ reason: 'Forbidden', code: 403, details: { name: 'c', kind: 'pods' } });
    expect((await h.kubectl(['delete', 'pod', '-n', 'q-count', 'a'])).code).toBe(0);
    expect((await createPod('q-count', pod('b'))).code).toBe(0);
  });

  it('sums requests and limits in Go quantity form and names only the exceeded resources', async () => {
    await namespace('q-compute');
    expect((await quota('q-compute', 'compute', { 'requests.cpu': '1', 'requests.memory': '2Gi', 'limits.memory': '4Gi' })).code).toBe(0);
    const r = (cpu: string, mem: string): Json => ({ requests: { cpu, memory: mem }, limits: { memory: mem } });
    expect((await createPod('q-compute', pod('a', r('500m', '1Gi')))).code).toBe(0);
    expect((await createPod('q-compute', pod('b', r('250m', '512Mi')))).code).toBe(0);
    const refused = await createPod('q-compute', pod('c', r('500m', '256Mi')));
    expect(refused.stderr).toContain('pods "c" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=750m, limited: requests.cpu=1\n');
    const both = await createPod('q-compute', pod('d', r('300m', '1Gi')));
    expect(both.stderr).toContain('exceeded quota: compute, requested: requests.cpu=300m,requests.memory=1Gi, used: requests.cpu=750m,requests.memory=1536Mi, limited: requests.cpu=1,requests.memory=2Gi');
    // A limit alone is the request (pod defaulting).
    expect((await createPod('q-compute', pod('e', { limits: { cpu: '250m', memory: '512Mi' } }))).code).toBe(0);
  });

  it('requires every container to state the cpu/memory a quota tracks', async () => {
    await namespace('q-must');
    expect((await quota('q-must', 'compute', { 'limits.cpu': '2', 'requests.memory': '1Gi' })).code).toBe(0);
    const body = pod('x', { requests: { memory: '64Mi' } });
    body.spec.containers.push({ name: 'side', image: 'busybox' });
    body.spec.initContainers = [{ name: 'init', image: 'busybox', resources: { limits: { cpu: '100m' } } }];
    const refused = await createPod('q-must', body);
    expect(refused.stderr.trim()).toBe('Error from server (Forbidden): error when creating "STDIN": pods "x" is forbidden: failed quota: compute: must specify limits.cpu for: main,side; requests.memory for: init,side');
  });

  it('keeps status.hard and status.used current, and finished pods stop counting as pods', async () => {
    await namespace('q-status');
    expect((await quota('q-status', 'q', { pods: '10', 'count/pods': '10', 'requests.cpu': '4', 'count/configmaps': '1' })).code).toBe(0);
    expect((await createPod('q-status', pod('a', { requests: { cpu: '1500m' } }))).code).toBe(0);
    expect((await createPod('q-status', pod('b', { requests: { cpu: '1' } }))).code).toBe(0);
    const status = async (): Promise<Json> => (await http(h.server, 'GET', '/api/v1/namespaces/q-status/resourcequotas/q')).body.status;
    await eventually(async () => (await status())?.used?.pods === '2', 5000, 'used pods 2');
    expect(await status()).toEqual({
      hard: { 'count/configmaps': '1', 'count/pods': '10', pods: '10', 'requests.cpu': '4' },
      used: { 'count/configmaps': '0', 'count/pods': '2', pods: '2', 'requests.cpu': '2500m' },
    });
    const current = (await http(h.server, 'GET', '/api/v1/namespaces/q-status/pods/b')).body;
    expect((await http(h.server, 'PUT', '/api/v1/namespaces/q-status/pods/b/status', { ...current, status: { phase: 'Succeeded' } })).status).toBe(200);
    await eventually(async () => (await status())?.used?.pods === '1', 5000, 'used pods 1');
    expect((await status()).used).toMatchObject({ 'count/pods': '2', 'requests.cpu': '1500m' });
    expect((await h.kubectl(['create', 'configmap', '-n', 'q-status', 'one'])).code).toBe(0);
    const second = await h.kubectl(['create', 'configmap', '-n', 'q-status', 'two']);
    expect(second.stderr.trim()).toBe('error: failed to create configmap: configmaps "two" is forbidden: exceeded quota: q, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1');
    const described = await h.kubectl(['describe', 'quota', '-n', 'q-status', 'q']);
    expect(described.stdout).toMatch(/requests\.cpu\s+1500m\s+4/);
  });

  it('applies scopes: a BestEffort quota ignores pods with requests', async () => {
    await namespace('q-scope');
    expect((await quota('q-scope', 'besteffort', { pods: '0' }, { scopes: ['BestEffort'] })).code).toBe(0);
    expect((await createPod('q-scope', pod('burstable', { requests: { cpu: '100m' } }))).code).toBe(0);
    expect((await createPod('q-scope', pod('besteffort'))).stderr).toContain('pods "besteffort" is forbidden: exceeded quota: besteffort, requested: pods=1, used: pods=0, limited: pods=0');
  });

  it('a Job whose pods the quota forbids gets FailedCreate events with the refusal, and runs once quota frees', async () => {
    await namespace('q-job');
    expect((await quota('q-job', 'none', { pods: '0' })).code).toBe(0);
    const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } } };
    expect((await h.kubectl(['create', '-n', 'q-job', '-f', '-'], JSON.stringify(job))).code).toBe(0);
    const event = await eventually(async () => {
      const list = (await http(h.server, 'GET', '/api/v1/namespaces/q-job/events')).body.items as Json[];
      return list.find((e) => e.reason === 'FailedCreate');
    }, 5000, 'FailedCreate event');
    expect(event).toMatchObject({ type: 'Warning', involvedObject: { kind: 'Job', name: 'j' } });
    expect(event.message).toMatch(/^Error creating: pods "j-[a-z0-9]{5}" is forbidden: exceeded quota: none, requested: pods=1, used: pods=0, limited: pods=0$/);
    expect((await h.kubectl(['patch', 'quota', '-n', 'q-job', 'none', '--type=merge', '-p', '{"spec":{"hard":{"pods":"1"}}}'])).code).toBe(0);
    await eventually(async () => ((await http(h.server, 'GET', '/api/v1/namespaces/q-job/pods')).body.items as Json[]).length === 1, 5000, 'the Job pod once quota allows');
  });
});
