// V8 flags the operator applies to itself at start, from RAYJOB_V8_FLAGS (the chart's `v8Flags`). Node refuses most
// V8 flags in NODE_OPTIONS (`--optimize-for-size is not allowed in NODE_OPTIONS`), and the image's entrypoint takes
// no node flags, so the process sets them with v8.setFlagsFromString before it has done any work. The flags read by
// the garbage collector's heuristics as it runs (--optimize-for-size: compact and grow the heap as if memory were
// scarce) take effect this way; apps/operator/bench/scale.ts measures the operator started the same way (issue 27).
import { setFlagsFromString } from 'node:v8';

export const V8_FLAGS_ENV = 'RAYJOB_V8_FLAGS';

/** One V8 flag: `--name` or `--name=value`, no spaces or quotes (V8 would take anything else silently, or not at all). */
const FLAG = /^--[a-z][a-z0-9_-]*(=[A-Za-z0-9_.,:/-]+)?$/;

export type V8FlagsResult = { ok: true; flags: string[] } | { ok: false; message: string };

/** The flags in `text` (space-separated), or an error naming the one that is not a V8 flag. */
export function parseV8Flags(text: string | undefined): V8FlagsResult {
  const flags = (text ?? '').split(/\s+/).filter(Boolean);
  const bad = flags.find((f) => !FLAG.test(f));
  if (bad !== undefined) return { ok: false, message: `${V8_FLAGS_ENV}: ${JSON.stringify(bad)} is not a V8 flag (--name or --name=value, separated by spaces, e.g. "--optimize-for-size")` };
  return { ok: true, flags };
}

/** Applies RAYJOB_V8_FLAGS from `env`; the error names the variable and the fix. */
export function applyV8Flags(env: NodeJS.ProcessEnv, set: (flag: string) => void = setFlagsFromString): V8FlagsResult {
  const parsed = parseV8Flags(env[V8_FLAGS_ENV]);
  if (parsed.ok) for (const flag of parsed.flags) set(flag);
  return parsed;
}
