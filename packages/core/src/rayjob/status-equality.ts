import type { RayJobResourceStatus } from '../schema/index.ts';

/**
 * Deep equality of two statuses, ignoring undefined fields and the RayCluster status' lastUpdateTime (which the
 * RayCluster controller bumps on every write and would otherwise force a RayJob status write each time).
 */
export function statusEqual(a: RayJobResourceStatus, b: RayJobResourceStatus): boolean {
  return canonical(a) === canonical(b);
}

function canonical(status: RayJobResourceStatus): string {
  return JSON.stringify(status, (key, value: unknown) => {
    if (key === 'lastUpdateTime') return undefined;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
    // Key order must not matter: rebuild plain objects with sorted keys (JSON.stringify drops undefined).
    const record = value as Record<string, unknown>;
    return Object.fromEntries(Object.keys(record).sort().map((k) => [k, record[k]]));
  });
}
