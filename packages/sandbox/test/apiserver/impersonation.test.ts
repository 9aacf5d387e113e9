// Impersonation as kube-apiserver does it, driven by kubectl: `kubectl auth can-i ... --as=<user>` answers per
// that user's RBAC (the admin may impersonate anyone), a request made `--as` someone runs with their rights and
// gets their 403, and a user without the `impersonate` verb gets kube-apiserver's 403 for the impersonation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../harness.ts';

let h: Harness;
let token = '';
beforeAll(async () => {
  h = await startHarness({ https: true });
  for (const args of [
    ['create', 'serviceaccount', 'reader'],
    ['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods'],
    ['create', 'rolebinding', 'reader-reads', '--role=pod-reader', '--serviceaccount=default:reader'],
    ['create', 'rolebinding', 'alice-reads', '--role=pod-reader', '--user=alice'],
    ['create', 'rolebinding', 'devs-read', '--role=pod-reader', '--group=devs'],
  ]) expect((await h.kubectl(args)).stderr).toBe('');
  const created = await h.kubectl(['create', 'token', 'reader', '--duration=1h']);
  expect(created.stderr).toBe('');
  token = created.stdout.trim();
});
afterAll(async () => {
  await h.stop();
});

const tls = (args: string[]) => h.kubectl([...args, `--server=${h.server.https?.url}`, `--certificate-authority=${h.server.https?.caPath}`]);

describe('impersonation (kubectl --as)', () => {
  it.each([
    { as: ['--as=system:serviceaccount:default:reader'], verb: 'list', resource: 'pods', answer: 'yes' },
    { as: ['--as=system:serviceaccount:default:reader'], verb: 'delete', resource: 'pods', answer: 'no' },
    { as: ['--as=system:serviceaccount:default:default'], verb: 'create', resource: 'pods', answer: 'no' },
    { as: ['--as=alice'], verb: 'get', resource: 'pods', answer: 'yes' },
    { as: ['--as=bob'], verb: 'get', resource: 'pods', answer: 'no' },
    { as: ['--as=bob', '--as-group=devs'], verb: 'list', resource: 'pods', answer: 'yes' },
    { as: ['--as=bob', '--as-group=system:masters'], verb: 'delete', resource: 'nodes', answer: 'yes' },
  ])('kubectl auth can-i $verb $resource $as answers $answer', async ({ as, verb, resource, answer }) => {
    const out = await h.kubectl(['auth', 'can-i', verb, resource, ...as]);
    expect(out.stdout.trim()).toBe(answer);
  });

  it('a request made --as a ServiceAccount has its rights and gets its 403', async () => {
    expect((await h.kubectl(['get', 'pods', '--as=system:serviceaccount:default:reader'])).stderr).not.toContain('Forbidden');
    const out = await h.kubectl(['get', 'configmaps', '--as=system:serviceaccount:default:reader']);
    expect(out.stderr).toContain('Error from server (Forbidden): configmaps is forbidden: User "system:serviceaccount:default:reader" cannot list resource "configmaps" in API group "" in the namespace "default"');
    const whoami = await h.kubectl(['auth', 'whoami', '--as=system:serviceaccount:default:reader', '-o', 'jsonpath={.status.userInfo.groups}']);
    expect(JSON.parse(whoami.stdout)).toEqual(['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
  });

  it('a user without the impersonate verb gets kube-apiserver\'s 403 naming what it tried to impersonate', async () => {
    // --raw: kubectl's discovery, impersonating too, would fail first and hide the message.
    const user = await tls(['get', '--raw', '/api/v1/namespaces/default/pods', '--as=alice', `--token=${token}`]);
    expect(user.stderr).toContain('users "alice" is forbidden: User "system:serviceaccount:default:reader" cannot impersonate resource "users" in API group "" at the cluster scope');
    const sa = await tls(['get', '--raw', '/api/v1/namespaces/default/pods', '--as=system:serviceaccount:kube-system:default', `--token=${token}`]);
    expect(sa.stderr).toContain('serviceaccounts "default" is forbidden: User "system:serviceaccount:default:reader" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube-system"');
  });
});
