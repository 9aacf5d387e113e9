// How a run ends: an exit code from core's SubmitterExitCode and its name (the termination message's reason),
// plus what the submitter knew about the job at that moment.
import { isTerminalRayJobStatus, SubmitterExitCode, type SubmitterExitCodeName, type TerminationMessage } from '@rayjob/core';
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
  /** A submit request was sent (its answer may not have arrived): the job may exist although it was never seen. */
  submitSent: boolean;
  lastStatus: RayJobStatus | undefined;
  lastMessage: string | undefined;
  endTime: number | undefined;
  driverNodeId: string | undefined;
}

export function emptyKnowledge(submissionId: string | undefined): JobKnowledge {
  return { submissionId, seen: false, submitSent: false, lastStatus: undefined, lastMessage: undefined, endTime: undefined, driverNodeId: undefined };
}

/** Outcomes whose cause is the job's terminal status, so Ray's last message explains them directly. */
const decidedByRay: ReadonlySet<SubmitterExitCodeName> = new Set(['Succeeded', 'JobFailed']);

/**
 * The termination message's text: why the submitter exited, then Ray's last message. Ray's message belongs to
 * the last status Ray reported; when that is not what ended the run (a lost head, a lost driver, a signal) it is
 * labelled as such, so "the job does not exist" is never followed by a bare "Job is currently running.".
 */
export function finalText(knowledge: JobKnowledge, result: Outcome): string {
  const rayMessage = knowledge.lastMessage;
  if (!rayMessage || rayMessage === result.detail) return result.detail;
  if (!result.detail) return rayMessage;
  if (decidedByRay.has(result.reason)) return `${result.detail}: ${rayMessage}`;
  return `${result.detail}. When last seen, Ray reported ${knowledge.lastStatus ?? 'the job'}: ${rayMessage}`;
}

/** What a signal leaves behind, said as it is: a job keeps running only if one was submitted or found. */
export function signalNotice(signal: string, knowledge: JobKnowledge): string {
  const id = knowledge.submissionId ?? '';
  if (knowledge.seen && knowledge.lastStatus !== undefined && isTerminalRayJobStatus(knowledge.lastStatus)) {
    return `Received ${signal}; exiting. Job '${id}' had already ended (${knowledge.lastStatus})`;
  }
  if (knowledge.seen) return `Received ${signal}; exiting without stopping job '${id}' (it keeps running)`;
  if (knowledge.submitSent) {
    return `Received ${signal} while submitting job '${id}'; exiting without stopping it (it may have been submitted and then keeps running)`;
  }
  return `Received ${signal} before job '${id}' was submitted; exiting (nothing was submitted, nothing is left running)`;
}

export function terminationMessageFor(knowledge: JobKnowledge, result: Outcome): TerminationMessage | undefined {
  if (!knowledge.submissionId) return undefined; // nothing to report against (usage error before an id existed)
  const message = finalText(knowledge, result);
  return {
    kind: 'rayjob.io/submitter-result',
    version: 1,
    submissionId: knowledge.submissionId,
    exitCode: result.exitCode,
    reason: result.reason,
    ...(knowledge.lastStatus !== undefined ? { lastStatus: knowledge.lastStatus } : {}),
    ...(message ? { message } : {}),
    ...(knowledge.endTime !== undefined ? { endTime: Math.trunc(knowledge.endTime) } : {}),
    ...(knowledge.driverNodeId !== undefined ? { driverNodeId: knowledge.driverNodeId } : {}),
  };
}
