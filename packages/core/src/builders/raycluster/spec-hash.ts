import type { RayClusterSpec } from '../../schema/index.ts';
import { sortedJson } from '../sorted-json.ts';

/**
 * The head Pod's `ray.io/upgrade-strategy-recreate-hash`: a digest of the spec without what scaling and schedulers
 * change (replicas, min/max, workersToDelete, tolerations, scheduling gates) or the upgrade strategy itself, so
 * `upgradeStrategy: Recreate` recreates Pods only for real template changes. Our digest is FNV-1a (64 bit) of
 * key-sorted JSON, not KubeRay's SHA-1 of Go's JSON; a head Pod KubeRay created carries another
 * `ray.io/kuberay-version`, which makes the controller adopt it instead of recreating (as KubeRay does on upgrade).
 */
export function clusterSpecHash(spec: RayClusterSpec): string {
  const muted = structuredClone(spec) as RayClusterSpec & Record<string, unknown>;
  const muteScheduling = (podSpec: Record<string, unknown> | undefined) => {
    if (!podSpec) return;
    delete podSpec.tolerations;
    delete podSpec.schedulingGates;
  };
  muteScheduling(muted.headGroupSpec.template.spec as Record<string, unknown> | undefined);
  for (const group of muted.workerGroupSpecs ?? []) {
    const g = group as Record<string, unknown>;
    delete g.replicas;
    delete g.minReplicas;
    delete g.maxReplicas;
    delete g.scaleStrategy; // it holds nothing but workersToDelete
    muteScheduling(group.template.spec as Record<string, unknown> | undefined);
  }
  delete muted.upgradeStrategy;
  return fnv1a64(sortedJson(muted));
}

function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  const mask = (1n << 64n) - 1n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * prime) & mask;
  }
  return hash.toString(16).padStart(16, '0');
}
