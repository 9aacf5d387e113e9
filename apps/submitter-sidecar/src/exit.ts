// How a run ends: an exit code from core's SubmitterExitCode and its name (the termination message's reason),
// plus what the submitter knew about the job at that moment.
import { SubmitterExitCode, type SubmitterExitCodeName, type TerminationMessage } from '@rayjob/core';
import type { RayJobStatus } from '@rayjob/ray-client';

export interface Outcome {
  reason: SubmitterExitCodeName;
  exitCode: number;
  /** Why, for people: logged and put in the termination message when Ray gave no job message. */
  detail: string;
}

export function outcome(reason: SubmitterExitCodeName, detail: string): Outcome {
  return { reason, exitCode: SubmitterExitCode[reason], detail };
}

/** What the run has learned about the job; read by the signal handlers too, so it is a plain mutable record. */
export interface JobKnowledge {
  submissionId: string | undefined;
  /** The job was found or accepted at least once (a later 404 then means the head was lost). */
  seen: boolean;
  lastStatus: RayJobStatus | undefined;
  lastMessage: string | undefined;
  endTime: number | undefined;
  driverNodeId: string | undefined;
}

export function emptyKnowledge(submissionId: string | undefined): JobKnowledge {
  return { submissionId, seen: false, lastStatus: undefined, lastMessage: undefined, endTime: undefined, driverNodeId: undefined };
}

export function terminationMessageFor(knowledge: JobKnowledge, result: Outcome): TerminationMessage | undefined {
  if (!knowledge.submissionId) return undefined; // nothing to report against (usage error before an id existed)
  const message = knowledge.lastMessage ?? result.detail;
  return {
    kind: 'rayjob.io/submitter-result',
    version: 1,
    submissionId: knowledge.submissionId,
    exitCode: result.exitCode,
    reason: result.reason,
    ...(knowledge.lastStatus !== undefined ? { lastStatus: knowledge.lastStatus } : {}),
    ...(message ? { message: result.detail && message !== result.detail ? `${result.detail}: ${message}` : message } : {}),
    ...(knowledge.endTime !== undefined ? { endTime: Math.trunc(knowledge.endTime) } : {}),
    ...(knowledge.driverNodeId !== undefined ? { driverNodeId: knowledge.driverNodeId } : {}),
  };
}
