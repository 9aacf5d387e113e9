// What an object costs against a ResourceQuota, as kube-apiserver's quota evaluators measure it: every object
// counts toward `count/<resource>` (and the legacy names: pods, services, configmaps...); a pod that has not
// finished also costs its requests and limits (cpu, memory, ephemeral-storage, hugepages, extended resources as
// `requests.<name>`). Requests default to limits, as pod defaulting does.
import { addQuantities, formatQuantity, parseQuantity, type Quantity } from '@rayjob/core';
import type { KubeObject } from '../../../store/types.ts';
import type { ResourceType } from '../../registry/resource-types.ts';

export type ResourceList = Map<string, Quantity>;
type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

const one = (): Quantity => ({ nanos: 1_000_000_000n, format: 'DecimalSI' });

/** Go's Quantity.Add: a zero value takes the other's format, so a sum prints as its parts do ("1536Mi"). */
export function addQuantity(a: Quantity | undefined, b: Quantity): Quantity {
  if (a === undefined || a.nanos === 0n) return { nanos: (a?.nanos ?? 0n) + b.nanos, format: b.format };
  return addQuantities(a, b);
}

export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out = new Map(a);
  for (const [k, v] of b) out.set(k, addQuantity(out.get(k), v));
  return out;
}

/** `count/pods`, `count/deployments.apps`: the object-count quota name of a resource. */
export const countName = (rt: Pick<ResourceType, 'plural' | 'group'>): string => `count/${rt.group === '' ? rt.plural : `${rt.plural}.${rt.group}`}`;

/** Core kinds whose count is also quota'd under their plain plural (pods is a compute resource, handled apart). */
const legacyCounted = new Set(['services', 'configmaps', 'secrets', 'persistentvolumeclaims', 'replicationcontrollers', 'resourcequotas']);

