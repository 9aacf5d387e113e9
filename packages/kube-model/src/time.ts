// metav1.Time and metav1.MicroTime as the API server writes and reads them. JavaScript's toISOString() has three
// fractional digits: a Time has none, a MicroTime exactly six (a real kube-apiserver refuses anything else with 400).

/** metav1.Time: RFC 3339 to the second ("2026-01-02T03:04:05Z"). */
export function formatKubeTime(at: Date | number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** metav1.MicroTime: RFC 3339 with exactly six fractional digits ("2026-01-02T03:04:05.123000Z"). */
export function formatMicroTime(at: Date | number): string {
  return new Date(at).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** A metav1.Time (or MicroTime) read leniently: absent or unparsable text is undefined, never an error. */
export function parseKubeTime(s: string | undefined | null): Date | undefined {
  if (!s) return undefined;
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? undefined : d;
}
