// metav1.MicroTime: RFC 3339 with exactly six fractional digits. The API server rejects Lease and
// events.k8s.io times with JavaScript's three digits (400), so every such field goes through here.
export function microTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** metav1.Time: RFC 3339 to the second. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
