// Least privilege, checked from what the operator did: the RBAC permissions (API group, resource[/subresource],
// verb) its recorded API calls needed, with where they were needed (one namespace, or across all of them), plus
// what admission needs for them (OwnerReferencesPermissionEnforcement: setting blockOwnerDeletion on an owner
// reference needs `update` on the owner's <resource>/finalizers) and RBAC's escalation check (creating a Role
// needs every permission it grants); then matched against the rules of the Roles and
// ClusterRoles we ship, each call charged to the narrowest rule that allows it, as RBAC would allow it.
import type { AuditEvent } from '@rayjob/sandbox';
import type { Json } from './api.ts';

/** `group|resource[/subresource]|verb`, e.g. `ray.io|rayjobs/status|update`. */
export type Permission = string;

export const permission = (group: string, resource: string, verb: string): Permission => `${group}|${resource}|${verb}`;

/** What the operator's calls needed of one permission. */
export interface Need {
  permission: Permission;
  /** Namespaces the calls were in; '' stands for a call across all namespaces (a cluster-wide list or watch). */
  namespaces: string[];
  calls: number;
  /** One call that needed it (`verb URI`), or the admission check that did. */
  example: string;
}

/** Kind -> plural, per API group (from discovery). */
export type PluralOf = (group: string, kind: string) => string | undefined;

export function neededPermissions(events: AuditEvent[], pluralOf: PluralOf): Need[] {
  const needs = new Map<Permission, { namespaces: Set<string>; calls: number; example: string }>();
  const add = (p: Permission, namespace: string, example: string) => {
    const need = needs.get(p) ?? { namespaces: new Set<string>(), calls: 0, example };
    need.namespaces.add(namespace);
    need.calls += 1;
    needs.set(p, need);
  };
  for (const e of events) {
    if (!e.objectRef) continue;
    const ref = e.objectRef;
    const resource = ref.subresource ? `${ref.resource}/${ref.subresource}` : ref.resource;
    const namespace = ref.namespace ?? '';
    add(permission(ref.apiGroup, resource, e.verb), namespace, `${e.verb} ${e.requestURI}`);
    if (e.verb !== 'create' && e.verb !== 'update' && e.verb !== 'patch') continue;
    // RBAC's escalation check: a Role may grant only what its creator holds (else it needs `escalate`).
    if (ref.apiGroup === 'rbac.authorization.k8s.io' && ref.resource === 'roles' && e.verb === 'create') {
      for (const rule of ((e.requestObject as Json)?.rules ?? []) as Json[]) {
        for (const group of rule.apiGroups ?? []) for (const resource of rule.resources ?? []) for (const verb of rule.verbs ?? []) {
          add(permission(group, resource, verb), namespace, `escalation check: granting ${resource} ${verb} in a Role (${e.verb} ${e.requestURI})`);
        }
      }
    }
    const owners = ((e.requestObject as Json)?.metadata?.ownerReferences ?? []) as Json[];
    for (const owner of owners.filter((o) => o.blockOwnerDeletion === true)) {
      const group = String(owner.apiVersion).includes('/') ? String(owner.apiVersion).split('/')[0] ?? '' : '';
      const plural = pluralOf(group, owner.kind);
      if (plural === undefined) throw new Error(`no resource for owner kind ${owner.apiVersion}/${owner.kind}`);
      add(permission(group, `${plural}/finalizers`, 'update'), namespace, `blockOwnerDeletion on a ${owner.kind} owner (${e.verb} ${e.requestURI})`);
    }
  }
  return [...needs].map(([p, n]) => ({ permission: p, namespaces: [...n.namespaces].sort(), calls: n.calls, example: n.example })).sort((a, b) => a.permission.localeCompare(b.permission));
}

/** Needs recorded by several runs, as one list. */
export function unionNeeds(lists: Need[][]): Need[] {
  const all = new Map<Permission, Need>();
  for (const need of lists.flat()) {
    const seen = all.get(need.permission);
    all.set(need.permission, seen
      ? { ...seen, namespaces: [...new Set([...seen.namespaces, ...need.namespaces])].sort(), calls: seen.calls + need.calls }
      : need);
  }
  return [...all.values()].sort((a, b) => a.permission.localeCompare(b.permission));
}

/** A Role or ClusterRole as shipped: `Role <namespace>/<name>` or `ClusterRole <name>`. */
export interface Grant {
  role: string;
  /** undefined for a ClusterRole (bound by a ClusterRoleBinding: every namespace, and across them). */
  namespace: string | undefined;
  permissions: Set<Permission>;
}

export function grantsOf(objects: Json[], namespaceOfUnset: string): Grant[] {
  // Only roles bound to a ServiceAccount grant the operator anything; the editor/viewer ClusterRoles for people
  // ship unbound.
  const nsOf = (o: Json) => (o.metadata?.namespace ?? namespaceOfUnset) as string;
  const bound = new Set(objects.filter((o) => (o?.kind === 'ClusterRoleBinding' || o?.kind === 'RoleBinding') && (o.subjects ?? []).some((s: Json) => s.kind === 'ServiceAccount'))
    .map((b) => (b.roleRef?.kind === 'Role' ? `Role/${nsOf(b)}/${b.roleRef.name}` : `ClusterRole/${b.roleRef?.name}`)));
  const isBound = (o: Json) => bound.has(o.kind === 'Role' ? `Role/${nsOf(o)}/${o.metadata.name}` : `ClusterRole/${o.metadata.name}`);
  return objects.filter((o) => (o?.kind === 'ClusterRole' || o?.kind === 'Role') && isBound(o)).map((o) => {
    const permissions = new Set<Permission>();
    for (const rule of o.rules ?? []) {
      for (const group of rule.apiGroups ?? []) for (const resource of rule.resources ?? []) for (const verb of rule.verbs ?? []) permissions.add(permission(group, resource, verb));
    }
    const namespace = o.kind === 'Role' ? (o.metadata.namespace ?? namespaceOfUnset) as string : undefined;
    return { role: o.kind === 'Role' ? `Role ${namespace}/${o.metadata.name}` : `ClusterRole ${o.metadata.name}`, namespace, permissions };
  });
}

export interface Comparison {
  /** Needed where no shipped rule allows it (the operator gets 403 there). */
  missing: string[];
  /** `<role>: <permission>` granted but charged with no call. */
  unused: string[];
}

/**
 * Charges each needed (permission, namespace) to the narrowest grant allowing it — a Role in that namespace before
 * a ClusterRole — so a permission granted twice shows up unused where it is too broad.
 */
export function compareWithGrants(needs: Need[], grants: Grant[]): Comparison {
  const used = new Set<string>();
  const missing: string[] = [];
  for (const need of needs) {
    for (const namespace of need.namespaces) {
      const allowing = grants.filter((g) => g.permissions.has(need.permission) && (g.namespace === undefined || (namespace !== '' && g.namespace === namespace)));
      const charged = allowing.find((g) => g.namespace !== undefined) ?? allowing[0];
      if (charged) used.add(`${charged.role}: ${need.permission}`);
      else missing.push(`${need.permission} in ${namespace === '' ? 'all namespaces' : `namespace ${namespace}`} (${need.example})`);
    }
  }
  const unused = grants.flatMap((g) => [...g.permissions].map((p) => `${g.role}: ${p}`)).filter((k) => !used.has(k));
  return { missing: missing.sort(), unused: unused.sort() };
}

/** The permission of an `unused` entry. */
export const permissionOf = (unusedEntry: string): Permission => unusedEntry.slice(unusedEntry.indexOf(': ') + 2);
