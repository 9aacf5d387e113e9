// The ResourceQuota admission plugin: a create that would take a namespace's usage past a quota's hard limit is
// refused with kube-apiserver's 403 ("exceeded quota: <name>, requested: ..., used: ..., limited: ..."), and a pod
// missing a cpu/memory request or limit that a quota tracks with "failed quota: <name>: must specify ...".
// Usage is measured from the store at admission time (what the quota controller's status.used converges to);
// quota-status.ts writes it into status for `kubectl describe quota`.
import type { Quantity } from '@rayjob/core';
import type { KubeObject } from '../../../store/types.ts';
import type { ApiContext } from '../../storage/context.ts';
import type { ResourceType } from '../../registry/resource-types.ts';
import { admissionForbidden, type AdmissionRequest } from '../request.ts';
import { addLists, addQuantity, computeUsage, containerResources, hardOf, matchingResources, objectUsage, printList, quotaMatches, type ResourceList } from './quota-usage.ts';

type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

const quotaBucket = '/resourcequotas';
/** Quotas on cpu or memory require every container to state them (the pod evaluator's validationSet). */
const mustSpecify = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

const mask = (list: ResourceList, names: Iterable<string>): ResourceList => {
  const out: ResourceList = new Map();
  for (const n of names) {
    const v = list.get(n);
    if (v !== undefined) out.set(n, v);
  }
  return out;
};

/** The resource types whose objects count against a quota with these hard names (one per storage bucket). */
function countedTypes(ctx: ApiContext, hard: string[]): ResourceType[] {
  const seen = new Set<string>();
  return ctx.registry.all().filter((rt) => {
    if (!rt.namespaced || rt.fromStorage || seen.has(rt.bucket) || matchingResources(rt, hard).length === 0) return false;
    seen.add(rt.bucket);
    return true;
  });
}

/** What a quota's namespace uses now, for each of its hard names (zero when nothing counts). */
export function quotaUsed(ctx: ApiContext, quota: KubeObject): ResourceList {
  const hard = [...hardOf(quota).keys()];
  const now = ctx.now();
  let used: ResourceList = new Map(hard.map((n) => [n, { nanos: 0n, format: 'DecimalSI' } as Quantity]));
  for (const rt of countedTypes(ctx, hard)) {
    for (const obj of ctx.store.list(rt.bucket, quota.metadata.namespace ?? '')) {
      if (quotaMatches(quota, rt, obj)) used = addLists(used, mask(objectUsage(rt, obj, now), hard));
    }
  }
  return used;
}

/** podEvaluator.Constraints: "must specify limits.cpu for: a,b; requests.memory for: a". */
function missingCompute(pod: KubeObject, required: string[]): string | undefined {
  const needed = required.filter((r) => mustSpecify.has(r));
  if (needed.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const c of [...arr(o(pod.spec).containers), ...arr(o(pod.spec).initContainers)]) {
    const { requests, limits } = containerResources(c);
    const has = computeUsage(requests, limits);
    for (const r of needed) if (!has.has(r)) missing.set(r, (missing.get(r) ?? new Set()).add(String(c.name ?? '')));
  }
  if (missing.size === 0) return undefined;
  return `must specify ${[...missing.keys()].sort().map((r) => `${r} for: ${[...(missing.get(r) ?? [])].sort().join(',')}`).join('; ')}`;
}

export function admitResourceQuota(ctx: ApiContext, request: AdmissionRequest): void {
  // Pods are charged at create; a resize is not modelled. Other kinds count as objects, also at create.
  if (request.operation !== 'CREATE' || request.subresource !== undefined || !request.object || !request.rt.namespaced) return;
  const { rt, object } = request;
  const quotas = ctx.store
    .list(quotaBucket, request.namespace)
    .filter((q) => quotaMatches(q, rt, object))
    .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
  if (quotas.length === 0) return;
  const isPod = rt.group === '' && rt.plural === 'pods';
  for (const quota of quotas) {
    const limited = matchingResources(rt, [...hardOf(quota).keys()]);
    const missing = isPod ? missingCompute(object, limited) : undefined;
    if (missing) throw admissionForbidden(request, `failed quota: ${quota.metadata.name ?? ''}: ${missing}`);
  }
  const usage = objectUsage(rt, object, ctx.now());
  for (const quota of quotas) {
    const hard = hardOf(quota);
    const requested = new Map([...mask(usage, hard.keys())].filter(([, v]) => v.nanos !== 0n));
    if (requested.size === 0) continue;
    const used = quotaUsed(ctx, quota);
    const exceeded = [...requested.keys()].filter((k) => addQuantity(used.get(k), requested.get(k) as Quantity).nanos > (hard.get(k) as Quantity).nanos);
    if (exceeded.length === 0) continue;
    throw admissionForbidden(
      request,
      `exceeded quota: ${quota.metadata.name ?? ''}, requested: ${printList(mask(requested, exceeded))}, used: ${printList(mask(used, exceeded))}, limited: ${printList(mask(hard, exceeded))}`,
    );
  }
}
