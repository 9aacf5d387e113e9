// zod/mini, not zod: the submitter writes this on every exit, and the classic `zod` namespace costs it ~9 MiB of
// RSS to load (issue #27).
import * as z from 'zod/mini';
import { RayJobStatusSchema } from '@rayjob/kube-model';

/** Kubernetes keeps at most 4096 bytes of a container's termination message. */
export const TERMINATION_MESSAGE_MAX_BYTES = 4096;

// Ray's job statuses and which are terminal: @rayjob/kube-model's (one definition for every package).
export { isTerminalRayJobStatus, RayJobStatusSchema, TERMINAL_RAY_JOB_STATUSES, type RayJobStatus } from '@rayjob/kube-model';

/**
 * The submitter's final word, written as its container's termination message (addition A): evidence that
 * survives the head. The operator trusts a terminal `lastStatus` only for the same `submissionId`.
 */
export const TerminationMessageSchema = z.object({
  /** Schema marker, so the operator can tell our message from a user's or KubeRay's text. */
  kind: z.literal('rayjob.io/submitter-result'),
  version: z.literal(1),
  submissionId: z.string().check(z.minLength(1)),
  /** The last Ray job status the submitter saw, if any. */
  lastStatus: z.optional(RayJobStatusSchema),
  /** Ray's job message at that point (truncated to fit the 4096-byte limit). */
  message: z.optional(z.string()),
  exitCode: z.int(),
  /** Why the submitter exited, machine-readable (a SubmitterExitCode name). */
  reason: z.string(),
  /** Ray's end time of the job in ms since the epoch, when known. */
  endTime: z.optional(z.int()),
  /** The driver's node id, when known. */
  driverNodeId: z.optional(z.string()),
});
export type TerminationMessage = z.infer<typeof TerminationMessageSchema>;

/** Parses a container's termination message; anything that is not ours yields undefined, never an error. */
export function parseTerminationMessage(text: string | undefined): TerminationMessage | undefined {
  if (!text) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = TerminationMessageSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Serialises a termination message within Kubernetes' 4096-byte limit, shortening `message` if needed. */
export function formatTerminationMessage(msg: TerminationMessage): string {
  const parsed = TerminationMessageSchema.parse(msg);
  const full = JSON.stringify(parsed);
  if (byteLength(full) <= TERMINATION_MESSAGE_MAX_BYTES) return full;
  // Only `message` (Ray's free text) can be long; cut it by whole characters until the JSON fits.
  const { message = '', ...rest } = parsed;
  const chars = Array.from(message);
  let lo = 0;
  let hi = chars.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (byteLength(JSON.stringify({ ...rest, message: `${chars.slice(0, mid).join('')}…` })) <= TERMINATION_MESSAGE_MAX_BYTES) lo = mid;
    else hi = mid - 1;
  }
  return JSON.stringify(lo > 0 ? { ...rest, message: `${chars.slice(0, lo).join('')}…` } : rest);
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
