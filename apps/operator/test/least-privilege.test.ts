// The least-privilege verdict (issue #9) on small, hand-made needs and roles: it must fail on a missing rule, an
// unused rule, a rule granted more broadly than the calls needed it, and an allow-list entry no role grants; an
// allow-listed permission the calls used is only reported.
import type { AuditEvent } from '@rayjob/sandbox';
import { describe, expect, it } from 'vitest';
import { leastPrivilegeVerdict } from './support/least-privilege.ts';
import { grantsOf, neededPermissions, unionNeeds, type Need } from './support/rbac-derive.ts';

const need = (permission: string, namespaces: string[]): Need => ({ permission, namespaces, calls: 1, example: 'x' });
const clusterRole = (rules: object[]) => ({ kind: 'ClusterRole', metadata: { name: 'op' }, rules });
const role = (namespace: string, rules: object[]) => ({ kind: 'Role', metadata: { name: 'op-le', namespace }, rules });
/** Each role with a binding to the operator's ServiceAccount (only bound roles grant it anything). */
const bound = (roles: { kind: string; metadata: { name: string; namespace?: string } }[]) => [
  ...roles,
  ...roles.map((r) => ({ kind: `${r.kind}Binding`, metadata: r.metadata, roleRef: { kind: r.kind, name: r.metadata.name }, subjects: [{ kind: 'ServiceAccount', name: 'op', namespace: 'ops' }] })),
];
const jobsRule = { apiGroups: ['batch'], resources: ['jobs'], verbs: ['list', 'watch'] };
const leaseRule = { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get'] };
const watchJobs = [need('batch|jobs|list', ['']), need('batch|jobs|watch', [''])];
const getLease = need('coordination.k8s.io|leases|get', ['ops']);

describe('least-privilege verdict', () => {
  it.each([
    { name: 'passes when the roles grant exactly what was needed', needs: [...watchJobs, getLease], roles: [clusterRole([jobsRule]), role('ops', [leaseRule])], allow: [], failures: [] },
    { name: 'fails on a needed permission no rule grants', needs: [...watchJobs, getLease], roles: [clusterRole([jobsRule])], allow: [], failures: ['t: missing coordination.k8s.io|leases|get in namespace ops (x)'] },
    { name: 'fails on a granted permission nothing needed', needs: watchJobs, roles: [clusterRole([{ ...jobsRule, verbs: ['list', 'watch', 'delete'] }])], allow: [], failures: [expect.stringContaining('t: unused ClusterRole op: batch|jobs|delete')] },
    { name: 'a Role does not grant a call across all namespaces', needs: [need('coordination.k8s.io|leases|get', [''])], roles: [role('ops', [leaseRule])], allow: [], failures: [expect.stringContaining('missing coordination.k8s.io|leases|get in all namespaces'), expect.stringContaining('unused Role ops/op-le')] },
    { name: 'a Role does not grant a call in another namespace', needs: [need('coordination.k8s.io|leases|get', ['default'])], roles: [role('ops', [leaseRule])], allow: [], failures: [expect.stringContaining('missing coordination.k8s.io|leases|get in namespace default'), expect.stringContaining('unused Role ops/op-le')] },
    { name: 'a rule also in the ClusterRole, where the namespace\'s Role covers its calls, is too broad', needs: [...watchJobs, getLease], roles: [clusterRole([jobsRule, leaseRule]), role('ops', [leaseRule])], allow: [], failures: [expect.stringContaining('unused ClusterRole op: coordination.k8s.io|leases|get')] },
    { name: 'an unbound ClusterRole (the editor/viewer roles for people) grants the operator nothing', needs: watchJobs, roles: [clusterRole([jobsRule])], unbound: [{ kind: 'ClusterRole', metadata: { name: 'rayjob-editor' }, rules: [{ apiGroups: ['batch'], resources: ['jobs'], verbs: ['delete'] }] }], allow: [], failures: [] },
    { name: 'an allow-listed unused permission passes', needs: watchJobs, roles: [clusterRole([{ ...jobsRule, verbs: ['list', 'watch', 'delete'] }])], allow: [['batch|jobs|delete', 'a path']], failures: [] },
    { name: 'an allow-listed permission no role grants is stale', needs: watchJobs, roles: [clusterRole([jobsRule])], allow: [['batch|jobs|delete', 'a path']], failures: [expect.stringContaining('stale allow-list entry batch|jobs|delete: t does not grant it')] },
  ])('$name', ({ needs, roles, allow, failures, unbound }) => {
    const verdict = leastPrivilegeVerdict(needs, { t: grantsOf([...bound(roles), ...(unbound ?? [])], 'ops') }, new Map(allow as [string, string][]), new Map());
    expect(verdict.failures).toEqual(failures);
  });

  it('an allow-listed permission the calls used is reported, not failed (a race may reach a path once)', () => {
    const verdict = leastPrivilegeVerdict(watchJobs, { t: grantsOf(bound([clusterRole([jobsRule])]), 'ops') }, new Map([['batch|jobs|watch', 'a path']]), new Map());
    expect(verdict.failures).toEqual([]);
    expect(verdict.notices).toEqual([expect.stringContaining('allow-list entry batch|jobs|watch ("a path") was used in this run')]);
  });

  it('a permission reached only by a race passes used or unused, but not when no role grants it', () => {
    const grants = { t: grantsOf(bound([clusterRole([{ ...jobsRule, verbs: ['list', 'watch', 'get'] }])]), 'ops') };
    const raced = new Map([['batch|jobs|get', 'a race']]);
    expect(leastPrivilegeVerdict(watchJobs, grants, new Map(), raced).failures).toEqual([]);
    expect(leastPrivilegeVerdict([...watchJobs, need('batch|jobs|get', ['a'])], grants, new Map(), raced).failures).toEqual([]);
    expect(leastPrivilegeVerdict(watchJobs, { t: grantsOf(bound([clusterRole([jobsRule])]), 'ops') }, new Map(), raced).failures).toEqual([expect.stringContaining('stale race entry batch|jobs|get')]);
  });
});

describe('needed permissions from audit events', () => {
  const event = (verb: string, objectRef: AuditEvent['objectRef'], requestObject?: unknown): AuditEvent => ({
    kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Request', auditID: 'a', stage: 'ResponseComplete', requestURI: '/x', verb,
    ...(objectRef && { objectRef }), responseStatus: { code: 200 }, ...(requestObject !== undefined && { requestObject }), requestReceivedTimestamp: '', stageTimestamp: '',
  });
  const plurals = (group: string, kind: string) => (group === 'ray.io' && kind === 'RayJob' ? 'rayjobs' : undefined);

  it('names the subresource, the namespace (or all of them) and the owner\'s finalizers a blockOwnerDeletion reference needs', () => {
    const needs = neededPermissions([
      event('watch', { resource: 'rayjobs', apiGroup: 'ray.io' }),
      event('update', { resource: 'rayjobs', subresource: 'status', apiGroup: 'ray.io', namespace: 'a', name: 'j' }),
      event('create', { resource: 'rayclusters', apiGroup: 'ray.io', namespace: 'b' }, { metadata: { ownerReferences: [{ apiVersion: 'ray.io/v1', kind: 'RayJob', blockOwnerDeletion: true }] } }),
      event('get', undefined),
    ], plurals);
    expect(needs.map((n) => [n.permission, n.namespaces])).toEqual([
      ['ray.io|rayclusters|create', ['b']],
      ['ray.io|rayjobs/finalizers|update', ['b']],
      ['ray.io|rayjobs/status|update', ['a']],
      ['ray.io|rayjobs|watch', ['']],
    ]);
    const role = neededPermissions([event('create', { resource: 'roles', apiGroup: 'rbac.authorization.k8s.io', namespace: 'n' }, {
      rules: [{ apiGroups: ['ray.io'], resources: ['rayclusters'], verbs: ['get', 'patch'] }],
    })], plurals);
    expect(role.map((n) => [n.permission, n.namespaces])).toEqual([
      ['ray.io|rayclusters|get', ['n']],
      ['ray.io|rayclusters|patch', ['n']],
      ['rbac.authorization.k8s.io|roles|create', ['n']],
    ]);
    expect(unionNeeds([needs, [need('ray.io|rayjobs|watch', ['c'])]]).find((n) => n.permission === 'ray.io|rayjobs|watch')).toMatchObject({ namespaces: ['', 'c'], calls: 2 });
  });
});
