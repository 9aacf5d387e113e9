// Ray answers 400 to a submit body key its JobSubmitRequest does not know, so the client, like Ray's own SDK,
// sends a field only to servers whose version introduced it (ray-jobs-api.md §8).

/** Minimum Ray version per optional submit field. Fields not listed are known by every supported Ray. */
export const submitFieldMinVersion: Readonly<Record<string, string>> = {
  entrypoint_num_cpus: '2.2.0',
  entrypoint_num_gpus: '2.2.0',
  entrypoint_resources: '2.2.0',
  entrypoint_memory: '2.8.0',
  entrypoint_label_selector: '2.54.0',
};

/** Parses "2.58.0", "2.9", "3.0.0.dev0", "2.10.0rc1" into [major, minor, patch]; null when unreadable. */
export function parseRayVersion(version: string): [number, number, number] | null {
  const match = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version.trim());
  if (!match) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

/** -1, 0 or 1 like a comparator; an unreadable version sorts as newest (we cannot know better). */
export function compareRayVersions(a: string, b: string): number {
  const pa = parseRayVersion(a);
  const pb = parseRayVersion(b);
  if (!pa && !pb) return 0;
  if (!pa) return 1;
  if (!pb) return -1;
  for (let i = 0; i < 3; i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

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
