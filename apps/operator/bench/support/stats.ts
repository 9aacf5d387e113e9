// Bench-only number formatting and percentiles (nearest-rank, as most latency reports use).
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export const ms = (n: number): string => (Number.isFinite(n) ? `${Math.round(n)} ms` : 'n/a');
export const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
export const ratio = (ours: number, anchor: number): string => (anchor > 0 && Number.isFinite(ours) ? `${(ours / anchor).toFixed(2)}x` : 'n/a');

/** Prints rows as aligned columns (first row = header). */
export function table(rows: string[][]): void {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  for (const r of rows) console.log(r.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd());
}
