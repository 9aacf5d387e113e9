// Kubernetes serialises metav1.Time with second precision ("2026-01-02T03:04:05Z"); we write it the same way.
export function kubeTime(ms: number = Date.now()): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** metav1.MicroTime ("2026-01-02T03:04:05.123456Z"): exactly six fractional digits, as Lease renewTime needs. */
export function kubeMicroTime(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}
