// Least privilege, checked from what the operator did: the RBAC permissions (API group, resource[/subresource],
// verb) its recorded API calls needed, plus what admission needs for them (OwnerReferencesPermissionEnforcement:
// setting blockOwnerDeletion on an owner reference needs `update` on the owner's <resource>/finalizers), compared
// with the rules a Role or ClusterRole grants.
import type { AuditEvent } from '@rayjob/sandbox';
import type { Json } from './api.ts';

/** `group|resource[/subresource]|verb`, e.g. `ray.io|rayjobs/status|update`. */
export type Permission = string;

const permission = (group: string, resource: string, verb: string): Permission => `${group}|${resource}|${verb}`;

/** Kind -> plural, per API group (from discovery). */
export type PluralOf = (group: string, kind: string) => string | undefined;

export function neededPermissions(events: AuditEvent[], pluralOf: PluralOf): Set<Permission> {
  const needed = new Set<Permission>();
  for (const e of events) {
    if (!e.objectRef) continue;
    const resource = e.objectRef.subresource ? `${e.objectRef.resource}/${e.objectRef.subresource}` : e.objectRef.resource;
    needed.add(permission(e.objectRef.apiGroup, resource, e.verb));
    if (e.verb !== 'create' && e.verb !== 'update' && e.verb !== 'patch') continue;
    const owners = ((e.requestObject as Json)?.metadata?.ownerReferences ?? []) as Json[];
    for (const owner of owners.filter((o) => o.blockOwnerDeletion === true)) {
      const group = String(owner.apiVersion).includes('/') ? String(owner.apiVersion).split('/')[0] ?? '' : '';
      const plural = pluralOf(group, owner.kind);
      if (plural === undefined) throw new Error(`no resource for owner kind ${owner.apiVersion}/${owner.kind}`);
      needed.add(permission(group, `${plural}/finalizers`, 'update'));
    }
  }
  return needed;
}

export function grantedPermissions(rules: Json[]): Set<Permission> {
  const granted = new Set<Permission>();
  for (const rule of rules) {
    for (const group of rule.apiGroups ?? []) for (const resource of rule.resources ?? []) for (const verb of rule.verbs ?? []) granted.add(permission(group, resource, verb));
  }
  return granted;
}

export const missing = (needed: Set<Permission>, granted: Set<Permission>): Permission[] => [...needed].filter((p) => !granted.has(p)).sort();
export const unused = (needed: Set<Permission>, granted: Set<Permission>): Permission[] => [...granted].filter((p) => !needed.has(p)).sort();
