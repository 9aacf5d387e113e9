/** Go's `time.Time.Format("2006-01-02 15:04:05")` in UTC, which KubeRay's messages embed. */
export function formatGoDateTime(d: Date): string {
  return d.toISOString().replace('T', ' ').slice(0, 19);
}

/** Go's `time.Time.String()` for a metav1.Time in UTC, e.g. "2026-12-02 11:31:45 +0000 UTC". */
export function formatGoTimeString(d: Date): string {
  return `${formatGoDateTime(d)} +0000 UTC`;
}

/** RFC 3339 with second precision, the wire form of metav1.Time. */
export function formatKubeTime(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function parseKubeTime(s: string | undefined | null): Date | undefined {
  if (!s) return undefined;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

export const addSeconds = (d: Date, s: number): Date => new Date(d.getTime() + s * 1000);
export const secondsBetween = (from: Date, to: Date): number => (to.getTime() - from.getTime()) / 1000;