const computeNames = ['pods', 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage'];
const isNativeResource = (name: string): boolean => !name.includes('/') || name.startsWith('kubernetes.io/');

/** The quota resource names an object of this resource can consume (the evaluator's MatchingResources). */
export function matchingResources(rt: ResourceType, hard: string[]): string[] {
  const isPod = rt.group === '' && rt.plural === 'pods';
  return hard.filter((name) => {
    if (name === countName(rt)) return true;
    if (rt.group === '' && legacyCounted.has(rt.plural) && name === rt.plural) return true;
    if (!isPod) return false;
    return computeNames.includes(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-') || (name.startsWith('requests.') && !isNativeResource(name));
  });
}

function resourceMap(list: unknown): Map<string, Quantity> {
  const out = new Map<string, Quantity>();
  for (const [k, v] of Object.entries(o(list))) {
    const q = parseQuantity(v as string | number);
    if (q) out.set(k, q);
  }
  return out;
}

/** A container's requests after defaulting (a limit with no request is the request) and its limits. */
export function containerResources(c: Obj): { requests: ResourceList; limits: ResourceList } {
  const res = o(c.resources);
  const limits = resourceMap(res.limits);
  const requests = new Map([...limits, ...resourceMap(res.requests)]);
  return { requests, limits };
}

/** podComputeUsageHelper: the quota names a set of requests and limits fills. */
export function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', one()]]);
  for (const name of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(name);
    if (request) {
      out.set(name, request);
      out.set(`requests.${name}`, request);
    }
    const limit = limits.get(name);
    if (limit) out.set(`limits.${name}`, limit);
  }
  for (const [name, request] of requests) {
    if (name.startsWith('hugepages-')) {
      out.set(name, request);
      out.set(`requests.${name}`, request);
    } else if (!isNativeResource(name)) out.set(`requests.${name}`, request);
  }
  return out;
}

/** Sum over app containers, but at least the largest init container (resourcehelper.PodRequests/PodLimits). */
function podTotals(spec: Obj, pick: 'requests' | 'limits'): ResourceList {
  let sum: ResourceList = new Map();
  for (const c of arr(spec.containers)) sum = addLists(sum, containerResources(c)[pick]);
  for (const c of arr(spec.initContainers)) {
    for (const [k, v] of containerResources(c)[pick]) {
      const current = sum.get(k);
      if (current === undefined || v.nanos > current.nanos) sum.set(k, v);
    }
  }
  for (const [k, v] of resourceMap(spec.overhead)) if (sum.has(k)) sum.set(k, addQuantity(sum.get(k), v));
  return sum;
}

/** QuotaV1Pod: a finished pod, or one whose deletion grace has run out, no longer costs compute. */
export function podCharged(pod: KubeObject, now: number): boolean {
  const phase = o(pod.status).phase;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const deletion = pod.metadata.deletionTimestamp;
  if (deletion) {
    const grace = (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
    if (now > Date.parse(deletion) + grace) return false;
  }
  return true;
}

export function objectUsage(rt: ResourceType, obj: KubeObject, now: number): ResourceList {
  const out: ResourceList = new Map([[countName(rt), one()]]);
  if (rt.group === '' && legacyCounted.has(rt.plural)) out.set(rt.plural, one());
  if (rt.group !== '' || rt.plural !== 'pods' || !podCharged(obj, now)) return out;
  const spec = o(obj.spec);
  return addLists(out, computeUsage(podTotals(spec, 'requests'), podTotals(spec, 'limits')));
}

export const isBestEffort = (pod: KubeObject): boolean =>
  [...arr(o(pod.spec).containers), ...arr(o(pod.spec).initContainers)].every((c) => {
    const { requests, limits } = containerResources(c);
    return [...requests.keys(), ...limits.keys()].every((k) => k !== 'cpu' && k !== 'memory');
  });

interface ScopeRequirement {
  scopeName?: string;
  operator?: string;
  values?: string[];
}

/** podMatchesScopeFunc: Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass. */
function podMatchesScope(pod: KubeObject, req: ScopeRequirement): boolean {
  const spec = o(pod.spec);
  const terminating = typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0;
  switch (req.scopeName) {
    case 'Terminating':
      return terminating;
    case 'NotTerminating':
      return !terminating;
    case 'BestEffort':
      return isBestEffort(pod);
    case 'NotBestEffort':
      return !isBestEffort(pod);
    case 'PriorityClass': {
      const pc = typeof spec.priorityClassName === 'string' ? spec.priorityClassName : '';
      const values = req.values ?? [];
      if (req.operator === 'Exists') return pc !== '';
      if (req.operator === 'DoesNotExist') return pc === '';
      if (req.operator === 'In') return pc !== '' && values.includes(pc);
      if (req.operator === 'NotIn') return pc === '' || !values.includes(pc);
      return false;
    }
    default:
      return false;
  }
}

export function scopeRequirements(quota: KubeObject): ScopeRequirement[] {
  const spec = o(quota.spec);
  const scopes = Array.isArray(spec.scopes) ? (spec.scopes as string[]).map((s) => ({ scopeName: s, operator: 'Exists' })) : [];
  return [...scopes, ...(arr(o(spec.scopeSelector).matchExpressions) as ScopeRequirement[])];
}

/** generic.Matches: the quota limits something this object consumes, and the object is in every scope. */
export function quotaMatches(quota: KubeObject, rt: ResourceType, obj: KubeObject): boolean {
  if (matchingResources(rt, Object.keys(o(o(quota.spec).hard))).length === 0) return false;
  const scopes = scopeRequirements(quota);
  if (scopes.length === 0) return true;
  const isPod = rt.group === '' && rt.plural === 'pods';
  return isPod && scopes.every((s) => podMatchesScope(obj, s));
}

export function hardOf(quota: KubeObject): ResourceList {
  return resourceMap(o(quota.spec).hard);
}

export function printList(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((k) => `${k}=${formatQuantity(list.get(k) as Quantity)}`)
    .join(',');
}

export function listJson(list: ResourceList): Record<string, string> {
  return Object.fromEntries([...list.keys()].sort().map((k) => [k, formatQuantity(list.get(k) as Quantity)]));
}
