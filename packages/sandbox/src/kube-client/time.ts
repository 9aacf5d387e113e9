// Kubernetes serialises metav1.Time with second precision ("2026-01-02T03:04:05Z"); we write it the same way.
export function kubeTime(ms: number = Date.now()): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
