// The whole run, in order: wait for GCS health, submit or attach, follow to the end (or stop at --no-wait),
// then write the termination message. Everything outside (client, clock, writers, ids) is injected, so the
// same function runs in-process in tests and inside the real process (main.ts).
import type { RayClient } from '@rayjob/ray-client';
import type { SubmitterConfig } from '../cli/load-config.ts';
import { emptyKnowledge, outcome, terminationMessageFor, type JobKnowledge, type Outcome } from '../exit.ts';
import { makeRedactor } from '@rayjob/ray-client';
import { createReporter, type Reporter, type Writers } from '../output/reporter.ts';
import { statusLines } from '../output/status-lines.ts';
import { writeTerminationLog } from '../output/termination-log.ts';
import { pacingFor, systemClock, type Clock, type Pacing, type RunContext } from './context.ts';
import { createLogPrinter } from './follow-logs.ts';
import { followJob } from './follow-job.ts';
import { newSubmissionId } from './submission-id.ts';
import { submitOrAttach } from './submit-or-attach.ts';
import { createUnreachableBudget } from './unreachable-budget.ts';
import { waitForHealth } from './wait-for-health.ts';
import { createDriverWatch } from './watch-driver.ts';

export interface RunDeps {
  client: RayClient;
  writers: Writers;
  clock?: Clock;
  signal?: AbortSignal;
  makeSubmissionId?: () => string;
  /** Overrides of the pacing derived from the flags (tests only). */
  pacing?: Partial<Pacing>;
}

export interface Run {
  /** Readable at any time, e.g. by a signal handler writing the termination message. */
  knowledge: JobKnowledge;
  reporter: Reporter;
  /** Resolves with the outcome; never rejects (a throw becomes exit 70). */
  done: Promise<Outcome>;
}

export function startRun(config: SubmitterConfig, deps: RunDeps): Run {
  const clock = deps.clock ?? systemClock;
  const redact = makeRedactor(config.secrets);
  const knowledge = emptyKnowledge(config.submissionId ?? (deps.makeSubmissionId ?? newSubmissionId)());
  const reporter = createReporter({
    format: config.logFormat,
    writers: deps.writers,
    redact,
    now: clock.now,
    context: () => ({ submissionId: knowledge.submissionId, lastStatus: knowledge.lastStatus }),
  });
  const ctx: RunContext = {
    config,
    client: deps.client,
    clock,
    reporter,
    knowledge,
    budget: createUnreachableBudget(config.maxUnreachableMs, clock.now),
    printer: createLogPrinter(reporter.jobOutput),
    driverWatch: createDriverWatch(config.driverLostAfterMs),
    signal: deps.signal ?? new AbortController().signal,
    pacing: { ...pacingFor(config), ...deps.pacing },
  };

  const done = (async (): Promise<Outcome> => {
    let result: Outcome;
    try {
      result = await steps(ctx, knowledge.submissionId as string);
    } catch (error) {
      // A bug or an unexpected state: 70, never 1, so nobody reads it as the job's failure.
      result = outcome('InternalError', `internal error: ${error instanceof Error ? error.message : String(error)}`);
    }
    conclude(ctx, result);
    return result;
  })();
  return { knowledge, reporter, done };
}

async function steps(ctx: RunContext, submissionId: string): Promise<Outcome> {
  ctx.reporter.line('info', `Using dashboard ${ctx.client.baseUrl} (from ${ctx.config.addressSource})`, { event: 'start' });
  const unhealthy = await waitForHealth(ctx);
  if (unhealthy) return unhealthy;
  const arrival = await submitOrAttach(ctx, submissionId);
  if ('exitCode' in arrival) return arrival;
  if (ctx.config.noWait) {
    ctx.reporter.line('info', statusLines.notWaiting(submissionId), { event: 'no-wait' });
    return outcome('Succeeded', 'submitted; not waiting (--no-wait)');
  }
  ctx.reporter.line('info', statusLines.tailing(), { event: 'tailing' });
  return followJob(ctx, submissionId);
}

/** Logs the outcome (unless it is the job's own result, already reported) and writes the termination message. */
export function conclude(ctx: Pick<RunContext, 'config' | 'reporter' | 'knowledge'>, result: Outcome): void {
  const quiet = result.reason === 'Succeeded' || result.reason === 'JobFailed';
  if (!quiet) ctx.reporter.line('error', result.detail, { event: 'exit', exitCode: result.exitCode, reason: result.reason });
  writeFinalWord(ctx, result);
}

export function writeFinalWord(ctx: Pick<RunContext, 'config' | 'reporter' | 'knowledge'>, result: Outcome): void {
  const target = ctx.config.terminationLog;
  const message = terminationMessageFor(ctx.knowledge, result);
  if (!target || !message) return;
  const written = writeTerminationLog(target.path, message, makeRedactor(ctx.config.secrets));
  if (!written.ok && target.required) ctx.reporter.line('warn', written.error, { event: 'termination-log' });
}
