/**
 * A command line parsed the way Go's `flag` package parses KubeRay's: `-name`, `--name`, `--name=value`,
 * `--name value`; a boolean flag takes no separate value (`--name`, `--name=false`). Parsing stops at `--` or
 * the first positional argument. Unknown flags are errors, as in Go (a typo must not be silently ignored).
 */
export interface FlagSpec {
  kind: 'string' | 'bool';
}

export type ParsedFlags = { ok: true; values: Map<string, string>; rest: string[] } | { ok: false; message: string };

export function parseGoFlags(argv: readonly string[], specs: Readonly<Record<string, FlagSpec>>): ParsedFlags {
  const values = new Map<string, string>();
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i] ?? '';
    if (arg === '--') return { ok: true, values, rest: argv.slice(i + 1) };
    if (!arg.startsWith('-') || arg === '-') return { ok: true, values, rest: argv.slice(i) };
    const body = arg.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    const spec = specs[name];
    if (!spec) return { ok: false, message: `flag provided but not defined: -${name}` };
    if (eq >= 0) {
      values.set(name, body.slice(eq + 1));
      i += 1;
      continue;
    }
    if (spec.kind === 'bool') {
      values.set(name, 'true');
      i += 1;
      continue;
    }
    const next = argv[i + 1];
    if (next === undefined) return { ok: false, message: `flag needs an argument: -${name}` };
    values.set(name, next);
    i += 2;
  }
  return { ok: true, values, rest: [] };
}

/** Go's strconv.ParseBool. */
export function parseGoBool(value: string): boolean | undefined {
  if (['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value)) return true;
  if (['0', 'f', 'F', 'false', 'FALSE', 'False'].includes(value)) return false;
  return undefined;
}
