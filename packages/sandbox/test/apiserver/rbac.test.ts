// Authentication and RBAC as kube-apiserver enforces them, driven by kubectl: ServiceAccount tokens from the
// TokenRequest API (`kubectl create token`) authenticate as system:serviceaccount:<ns>:<name>, a missing
// permission is a 403 with the real text, Roles/ClusterRoles (with aggregation) and their bindings grant,
// `kubectl auth can-i` and `kubectl auth whoami` answer, and the admin kubeconfig can do anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { http, startHarness, type Harness } from '../harness.ts';

let h: Harness;
let token = '';
beforeAll(async () => {
  h = await startHarness({ https: true });
  expect((await h.kubectl(['create', 'serviceaccount', 'bot'])).stderr).toBe('');
  const created = await h.kubectl(['create', 'token', 'bot', '--duration=1h']);
  expect(created.stderr).toBe('');
  token = created.stdout.trim();
});
afterAll(async () => {
  await h.stop();
});

// Bearer tokens go over TLS only (kubectl and client-go do not send them to an http:// server).
const tls = (args: string[]) => h.kubectl([...args, `--server=${h.server.https?.url}`, `--certificate-authority=${h.server.https?.caPath}`]);
const asBot = (args: string[]) => tls([...args, `--token=${token}`]);

