// The zod schema over the merged command line and environment. Each key is the name the user typed (a flag
// or an environment variable), so every error names it. Values arrive as raw strings; the schema parses them.
import { SubmitterEnv } from '@rayjob/core';
import { z } from 'zod';
import { parseDuration } from './durations.ts';

/** JSON text -> value checked by `shape`. `secret`: the parse error is not repeated (it quotes the input). */
function jsonText<T extends z.ZodType>(shape: T, what: string, secret = false) {
  return z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch (error) {
        const detail = secret ? '' : `: ${error instanceof Error ? error.message : String(error)}`;
        ctx.addIssue({ code: 'custom', message: `is not valid JSON${detail}; expected ${what}` });
        return z.NEVER;
      }
    })
    .pipe(shape);
}

const stringMap = z.record(z.string(), z.string({ error: 'every value must be a string' }), {
  error: 'must be a JSON object',
});
const numberMap = z.record(z.string(), z.number({ error: 'every value must be a number' }), {
  error: 'must be a JSON object',
});
const objectValue = z.record(z.string(), z.unknown(), { error: 'must be a JSON object' });

const nonNegativeNumber = z
  .string()
  .transform((text, ctx) => {
    const value = Number(text);
    if (text.trim() === '' || !Number.isFinite(value) || value < 0) {
      ctx.addIssue({ code: 'custom', message: `"${text}" is not a non-negative number` });
      return z.NEVER;
    }
    return value;
  });

const bytes = z.string().transform((text, ctx) => {
  if (!/^\d+$/.test(text.trim())) {
    ctx.addIssue({ code: 'custom', message: `"${text}" is not a whole number of bytes` });
    return z.NEVER;
  }
  return Number(text);
});

const duration = z.string().transform((text, ctx) => {
  const parsed = parseDuration(text);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.error });
    return z.NEVER;
  }
  return parsed.ms;
});

/** Unset or empty environment variables count as absent (a pod spec often carries `value: ""`). */
const envString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v === '' ? undefined : v));

export const MergedInputSchema = z.object({
  address: z.string().optional(),
  'submission-id': z.string().min(1, 'must not be empty').optional(),
  'no-wait': z.boolean().default(false),
  'runtime-env': z.string().min(1, 'must name a YAML file').optional(),
  'runtime-env-json': jsonText(objectValue, 'an object such as {"pip": ["requests"]}').optional(),
  'metadata-json': jsonText(stringMap, 'an object of strings such as {"team": "ml"}').optional(),
  'entrypoint-num-cpus': nonNegativeNumber.optional(),
  'entrypoint-num-gpus': nonNegativeNumber.optional(),
  'entrypoint-memory': bytes.optional(),
  'entrypoint-resources': jsonText(numberMap, 'an object of numbers such as {"accelerator": 1}').optional(),
  headers: jsonText(stringMap, 'an object of strings such as {"X-Team": "ml"}', true).optional(),
  verify: z.string().optional(),
  'working-dir': z.string().min(1, 'must not be empty').optional(),
  'attach-only': z.boolean().default(false),
  'expected-head-ip': z.string().trim().min(1, 'must be an IP address').optional(),
  'max-unreachable': duration.default(600_000),
  'health-timeout': duration.optional(),
  'driver-lost-after': duration.default(30_000),
  'log-format': z.enum(['text', 'json'], { error: 'must be text or json' }).default('text'),
  'termination-log': z.string().min(1, 'must be a path').optional(),
  entrypoint: z.array(z.string()).min(1, 'is missing: put the command after --, e.g. -- python main.py'),
  [SubmitterEnv.submissionId]: envString,
  [SubmitterEnv.headers]: envString.pipe(jsonText(stringMap, 'an object of strings', true).optional()),
  [SubmitterEnv.authToken]: envString,
  [SubmitterEnv.authTokenPath]: envString,
  [SubmitterEnv.attachOnly]: envString,
  [SubmitterEnv.expectedHeadIp]: envString,
});

export type MergedInput = z.infer<typeof MergedInputSchema>;

/** First zod issue -> "--flag: problem" (flags get dashes, environment variables stay as they are). */
export function describeIssue(error: z.ZodError): { name: string; message: string } {
  const issue = error.issues[0];
  const key = String(issue?.path[0] ?? 'input');
  const name = /^[A-Z_]+$/.test(key) ? key : key === 'entrypoint' ? 'entrypoint' : `--${key}`;
  const where = issue && issue.path.length > 1 ? ` (at ${issue.path.slice(1).join('.')})` : '';
  return { name, message: `${issue?.message ?? 'invalid'}${where}` };
}
