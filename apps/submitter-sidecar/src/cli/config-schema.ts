// The zod schema over the merged command line and environment. Each key is the name the user typed (a flag
// or an environment variable), so every error names it. Values arrive as raw strings; the schema parses them.
// zod/mini, not zod: the classic `zod` namespace costs the submitter ~9 MiB of RSS to load (issue #27); every
// message a user can see is written here (parseArgs has already made every value a string or a boolean).
import { SubmitterEnv } from '@rayjob/core';
import * as z from 'zod/mini';
import { parseDuration } from './durations.ts';

/** JSON text -> value checked by `shape`. `secret`: the parse error is not repeated (it quotes the input). */
function jsonText<T extends z.ZodMiniType>(shape: T, what: string, secret = false) {
  const parsed = z.pipe(
    z.string(),
    z.transform((text: string, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        const detail = secret ? '' : `: ${error instanceof Error ? error.message : String(error)}`;
        ctx.issues.push({ code: 'custom', message: `is not valid JSON${detail}; expected ${what}`, input: text });
        return z.NEVER;
      }
    }),
  );
  return z.pipe(parsed, shape);
}

/** A string -> a value, or the transform's message as the issue. */
function fromText<T>(convert: (text: string) => { ok: true; value: T } | { ok: false; message: string }) {
  return z.pipe(
    z.string(),
    z.transform((text: string, ctx) => {
      const result = convert(text);
      if (result.ok) return result.value;
      ctx.issues.push({ code: 'custom', message: result.message, input: text });
      return z.NEVER;
    }),
  );
}

const stringMap = z.record(z.string(), z.string({ error: 'every value must be a string' }), {
  error: 'must be a JSON object',
});
const numberMap = z.record(z.string(), z.number({ error: 'every value must be a number' }), {
  error: 'must be a JSON object',
});
const objectValue = z.record(z.string(), z.unknown(), { error: 'must be a JSON object' });

const nonNegativeNumber = fromText((text) => {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) return { ok: false, message: `"${text}" is not a non-negative number` };
  return { ok: true, value };
});

const bytes = fromText((text) =>
  /^\d+$/.test(text.trim()) ? { ok: true, value: Number(text) } : { ok: false, message: `"${text}" is not a whole number of bytes` },
);

const duration = fromText((text) => {
  const parsed = parseDuration(text);
  return parsed.ok ? { ok: true, value: parsed.ms } : { ok: false, message: parsed.error };
});

/** Unset or empty environment variables count as absent (a pod spec often carries `value: ""`). */
const envString = z.pipe(
  z.optional(z.string()),
  z.transform((v: string | undefined) => (v === undefined || v === '' ? undefined : v)),
);

const nonEmpty = (message: string) => z.string().check(z.minLength(1, message));

export const MergedInputSchema = z.object({
  address: z.optional(z.string()),
  'submission-id': z.optional(nonEmpty('must not be empty')),
  'no-wait': z._default(z.boolean(), false),
  'runtime-env': z.optional(nonEmpty('must name a YAML file')),
  'runtime-env-json': z.optional(jsonText(objectValue, 'an object such as {"pip": ["requests"]}')),
  'metadata-json': z.optional(jsonText(stringMap, 'an object of strings such as {"team": "ml"}')),
  'entrypoint-num-cpus': z.optional(nonNegativeNumber),
  'entrypoint-num-gpus': z.optional(nonNegativeNumber),
  'entrypoint-memory': z.optional(bytes),
  'entrypoint-resources': z.optional(jsonText(numberMap, 'an object of numbers such as {"accelerator": 1}')),
  headers: z.optional(jsonText(stringMap, 'an object of strings such as {"X-Team": "ml"}', true)),
  verify: z.optional(z.string()),
  'working-dir': z.optional(nonEmpty('must not be empty')),
  'attach-only': z._default(z.boolean(), false),
  'expected-head-ip': z.optional(z.string().check(z.trim(), z.minLength(1, 'must be an IP address'))),
  'max-unreachable': z._default(duration, 600_000),
  'health-timeout': z.optional(duration),
  'driver-lost-after': z._default(duration, 30_000),
  'log-format': z._default(z.enum(['text', 'json'], { error: 'must be text or json' }), 'text'),
  'termination-log': z.optional(nonEmpty('must be a path')),
  entrypoint: z.array(z.string()).check(z.minLength(1, 'is missing: put the command after --, e.g. -- python main.py')),
  [SubmitterEnv.submissionId]: envString,
  [SubmitterEnv.headers]: z.pipe(envString, z.optional(jsonText(stringMap, 'an object of strings', true))),
  [SubmitterEnv.authToken]: envString,
  [SubmitterEnv.authTokenPath]: envString,
  [SubmitterEnv.attachOnly]: envString,
  [SubmitterEnv.expectedHeadIp]: envString,
});

export type MergedInput = z.infer<typeof MergedInputSchema>;

/** First zod issue -> "--flag: problem" (flags get dashes, environment variables stay as they are). */
export function describeIssue(error: z.core.$ZodError): { name: string; message: string } {
  const issue = error.issues[0];
  const key = String(issue?.path[0] ?? 'input');
  const name = /^[A-Z_]+$/.test(key) ? key : key === 'entrypoint' ? 'entrypoint' : `--${key}`;
  const where = issue && issue.path.length > 1 ? ` (at ${issue.path.slice(1).join('.')})` : '';
  return { name, message: `${issue?.message ?? 'invalid'}${where}` };
}
