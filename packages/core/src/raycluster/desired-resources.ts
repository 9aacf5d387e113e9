import { isGpuResourceName } from '../builders/raycluster/ray-start.ts';
import { addQuantities, formatQuantity, isZeroQuantity, multiplyQuantity, parseQuantity, zeroQuantity, type Quantity } from '../quantity/quantity.ts';
import type { PodTemplateSpec, RayClusterSpec } from '../schema/index.ts';

/**
 * status.desiredCPU/Memory/GPU/TPU: the head template plus every non-suspended group's template times
 * numOfHosts times `replicas` (unclamped, as KubeRay computes it). Per container the request counts, else the
 * limit; containers the operator injects are not counted.
 */

type ResourceTotals = Map<string, Quantity>;

function add(totals: ResourceTotals, name: string, q: Quantity): void {
  const current = totals.get(name);
  totals.set(name, current ? addQuantities(current, q) : q);
}

function podResources(template: PodTemplateSpec): ResourceTotals {
  const totals: ResourceTotals = new Map();
  for (const container of template.spec?.containers ?? []) {
    const merged: Record<string, string | number> = { ...(container.resources?.requests ?? {}) };
    for (const [name, value] of Object.entries(container.resources?.limits ?? {})) if (!(name in merged)) merged[name] = value;
    for (const [name, value] of Object.entries(merged)) {
      const q = parseQuantity(value);
      if (q) add(totals, name, q);
    }
  }
  return totals;
}

export function desiredResources(spec: RayClusterSpec): { desiredCPU: string; desiredMemory: string; desiredGPU: string; desiredTPU: string } {
  const totals = podResources(spec.headGroupSpec.template);
  for (const group of spec.workerGroupSpecs ?? []) {
    if (group.suspend === true) continue;
    const pods = (group.numOfHosts ?? 1) * (group.replicas ?? 0);
    for (const [name, q] of podResources(group.template)) add(totals, name, multiplyQuantity(q, pods));
  }
  let gpus = zeroQuantity();
  let first = true;
  for (const [name, q] of totals) {
    if (!isGpuResourceName(name) || isZeroQuantity(q)) continue;
    gpus = first ? q : addQuantities(gpus, q);
    first = false;
  }
  const get = (name: string) => formatQuantity(totals.get(name) ?? zeroQuantity());
  return { desiredCPU: get('cpu'), desiredMemory: get('memory'), desiredGPU: formatQuantity(gpus), desiredTPU: get('google.com/tpu') };
}
