// Ray answers 400 to a submit body key its JobSubmitRequest does not know, so the client, like Ray's own SDK,
// sends a field only to servers whose version introduced it (ray-jobs-api.md §8).
import { compareRayVersions } from '@rayjob/kube-model';

/** Minimum Ray version per optional submit field. Fields not listed are known by every supported Ray. */
export const submitFieldMinVersion: Readonly<Record<string, string>> = {
  entrypoint_num_cpus: '2.2.0',
  entrypoint_num_gpus: '2.2.0',
  entrypoint_resources: '2.2.0',
  entrypoint_memory: '2.8.0',
  entrypoint_label_selector: '2.54.0',
};

// Ray version parsing and comparison are @rayjob/kube-model's, one definition with the emulator's.
export { compareRayVersions, parseRayVersion } from '@rayjob/kube-model';

export function serverKnowsField(rayVersion: string, field: string): boolean {
  const min = submitFieldMinVersion[field];
  return min === undefined || compareRayVersions(rayVersion, min) >= 0;
}

/**
 * Removes null/undefined values (Ray ignores them anyway) and fields the server's version does not know.
 * Returns the body to send and the names of dropped fields, so a caller can warn about them.
 */
export function gateSubmitBody(
  body: Record<string, unknown>,
  rayVersion: string,
): { body: Record<string, unknown>; dropped: string[] } {
  const out: Record<string, unknown> = {};
  const dropped: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (serverKnowsField(rayVersion, key)) out[key] = value;
    else dropped.push(key);
  }
  return { body: out, dropped };
}
