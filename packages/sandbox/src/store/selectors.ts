// Label and field selectors, parsed once per request into predicates.
// Labels: =, ==, !=, in, notin, exists (key), !exists (!key). Fields: =, ==, != on any dotted path.
import type { KubeObject } from './types.ts';

export type Predicate = (obj: KubeObject) => boolean;
export type SelectorParse = { ok: true; match: Predicate } | { ok: false; message: string };

/** Split on commas that are not inside parentheses. */
function splitTerms(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur.trim() !== '') out.push(cur);
  return out.map((t) => t.trim()).filter((t) => t !== '');
}

const keyRe = /^([a-z0-9A-Z]([-a-z0-9A-Z_./]*[a-z0-9A-Z])?)$/;

export function parseLabelSelector(selector: string | undefined): SelectorParse {
  if (!selector || selector.trim() === '') return { ok: true, match: () => true };
  const tests: Array<(labels: Record<string, string>) => boolean> = [];
  for (const term of splitTerms(selector)) {
    let m: RegExpMatchArray | null;
    if ((m = term.match(/^(\S+)\s+(in|notin)\s+\((.*)\)$/))) {
      const key = m[1] as string;
      const values = new Set((m[3] as string).split(',').map((v) => v.trim()).filter((v) => v !== ''));
      if (m[2] === 'in') tests.push((l) => key in l && values.has(l[key] as string));
      else tests.push((l) => !(key in l) || !values.has(l[key] as string));
    } else if ((m = term.match(/^([^=!\s]+)\s*(==|=|!=)\s*(\S*)$/))) {
      const key = m[1] as string;
      const value = m[3] as string;
      if (!keyRe.test(key)) return { ok: false, message: `unable to parse requirement: invalid label key "${key}"` };
      if (m[2] === '!=') tests.push((l) => l[key] !== value);
      else tests.push((l) => l[key] === value);
    } else if ((m = term.match(/^!\s*(\S+)$/))) {
      const key = m[1] as string;
      tests.push((l) => !(key in l));
    } else if (keyRe.test(term)) {
      tests.push((l) => term in l);
    } else {
      return { ok: false, message: `unable to parse requirement: found '${term}', expected: identifier` };
    }
  }
  return { ok: true, match: (obj) => tests.every((t) => t(obj.metadata.labels ?? {})) };
}

function fieldValue(obj: KubeObject, path: string): string {
  let cur: unknown = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return '';
    cur = (cur as Record<string, unknown>)[part];
  }
  if (cur === undefined || cur === null) return '';
  return typeof cur === 'object' ? JSON.stringify(cur) : String(cur);
}

export function parseFieldSelector(selector: string | undefined): SelectorParse {
  if (!selector || selector.trim() === '') return { ok: true, match: () => true };
  const tests: Predicate[] = [];
  for (const term of splitTerms(selector)) {
    const m = term.match(/^([A-Za-z0-9_.]+)\s*(==|=|!=)\s*(.*)$/);
    if (!m) return { ok: false, message: `invalid selector: '${term}'; can't understand '${term}'` };
    const path = m[1] as string;
    const value = (m[3] as string).trim();
    if (m[2] === '!=') tests.push((o) => fieldValue(o, path) !== value);
    else tests.push((o) => fieldValue(o, path) === value);
  }
  return { ok: true, match: (obj) => tests.every((t) => t(obj)) };
}
