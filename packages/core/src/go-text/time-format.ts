/** Go's `time.Time.Format("2006-01-02 15:04:05")` in UTC, which KubeRay's messages embed. */
export function formatGoDateTime(d: Date): string {
  return d.toISOString().replace('T', ' ').slice(0, 19);
}

/** Go's `time.Time.String()` for a metav1.Time in UTC, e.g. "2026-12-02 11:31:45 +0000 UTC". */
export function formatGoTimeString(d: Date): string {
  return `${formatGoDateTime(d)} +0000 UTC`;
}

// metav1.Time's wire form and its lenient reading are @rayjob/kube-model's (one definition for every package).
export { formatKubeTime, parseKubeTime } from '@rayjob/kube-model';

export const addSeconds = (d: Date, s: number): Date => new Date(d.getTime() + s * 1000);
export const secondsBetween = (from: Date, to: Date): number => (to.getTime() - from.getTime()) / 1000;

/** Go's `time.Duration.String()` at millisecond precision, e.g. "0s", "250ms", "5.2s", "5m0.125s", "1h2m3s". */
export function formatGoDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms));
  if (total === 0) return '0s';
  if (total < 1000) return `${total}ms`;
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor((total % 3_600_000) / 60_000);
  const millis = total % 60_000;
  const seconds = `${Math.floor(millis / 1000)}${millis % 1000 ? `.${String(millis % 1000).padStart(3, '0').replace(/0+$/, '')}` : ''}s`;
  if (hours > 0) return `${hours}h${minutes}m${seconds}`;
  return minutes > 0 ? `${minutes}m${seconds}` : seconds;
}
