import type { RayJobResourceStatus } from '../schema/index.ts';

/**
 * Deep equality of two statuses, ignoring undefined fields and the RayCluster status' lastUpdateTime (which the
 * RayCluster controller bumps on every write and would otherwise force a RayJob status write each time).
 */
export function statusEqual(a: RayJobResourceStatus, b: RayJobResourceStatus): boolean {
  return canonical(a) === canonical(b);
}

function canonical(status: RayJobResourceStatus): string {
  const copy = structuredClone(status) as Record<string, unknown>;
  const cluster = copy.rayClusterStatus as Record<string, unknown> | undefined;
  if (cluster) delete cluster.lastUpdateTime;
  return JSON.stringify(sortDropUndefined(copy));
}

function sortDropUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDropUndefined);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortDropUndefined(v)]));
  }
  return value;
}
