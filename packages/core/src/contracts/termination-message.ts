import { z } from 'zod';

/** Kubernetes keeps at most 4096 bytes of a container's termination message. */
export const TERMINATION_MESSAGE_MAX_BYTES = 4096;

export const RayJobStatusSchema = z.enum(['PENDING', 'RUNNING', 'STOPPED', 'SUCCEEDED', 'FAILED']);
export type RayJobStatus = z.infer<typeof RayJobStatusSchema>;
export const TERMINAL_RAY_JOB_STATUSES: readonly RayJobStatus[] = ['STOPPED', 'SUCCEEDED', 'FAILED'];
export const isTerminalRayJobStatus = (s: string | undefined): s is 'STOPPED' | 'SUCCEEDED' | 'FAILED' =>
  s === 'STOPPED' || s === 'SUCCEEDED' || s === 'FAILED';

/**
 * The submitter's final word, written as its container's termination message (addition A): evidence that
 * survives the head. The operator trusts a terminal `lastStatus` only for the same `submissionId`.
 */
export const TerminationMessageSchema = z.object({
  /** Schema marker, so the operator can tell our message from a user's or KubeRay's text. */
  kind: z.literal('rayjob.io/submitter-result'),
  version: z.literal(1),
  submissionId: z.string().min(1),
  /** The last Ray job status the submitter saw, if any. */
  lastStatus: RayJobStatusSchema.optional(),
  /** Ray's job message at that point (truncated to fit the 4096-byte limit). */
  message: z.string().optional(),
  exitCode: z.number().int(),
  /** Why the submitter exited, machine-readable (a SubmitterExitCode name). */
  reason: z.string(),
  /** Ray's end time of the job in ms since the epoch, when known. */
  endTime: z.number().int().optional(),
  /** The driver's node id, when known. */
  driverNodeId: z.string().optional(),
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
  const encoder = new TextEncoder();
  let out = JSON.stringify(TerminationMessageSchema.parse(msg));
  if (encoder.encode(out).length <= TERMINATION_MESSAGE_MAX_BYTES) return out;
  const { message = '', ...rest } = msg;
  const overhead = encoder.encode(JSON.stringify({ ...rest, message: '' })).length;
  let budget = TERMINATION_MESSAGE_MAX_BYTES - overhead - 16;
  let cut = message;
  while (budget > 0 && encoder.encode(JSON.stringify(cut)).length - 2 > budget) {
    cut = cut.slice(0, Math.max(0, cut.length - Math.ceil((cut.length * 0.1) + 1)));
  }
  out = JSON.stringify({ ...rest, message: cut.length < message.length ? `${cut}…` : cut });
  if (encoder.encode(out).length > TERMINATION_MESSAGE_MAX_BYTES) out = JSON.stringify(rest);
  return out;
}
