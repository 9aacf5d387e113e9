import { z } from 'zod';

/** Ray's job status (the Jobs API's JobStatus). */
export const RayJobStatusSchema = z.enum(['PENDING', 'RUNNING', 'STOPPED', 'SUCCEEDED', 'FAILED']);
export type RayJobStatus = z.infer<typeof RayJobStatusSchema>;
export type TerminalRayJobStatus = 'STOPPED' | 'SUCCEEDED' | 'FAILED';

/** The statuses Ray never leaves (JobStatus.is_terminal()). */
export const TERMINAL_RAY_JOB_STATUSES: readonly TerminalRayJobStatus[] = ['STOPPED', 'SUCCEEDED', 'FAILED'];

export const isTerminalRayJobStatus = (s: string | undefined | null): s is TerminalRayJobStatus =>
  s === 'STOPPED' || s === 'SUCCEEDED' || s === 'FAILED';
