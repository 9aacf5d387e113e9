import semver from 'semver';

// Ray versions ("2.58.0", "2.9", "3.0.0.dev0", "2.10.0rc1") are not all semver: semver.coerce reads the leading
// major.minor[.patch], which is what Ray's feature gates (Jobs API fields, behaviour changes) compare.

/** [major, minor, patch] of a Ray version; null when there is none to read. */
export function parseRayVersion(version: string): [number, number, number] | null {
  const v = semver.coerce(version.trim());
  return v === null ? null : [v.major, v.minor, v.patch];
}

/** -1, 0 or 1 like a comparator; an unreadable version sorts as newest (we cannot know better). */
export function compareRayVersions(a: string, b: string): number {
  const va = semver.coerce(a.trim());
  const vb = semver.coerce(b.trim());
  if (va === null && vb === null) return 0;
  if (va === null) return 1;
  if (vb === null) return -1;
  return semver.compare(va, vb);
}
