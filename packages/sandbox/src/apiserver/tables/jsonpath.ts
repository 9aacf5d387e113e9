// The JSONPath subset CRD printer columns use: `.a.b`, `.a[0]`, `.a[*].b`, `.a['x.y']` and filters
// `[?(@.type=="Ready")]` (==, != against a string or number literal). Returns all matches in order.

type Step = { kind: 'field'; name: string } | { kind: 'index'; index: number } | { kind: 'all' } | { kind: 'filter'; path: string[]; op: '==' | '!='; value: unknown };

function parse(expr: string): Step[] {
  let s = expr.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1);
  if (s.startsWith('$')) s = s.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i];
    if (ch === '.') {
      i++;
      let name = '';
      while (i < s.length && s[i] !== '.' && s[i] !== '[') name += s[i++];
      if (name === '*') steps.push({ kind: 'all' });
      else if (name !== '') steps.push({ kind: 'field', name });
    } else if (ch === '[') {
      const end = s.indexOf(']', s[i + 1] === '?' ? s.indexOf(')', i) : i);
      const inner = s.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^['"].*['"]$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else {
        const m = inner.match(/^\?\(@((?:\.[A-Za-z0-9_-]+)+)\s*(==|!=)\s*(.+)\)$/);
        if (m) {
          const raw = (m[3] as string).trim();
          const value = /^['"].*['"]$/.test(raw) ? raw.slice(1, -1) : Number(raw);
          steps.push({ kind: 'filter', path: (m[1] as string).slice(1).split('.'), op: m[2] as '==' | '!=', value });
        }
      }
    } else {
      let name = '';
      while (i < s.length && s[i] !== '.' && s[i] !== '[') name += s[i++];
      if (name !== '') steps.push({ kind: 'field', name });
    }
  }
  return steps;
}

const cache = new Map<string, Step[]>();

export function evaluateJsonPath(root: unknown, expr: string): unknown[] {
  let steps = cache.get(expr);
  if (!steps) {
    steps = parse(expr);
    cache.set(expr, steps);
  }
  let current: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of current) {
      if (v === null || v === undefined) continue;
      if (step.kind === 'field') {
        if (typeof v === 'object' && !Array.isArray(v) && step.name in (v as object)) next.push((v as Record<string, unknown>)[step.name]);
      } else if (step.kind === 'index') {
        if (Array.isArray(v)) {
          const item = v[step.index < 0 ? v.length + step.index : step.index];
          if (item !== undefined) next.push(item);
        }
      } else if (step.kind === 'all') {
        if (Array.isArray(v)) next.push(...v);
        else if (typeof v === 'object') next.push(...Object.values(v as object));
      } else if (Array.isArray(v)) {
        for (const item of v) {
          let got: unknown = item;
          for (const p of step.path) got = got !== null && typeof got === 'object' ? (got as Record<string, unknown>)[p] : undefined;
          const eq = got === step.value || String(got) === String(step.value);
          if ((step.op === '==') === eq && got !== undefined) next.push(item);
        }
      }
    }
    current = next;
  }
  return current;
}
