// The command line, read with node:util parseArgs (strict: an unknown flag is an error that names it).
// Values stay raw strings here; config-schema.ts gives them meaning.
import { submitterFlags } from '@rayjob/core';

// process.getBuiltinModule, not an ES import: importing node:util as an ES module builds its namespace, whose
// getters load node's worker, diff and colour helpers (+1.7 MiB of RSS for --help and every run, issue #27).
const { parseArgs } = process.getBuiltinModule('node:util');

/** Every flag with its parseArgs type: core's contract, the same table the builders write from. */
export const flagTypes = submitterFlags;

export type FlagName = keyof typeof flagTypes;
export type RawFlags = Partial<Record<FlagName, string | boolean>>;

export type ParsedCommandLine =
  | { ok: true; flags: RawFlags; positionals: string[] }
  | { ok: false; message: string };

export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const options = Object.fromEntries(Object.entries(flagTypes).map(([name, type]) => [name, { type }])) as {
    [K in FlagName]: { type: (typeof flagTypes)[K] };
  };
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
    return { ok: true, flags: values as RawFlags, positionals };
  } catch (error) {
    // parseArgs' messages name the flag ("Unknown option '--foo'", "Option '--address <value>' argument missing").
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
