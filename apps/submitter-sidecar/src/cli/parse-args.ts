// The command line, read with node:util parseArgs (strict: an unknown flag is an error that names it).
// Values stay raw strings here; config-schema.ts gives them meaning.
import { parseArgs } from 'node:util';

/** Every flag, with its parseArgs type. Kept in one table so usage.ts and the tests can list them. */
export const flagTypes = {
  // `ray job submit`
  address: 'string',
  'submission-id': 'string',
  'no-wait': 'boolean',
  'runtime-env': 'string',
  'runtime-env-json': 'string',
  'metadata-json': 'string',
  'entrypoint-num-cpus': 'string',
  'entrypoint-num-gpus': 'string',
  'entrypoint-memory': 'string',
  'entrypoint-resources': 'string',
  headers: 'string',
  verify: 'string',
  'working-dir': 'string',
  help: 'boolean',
  version: 'boolean',
  // ours
  'max-unreachable': 'string',
  'health-timeout': 'string',
  'driver-lost-after': 'string',
  'log-format': 'string',
  'termination-log': 'string',
} as const;

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
