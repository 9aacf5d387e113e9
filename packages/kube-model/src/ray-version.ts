// Ray versions ("2.58.0", "2.9", "3.0.0.dev0", "2.10.0rc1", "v2.9") are not all semver: what Ray's feature gates
// (Jobs API fields, behaviour changes) compare is the first major[.minor[.patch]] in the text, missing parts 0 (the
// reading semver.coerce gives). Read here without the semver package: its module builds some forty regular
// expressions when loaded, a cost every submitter paid at start for two comparisons (issue #27).

// The first run of up to three dot-separated numbers that is not part of a longer number.
const LEADING_VERSION = /(?:^|\D)(\d{1,16})(?:\.(\d{1,16}))?(?:\.(\d{1,16}))?(?!\d)/;

/** [major, minor, patch] of a Ray version; null when there is none to read. */
export function parseRayVersion(version: string): [number, number, number] | null {
  const match = LEADING_VERSION.exec(version);
  if (match === null) return null;
  const parts: [number, number, number] = [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
  return parts.every(Number.isSafeInteger) ? parts : null;
}

/** -1, 0 or 1 like a comparator; an unreadable version sorts as newest (we cannot know better). */
export function compareRayVersions(a: string, b: string): number {
  const va = parseRayVersion(a);
  const vb = parseRayVersion(b);
  if (va === null || vb === null) return va === vb ? 0 : va === null ? 1 : -1;
  for (let i = 0; i < 3; i++) {
    const x = va[i] as number;
    const y = vb[i] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
