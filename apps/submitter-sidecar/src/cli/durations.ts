// Durations as users write them in pod specs: `30s`, `10m`, `1h`, `1h30m`, `500ms`, or plain seconds (`45`,
// `2.5`). Answers milliseconds, or an error text that says what is accepted.

const unitMs: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

export type DurationResult = { ok: true; ms: number } | { ok: false; error: string };

export function parseDuration(text: string): DurationResult {
  const trimmed = text.trim();
  const invalid: DurationResult = {
    ok: false,
    error: `"${trimmed}" is not a duration: use e.g. 30s, 10m, 1h, 1h30m, 500ms or plain seconds`,
  };
  if (trimmed === '') return invalid;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return positive(Number(trimmed) * 1_000, trimmed);
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== trimmed) return invalid;
  const total = parts.reduce((sum, p) => sum + Number(p[1]) * (unitMs[p[2] as string] ?? 0), 0);
  return positive(total, trimmed);
}

function positive(ms: number, text: string): DurationResult {
  if (!Number.isFinite(ms) || ms <= 0) return { ok: false, error: `"${text}" must be longer than zero` };
  return { ok: true, ms: Math.round(ms) };
}

/** 90000 -> "1m30s", for messages. */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${ms}ms`;
  let rest = Math.round(ms / 1_000);
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  const s = rest - m * 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || (!h && !m) ? `${s}s` : ''}`;
}
