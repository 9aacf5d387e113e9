// Which requests a ValidatingAdmissionPolicy (matchConstraints) and its binding (matchResources) apply to, as
// kube-apiserver's admission matcher decides: resourceRules (operations, apiGroups, apiVersions, resources with
// `pods/status`, `pods/*`, `*/*`; scope; resourceNames), excludeResourceRules, namespaceSelector (the namespace's
// labels; a Namespace is matched on its own) and objectSelector (the new or the old object's labels).
import { selectorMatches, type LabelSelector } from '../../../apps-controllers/types.ts';
import type { ApiContext } from '../../storage/context.ts';
import type { AdmissionRequest } from '../request.ts';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);
const anyOf = (list: string[], value: string): boolean => list.includes('*') || list.includes(value);

function resourceMatches(patterns: string[], plural: string, subresource: string | undefined): boolean {
  return patterns.some((p) => {
    if (p === '*/*') return true;
    const [res, sub] = p.split('/', 2) as [string, string | undefined];
    if (res !== '*' && res !== plural) return false;
    if (sub === undefined) return subresource === undefined;
    return subresource !== undefined && (sub === '*' || sub === subresource);
  });
}

function ruleMatches(rule: Obj, request: AdmissionRequest): boolean {
  const { rt } = request;
  if (!anyOf(strings(rule.operations), request.operation)) return false;
  if (!anyOf(strings(rule.apiGroups), rt.group)) return false;
  if (!anyOf(strings(rule.apiVersions), rt.version)) return false;
  if (!resourceMatches(strings(rule.resources), rt.plural, request.subresource)) return false;
  const scope = typeof rule.scope === 'string' ? rule.scope : '*';
  const isNamespace = rt.group === '' && rt.plural === 'namespaces';
  if (scope === 'Cluster' && rt.namespaced) return false;
  if (scope === 'Namespaced' && (!rt.namespaced || isNamespace)) return false;
  const names = strings(rule.resourceNames);
  return names.length === 0 || names.includes(request.name);
}

const labelsOf = (obj: unknown): Record<string, string> => o(o(o(obj).metadata).labels) as Record<string, string>;

function namespaceLabels(ctx: ApiContext, request: AdmissionRequest): Record<string, string> | undefined {
  if (request.rt.group === '' && request.rt.plural === 'namespaces') return labelsOf(request.object ?? request.oldObject);
  if (request.namespace === '') return undefined;
  return labelsOf(ctx.store.get('/namespaces', '', request.namespace));
}

/**
 * Whether a MatchResources applies. `rulesRequired`: a policy's matchConstraints must name resources; a binding's
 * matchResources without resourceRules narrows nothing by resource.
 */
export function matchResources(ctx: ApiContext, request: AdmissionRequest, spec: unknown, rulesRequired: boolean): boolean {
  const mr = o(spec);
  const rules = Array.isArray(mr.resourceRules) ? (mr.resourceRules as Obj[]) : [];
  if (rules.length === 0 ? rulesRequired : !rules.some((r) => ruleMatches(r, request))) return false;
  if (Array.isArray(mr.excludeResourceRules) && (mr.excludeResourceRules as Obj[]).some((r) => ruleMatches(r, request))) return false;
  if (mr.namespaceSelector !== undefined) {
    const labels = namespaceLabels(ctx, request);
    if (labels !== undefined && !selectorMatches(mr.namespaceSelector as LabelSelector, labels)) return false;
  }
  if (mr.objectSelector !== undefined) {
    const selector = mr.objectSelector as LabelSelector;
    const candidates = [request.object, request.oldObject].filter((x) => x !== undefined);
    if (!candidates.some((obj) => selectorMatches(selector, labelsOf(obj)))) return false;
  }
  return true;
}
