import type { z } from 'zod';
import { RayJobSchema, type RayJob } from '../schema/rayjob.ts';
import { SPEC_INVALID } from './messages.ts';

/**
 * Reads a RayJob from the API server. The CRD leaves some fields as plain strings that zod checks as enums
 * (submissionMode above all), so a typo there is accepted by Kubernetes; instead of failing to read the object,
 * the operator reports it like any other invalid spec: ValidationFailed with a message naming the field.
 */
export type ParsedRayJob =
  | { ok: true; rayJob: RayJob }
  | { ok: false; eventReason: 'InvalidRayJobSpec'; message: string };

export function parseRayJob(raw: unknown): ParsedRayJob {
  const parsed = RayJobSchema.safeParse(raw);
  if (parsed.success) return { ok: true, rayJob: parsed.data };
  return { ok: false, eventReason: 'InvalidRayJobSpec', message: `${SPEC_INVALID}${describeIssues(parsed.error.issues)}` };
}

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => `${issue.path.map(String).join('.') || '<root>'}: ${issue.message}`).join('; ');
}
