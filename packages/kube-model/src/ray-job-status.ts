// zod/mini, not zod: this schema is on the submitter's hot path (ray-client's job answers, the termination
// message), and the classic `zod` namespace costs the submitter ~9 MiB of RSS to load (issue #27). The schema
// parses the same and works inside classic schemas too (`z.optional(RayJobStatusSchema)`).
import * as z from 'zod/mini';

/** Ray's job status (the Jobs API's JobStatus). */
export const RayJobStatusSchema = z.enum(['PENDING', 'RUNNING', 'STOPPED', 'SUCCEEDED', 'FAILED']);
export type RayJobStatus = z.infer<typeof RayJobStatusSchema>;
export type TerminalRayJobStatus = 'STOPPED' | 'SUCCEEDED' | 'FAILED';

/** The statuses Ray never leaves (JobStatus.is_terminal()). */
export const TERMINAL_RAY_JOB_STATUSES: readonly TerminalRayJobStatus[] = ['STOPPED', 'SUCCEEDED', 'FAILED'];

export const isTerminalRayJobStatus = (s: string | undefined | null): s is TerminalRayJobStatus =>
  s === 'STOPPED' || s === 'SUCCEEDED' || s === 'FAILED';
