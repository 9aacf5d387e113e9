// The scale subresource (autoscaling/v1 Scale) for Deployments, ReplicaSets, StatefulSets and custom
// resources whose CRD declares subresources.scale: `kubectl scale` reads and writes replicas through it.
import type { KubeObject } from '../../store/types.ts';
import type { ApiContext } from '../storage/context.ts';
import { evaluateJsonPath } from '../tables/jsonpath.ts';
import { present, replaceObject } from '../storage/objects.ts';
import { applyPatch } from './patch.ts';
import type { ResourceType } from '../registry/resource-types.ts';
import { badRequest, notFound } from '../errors/status.ts';

export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export const builtinScalePaths: ScalePaths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' };

function selectorString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  const matchLabels = (v as { matchLabels?: Record<string, string> } | undefined)?.matchLabels;
  if (!matchLabels) return undefined;
  return Object.entries(matchLabels)
    .map(([k, val]) => `${k}=${val}`)
    .join(',');
}

export function toScale(obj: KubeObject, paths: ScalePaths): KubeObject {
  const spec = evaluateJsonPath(obj, paths.specReplicasPath)[0];
  const status = evaluateJsonPath(obj, paths.statusReplicasPath)[0];
  const selector = paths.labelSelectorPath ? selectorString(evaluateJsonPath(obj, paths.labelSelectorPath)[0]) : undefined;
  const m = obj.metadata;
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name: m.name, namespace: m.namespace, uid: m.uid, resourceVersion: m.resourceVersion, creationTimestamp: m.creationTimestamp },
    spec: { replicas: typeof spec === 'number' ? spec : 0 },
    status: { replicas: typeof status === 'number' ? status : 0, ...(selector !== undefined && { selector }) },
  };
}

function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.replace(/^\./, '').split('.');
  let cur = obj;
  for (const p of parts.slice(0, -1)) {
    if (cur[p] === null || typeof cur[p] !== 'object') cur[p] = {};
    cur = cur[p] as Record<string, unknown>;
  }
  cur[parts[parts.length - 1] as string] = value;
}

export function readScale(ctx: ApiContext, rt: ResourceType, paths: ScalePaths, namespace: string, name: string): KubeObject {
  const stored = ctx.store.get(rt.bucket, namespace, name);
  if (!stored) throw notFound(rt.plural, rt.group, name);
  return toScale(present(rt, stored), paths);
}

/** PUT (body is a Scale) or PATCH (body is a patch of the Scale). */
export function writeScale(ctx: ApiContext, rt: ResourceType, paths: ScalePaths, namespace: string, name: string, body: unknown, patchType?: string): KubeObject {
  const current = readScale(ctx, rt, paths, namespace, name);
  const next = (patchType ? applyPatch({ ...rt, strategicMerge: true }, current, patchType, body) : body) as KubeObject | undefined;
  const replicas = (next?.spec as { replicas?: unknown } | undefined)?.replicas;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) throw badRequest('spec.replicas: Invalid value: must be a non-negative integer');
  const stored = ctx.store.get(rt.bucket, namespace, name);
  if (!stored) throw notFound(rt.plural, rt.group, name);
  const obj = structuredClone(present(rt, stored));
  setPath(obj, paths.specReplicasPath, replicas);
  const rv = next?.metadata?.resourceVersion;
  obj.metadata.resourceVersion = rv || obj.metadata.resourceVersion;
  const out = replaceObject(ctx, rt, namespace, name, obj, { internal: true });
  return toScale(out.object, paths);
}
