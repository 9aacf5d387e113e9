/**
 * Kubernetes' "generic" version parsing (k8s.io/apimachinery/pkg/util/version.ParseGeneric), which KubeRay uses
 * for `rayVersion`: at least two dot-separated numbers, optional leading "v", anything after the numbers ignored.
 * Error texts are Kubernetes', since KubeRay wraps them into its messages.
 */

export type ParsedVersion = { ok: true; components: number[] } | { ok: false; error: string };

const VERSION_RE = /^\s*v?([0-9]+(?:\.[0-9]+)*)(.*)$/;

export function parseGenericVersion(text: string): ParsedVersion {
  const match = VERSION_RE.exec(text);
  if (!match) return { ok: false, error: `could not parse ${JSON.stringify(text)} as version` };
  const parts = (match[1] as string).split('.');
  if (parts.length < 2) return { ok: false, error: `illegal version string ${JSON.stringify(text)}` };
  const first = parts[0] as string;
  if (first.startsWith('0') && first !== '0') {
    return { ok: false, error: `illegal zero-prefixed version component ${JSON.stringify(first)} in ${JSON.stringify(text)}` };
  }
  return { ok: true, components: parts.map(Number) };
}

/** a < b, comparing component by component (missing components count as 0). */
export function versionLessThan(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

/**
 * Checks that `rayVersion` is at least `minimum`, for a feature named in the messages. Returns KubeRay's error
 * texts built by `messages`, or undefined when the version is new enough.
 */
export function checkMinimumRayVersion(
  rayVersion: string | undefined,
  minimum: readonly number[],
  messages: { missing: string; invalid: (version: string, error: string) => string; tooOld: (version: string) => string },
): string | undefined {
  if (!rayVersion) return messages.missing;
  const parsed = parseGenericVersion(rayVersion);
  if (!parsed.ok) return messages.invalid(rayVersion, parsed.error);
  return versionLessThan(parsed.components, minimum) ? messages.tooOld(rayVersion) : undefined;
}
