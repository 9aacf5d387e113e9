/**
 * Turns raw answers into observations that can be compared across targets: status codes,
 * media types, JSON shapes with their meaningful values, and the texts clients match on.
 * Everything cosmetic is replaced explicitly here, never silently: ids, timestamps, ports,
 * node ids, session names, commits, and traceback bodies (only the exception lines stay).
 */
import type { HttpResult } from '../probe/http.ts';
import type { TailResult } from '../probe/ws-tail.ts';

/** Real values → placeholders, e.g. the submission id a scenario generated → `<sid:dup>`. */
export type Substitutions = Map<string, string>;

/** Keys whose values are timestamps: only their type is compared. */
const timeKeys = new Set(['start_time', 'end_time', 'timestamp', 'last_activity_at']);
/** Keys whose string values are opaque ids: only their presence is compared. */
const opaqueKeys = new Set(['driver_node_id', 'nodeId', 'session_name', 'ray_commit', 'pid', 'node_ip_address']);

export function normalizeText(text: string, subs: Substitutions): string {
  let out = text;
  // Longest first, so that an id that contains another is replaced whole.
  for (const [real, placeholder] of [...subs].sort((a, b) => b[0].length - a[0].length)) out = out.split(real).join(placeholder);
  return out
    .replace(/raysubmit_[A-Za-z0-9]{16}/g, 'raysubmit_<generated>')
    .replace(/\b(127\.0\.0\.1|localhost):\d+/g, '$1:<port>')
    .replace(/\('(127\.0\.0\.1|localhost)', \d+\)/g, "('$1', <port>)")
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}/g, '<log-time>');
}

export function normalizeJson(value: unknown, subs: Substitutions, key = ''): unknown {
  if (timeKeys.has(key)) return value === null ? null : `<${typeof value}>`;
  if (opaqueKeys.has(key) && typeof value === 'string') return '<opaque>';
  if (typeof value === 'string') return normalizeText(value, subs);
  if (Array.isArray(value)) return value.map((v) => normalizeJson(v, subs));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = normalizeJson((value as Record<string, unknown>)[k], subs, k);
    return out;
  }
  return value;
}

/** The exception lines of a Python traceback, in order (the texts clients match on). */
export function exceptionLines(body: string): string[] {
  return body
    .split('\n')
    .filter((line) => /^([A-Za-z_][\w]*\.)*[A-Za-z_]\w*(Error|Exception): /.test(line));
}

export type HttpObservation =
  | { connection: string }
  | { status: number; type: string; json: unknown }
  | { status: number; type: string; text: string }
  | { status: number; type: string; traceback: string[] };

export function observeHttp(result: HttpResult, subs: Substitutions): HttpObservation {
  if (result.kind === 'connection-error') return { connection: result.code };
  const type = result.contentType.split(';')[0]?.trim() ?? '';
  if (type === 'application/json') {
    try {
      return { status: result.status, type, json: normalizeJson(JSON.parse(result.body), subs) };
    } catch {
      // fall through: report the text
    }
  }
  if (result.body.includes('Traceback (most recent call last):')) {
    return { status: result.status, type, traceback: exceptionLines(normalizeText(result.body, subs)) };
  }
  return { status: result.status, type, text: normalizeText(result.body, subs) };
}

export type TailObservation =
  | { rejected: number; body: string }
  | { closeCode: number; reason: string; frameCount: 'none' | 'some'; text: string }
  | { error: string }
  | { timeout: true };

/** A tail is compared by outcome and content, not by how the text was cut into frames. */
export function observeTail(result: TailResult, subs: Substitutions): TailObservation {
  switch (result.kind) {
    case 'rejected':
      return { rejected: result.status, body: normalizeText(result.body, subs) };
    case 'closed':
      return {
        closeCode: result.code,
        reason: result.reason,
        frameCount: result.frames.length === 0 ? 'none' : 'some',
        text: normalizeText(result.frames.map((f) => f.text).join(''), subs),
      };
    case 'error':
      return { error: result.message };
    case 'timeout':
      return { timeout: true };
  }
}
