import { stringify } from 'safe-stable-stringify';

/** Compact JSON with map keys sorted at every level, as Go's encoding/json writes maps (KubeRay's flags show it). */
export function sortedJson(value: unknown): string {
  return stringify(value) as string;
}
