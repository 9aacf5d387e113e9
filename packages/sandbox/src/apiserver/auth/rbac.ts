// RBAC as kube-apiserver's authorizer evaluates it: the rules of every Role/ClusterRole bound to the user (by
// user name, group or ServiceAccount) through a RoleBinding in the request's namespace or a ClusterRoleBinding;
// an aggregated ClusterRole has the rules of the ClusterRoles its selectors match. system:masters may do anything.
import type { Store } from '../../store/store.ts';
import { parseLabelSelector } from '../../store/selectors.ts';
import type { KubeObject } from '../../store/types.ts';
import type { UserInfo } from './authenticate.ts';

export interface ResourceAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}
export interface NonResourceAttributes {
  verb: string;
  path: string;
}
export type Attributes = ResourceAttributes | NonResourceAttributes;

interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}
interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

const rbac = 'rbac.authorization.k8s.io';
const bucket = (plural: string): string => `${rbac}/${plural}`;
const has = (list: string[] | undefined, v: string): boolean => (list ?? []).includes('*') || (list ?? []).includes(v);

function subjectMatches(s: Subject, user: UserInfo, bindingNamespace: string): boolean {
  if (s.kind === 'User') return s.name === user.username;
  if (s.kind === 'Group') return user.groups.includes(s.name);
  if (s.kind === 'ServiceAccount') return user.username === `system:serviceaccount:${s.namespace ?? bindingNamespace}:${s.name}`;
  return false;
}

function ruleMatches(rule: PolicyRule, a: Attributes): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if ('path' in a) {
    return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1))));
  }
  if (!has(rule.apiGroups, a.group)) return false;
  const full = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const resources = rule.resources ?? [];
  const resourceOk = resources.includes('*') || resources.includes(full) || (a.subresource !== undefined && resources.includes(`*/${a.subresource}`));
  if (!resourceOk) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (a.name !== undefined && names.includes(a.name));
}

/** A ClusterRole's rules, with aggregation resolved (a role is visited once). */
export function clusterRoleRules(store: Store, name: string, seen = new Set<string>()): PolicyRule[] {
  if (seen.has(name)) return [];
  seen.add(name);
  const role = store.get(bucket('clusterroles'), '', name);
  if (!role) return [];
  const own = ((role as { rules?: PolicyRule[] }).rules ?? []) as PolicyRule[];
  const selectors = ((role as { aggregationRule?: { clusterRoleSelectors?: Array<{ matchLabels?: Record<string, string>; matchExpressions?: unknown[] }> } }).aggregationRule?.clusterRoleSelectors) ?? [];
  if (selectors.length === 0) return own;
  const aggregated: PolicyRule[] = [...own];
  for (const sel of selectors) {
    const text = Object.entries(sel.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
    const parsed = parseLabelSelector(text);
    if (!parsed.ok || text === '') continue;
    for (const other of store.list(bucket('clusterroles'))) {
      if (other.metadata.name !== name && parsed.match(other)) aggregated.push(...clusterRoleRules(store, other.metadata.name ?? '', seen));
    }
  }
  return aggregated;
}

function boundRules(store: Store, binding: KubeObject, namespace: string): PolicyRule[] {
  const ref = (binding as { roleRef?: { kind?: string; name?: string } }).roleRef ?? {};
  if (ref.kind === 'ClusterRole') return clusterRoleRules(store, ref.name ?? '');
  const role = store.get(bucket('roles'), namespace, ref.name ?? '');
  return ((role as { rules?: PolicyRule[] } | undefined)?.rules ?? []) as PolicyRule[];
}

/** The rules that apply to the user in a namespace (cluster-wide ones included). */
export function rulesFor(store: Store, user: UserInfo, namespace: string | undefined): PolicyRule[] {
  const rules: PolicyRule[] = [];
  for (const b of store.list(bucket('clusterrolebindings'))) {
    const subjects = ((b as { subjects?: Subject[] }).subjects ?? []) as Subject[];
    if (subjects.some((s) => subjectMatches(s, user, ''))) rules.push(...boundRules(store, b, ''));
  }
  if (namespace !== undefined && namespace !== '') {
    for (const b of store.list(bucket('rolebindings'), namespace)) {
      const subjects = ((b as { subjects?: Subject[] }).subjects ?? []) as Subject[];
      if (subjects.some((s) => subjectMatches(s, user, namespace))) rules.push(...boundRules(store, b, namespace));
    }
  }
  return rules;
}

export function authorize(store: Store, user: UserInfo, a: Attributes): boolean {
  if (user.groups.includes('system:masters')) return true;
  return rulesFor(store, user, 'path' in a ? undefined : a.namespace).some((r) => ruleMatches(r, a));
}

/** kube-apiserver's 403 text. */
export function forbiddenMessage(user: UserInfo, a: Attributes): string {
  if ('path' in a) return `forbidden: User "${user.username}" cannot ${a.verb} path "${a.path}"`;
  const qualified = a.group === '' ? a.resource : `${a.resource}.${a.group}`;
  const what = a.name !== undefined && a.name !== '' ? `${qualified} "${a.name}"` : qualified;
  const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const scope = a.namespace !== undefined && a.namespace !== '' ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `${what} is forbidden: User "${user.username}" cannot ${a.verb} resource "${resource}" in API group "${a.group}" ${scope}`;
}