describe('ServiceAccount tokens and RBAC', () => {
  it('a ServiceAccount without a binding gets 403 with kube-apiserver\'s message', async () => {
    const out = await asBot(['get', 'pods']);
    expect(out.stderr).toContain('Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:default:bot" cannot list resource "pods" in API group "" in the namespace "default"');
    const one = await asBot(['get', 'configmap', 'x', '-n', 'kube-system']);
    expect(one.stderr).toContain('configmaps "x" is forbidden: User "system:serviceaccount:default:bot" cannot get resource "configmaps" in API group "" in the namespace "kube-system"');
    const cluster = await asBot(['get', 'nodes']);
    expect(cluster.stderr).toContain('cannot list resource "nodes" in API group "" at the cluster scope');
  });

  it('kubectl auth whoami names the ServiceAccount (and the admin)', async () => {
    expect((await asBot(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}'])).stdout).toBe('system:serviceaccount:default:bot');
    expect((await h.kubectl(['auth', 'whoami', '-o', 'jsonpath={.status.userInfo.groups}'])).stdout).toContain('system:masters');
  });

  it('a Role bound by a RoleBinding grants in its namespace only; kubectl auth can-i follows', async () => {
    expect((await asBot(['auth', 'can-i', 'list', 'pods'])).stdout.trim()).toBe('no');
    await h.kubectl(['create', 'role', 'pod-reader', '--verb=get,list,watch', '--resource=pods']);
    await h.kubectl(['create', 'rolebinding', 'bot-reads-pods', '--role=pod-reader', '--serviceaccount=default:bot']);
    expect((await asBot(['auth', 'can-i', 'list', 'pods'])).stdout.trim()).toBe('yes');
    expect((await asBot(['auth', 'can-i', 'delete', 'pods'])).stdout.trim()).toBe('no');
    expect((await asBot(['auth', 'can-i', 'list', 'pods', '-n', 'kube-system'])).stdout.trim()).toBe('no');
    const listed = await asBot(['get', 'pods']);
    expect(listed.stderr).toBe('No resources found in default namespace.\n');
    // SelfSubjectRulesReview: the Role's rule, next to what every authenticated user may do.
    const rules = (await asBot(['auth', 'can-i', '--list'])).stdout;
    expect(rules).toMatch(/^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
    expect(rules).toMatch(/^selfsubjectaccessreviews\.authorization\.k8s\.io\s+\[\]\s+\[\]\s+\[create\]$/m);
  });

  it('a ClusterRole aggregating others by label grants their rules through a ClusterRoleBinding', async () => {
    await h.kubectl(['create', 'clusterrole', 'bot-aggregate', '--aggregation-rule=team.example/bot=true']);
    await h.kubectl(['create', 'clusterrolebinding', 'bot-aggregate', '--clusterrole=bot-aggregate', '--serviceaccount=default:bot']);
    expect((await asBot(['auth', 'can-i', 'get', 'configmaps', '-n', 'kube-system'])).stdout.trim()).toBe('no');
    await h.kubectl(['create', 'clusterrole', 'bot-configmaps', '--verb=get', '--resource=configmaps']);
    await h.kubectl(['label', 'clusterrole', 'bot-configmaps', 'team.example/bot=true']);
    expect((await asBot(['auth', 'can-i', 'get', 'configmaps', '-n', 'kube-system'])).stdout.trim()).toBe('yes');
  });

  it('the built-in view role (aggregated from system:aggregate-to-view) lets a binding read workloads', async () => {
    await h.kubectl(['create', 'rolebinding', 'bot-view', '--clusterrole=view', '--serviceaccount=default:bot']);
    expect((await asBot(['auth', 'can-i', 'list', 'jobs.batch'])).stdout.trim()).toBe('yes');
    expect((await asBot(['auth', 'can-i', 'create', 'jobs.batch'])).stdout.trim()).toBe('no');
  });

  it('an unknown token, or one whose ServiceAccount is gone, is 401 Unauthorized', async () => {
    expect((await tls(['get', 'pods', '--token=not-a-token'])).stderr).toContain('error: You must be logged in to the server (Unauthorized)');
    await h.kubectl(['create', 'serviceaccount', 'short-lived']);
    const t = (await h.kubectl(['create', 'token', 'short-lived'])).stdout.trim();
    expect((await tls(['auth', 'whoami', `--token=${t}`])).stderr).toBe('');
    await h.kubectl(['delete', 'serviceaccount', 'short-lived']);
    expect((await tls(['auth', 'whoami', `--token=${t}`])).stderr).toContain('Unauthorized');
  });

  it('a pod-bound token (what the kubelet mounts) works while its pod exists', async () => {
    await http(h.server, 'POST', '/api/v1/namespaces/default/pods', { metadata: { name: 'holder' }, spec: { serviceAccountName: 'bot', containers: [{ name: 'c', image: 'busybox' }] } });
    const pod = (await http(h.server, 'GET', '/api/v1/namespaces/default/pods/holder')).body;
    const { token: bound } = h.server.mintServiceAccountToken({ namespace: 'default', name: 'bot', pod: { name: 'holder', uid: pod.metadata.uid }, expirationSeconds: 3607 });
    const who = await http(h.server, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, 'application/json', { Authorization: `Bearer ${bound}` });
    expect(who.body.status.userInfo).toMatchObject({ username: 'system:serviceaccount:default:bot', extra: { 'authentication.kubernetes.io/pod-name': ['holder'] } });
    await http(h.server, 'DELETE', '/api/v1/namespaces/default/pods/holder');
    const after = await http(h.server, 'GET', '/api/v1/namespaces/default/pods', undefined, 'application/json', { Authorization: `Bearer ${bound}` });
    expect(after.status).toBe(401);
  });

  it('a token for another audience is 401 at the API server; a TokenReview for that audience accepts it and names it', async () => {
    const forRay = (await h.kubectl(['create', 'token', 'bot', '--audience=ray'])).stdout.trim();
    expect((await tls(['auth', 'whoami', `--token=${forRay}`])).stderr).toContain('Unauthorized');
    const review = async (t: string, audiences?: string[]) => (await http(h.server, 'POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: t, ...(audiences && { audiences }) },
    })).body.status;
    expect(await review(forRay, ['ray', 'other'])).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:bot' }, audiences: ['ray'] });
    // Without audiences a review asks for the API server's own, which this token does not have.
    expect(await review(forRay)).toEqual({ authenticated: false });
    expect(await review(token)).toMatchObject({ authenticated: true, audiences: ['https://kubernetes.default.svc.cluster.local'] });
  });

  it('the kubernetes Service in default points at the API server', async () => {
    const svc = (await http(h.server, 'GET', '/api/v1/namespaces/default/services/kubernetes')).body;
    expect(svc.spec).toMatchObject({ clusterIP: '10.96.0.1', ports: [{ name: 'https', port: 443, targetPort: h.server.https?.port }] });
    const ep = (await http(h.server, 'GET', '/api/v1/namespaces/default/endpoints/kubernetes')).body;
    expect(ep.subsets[0]).toMatchObject({ addresses: [{ ip: h.server.host }], ports: [{ port: h.server.https?.port }] });
    // The admin kubeconfig for the TLS port verifies the server with the CA written next to it.
    const out = await h.kubectl(['get', 'svc', 'kubernetes', `--kubeconfig=${h.server.https?.kubeconfigPath}`, '-o', 'name']);
    expect(out.stdout).toBe('service/kubernetes\n');
  });
});
