// Step 3: follow the job until Ray says it is terminal. A log-stream end is never read as the job's end:
// after any close or error the status is asked; while the job is not terminal the tail is reopened with
// backoff (the printer drops the replayed prefix). A watcher on its own timer, alive for the whole step (open
// tail, reconnect backoff and all), keeps looking at the status and at the driver's node, so a lost driver or
// a lost head ends the run on time even while the stream keeps closing and the backoff has grown to seconds.
import type { JobDetails } from '@rayjob/ray-client';
import { formatDuration } from '../cli/durations.ts';
import { outcome, type Outcome } from '../exit.ts';
import { statusLines } from '../output/status-lines.ts';
import type { RunContext } from './context.ts';
import { finish } from './finish.ts';
import { observeJob, type Observation } from './observe-job.ts';
import { createBackoff } from './unreachable-budget.ts';

/** Observations that end the run whatever the stream does; undefined for "keep following". */
function verdictOf(ctx: RunContext, look: Observation): Outcome | undefined {
  switch (look.kind) {
    case 'driver-lost':
      return outcome(
        'DriverLost',
        `Ray reports the job RUNNING but its driver's node ${look.job.driver_node_id ?? ''} has been DEAD or missing for ${formatDuration(look.forMs)}`,
      );
    case 'not-found':
      return outcome('HeadLost', `the job is no longer known to the dashboard (the head was lost): ${look.message}`);
    case 'rejected':
      return outcome('Rejected', `the dashboard rejected the status request: ${look.message}`);
    case 'unreachable':
      return look.exhausted
        ? outcome('Unreachable', `the dashboard stayed unreachable for ${formatDuration(ctx.config.maxUnreachableMs)}: ${look.message}`)
        : undefined;
    default:
      return undefined;
  }
}

/** How the tail loop ended: Ray said terminal (finish next), or an outcome that ends the run as it is. */
type LoopEnd = { kind: 'terminal'; job: JobDetails } | { kind: 'outcome'; outcome: Outcome };

/** Shared between the watcher and the tail loop. */
interface Follow {
  /** Aborted once the step is over: a verdict, the end of the loop, or the process told to stop. */
  over: AbortController;
  verdict: Outcome | undefined;
  /** Aborted by the watcher when Ray has been terminal for tailGraceMs but the open tail does not close. */
  tail: AbortController;
  /** Aborted to make the watcher look now instead of at its next tick. */
  wake: AbortController;
}

export async function followJob(ctx: RunContext, submissionId: string): Promise<Outcome> {
  const follow: Follow = { over: new AbortController(), verdict: undefined, tail: new AbortController(), wake: new AbortController() };
  const onOuterAbort = () => follow.over.abort();
  ctx.signal.addEventListener('abort', onOuterAbort, { once: true });
  const watcher = watch(ctx, submissionId, follow);
  let end: LoopEnd;
  try {
    end = await tailUntilEnd(ctx, submissionId, follow);
  } finally {
    follow.over.abort();
    ctx.signal.removeEventListener('abort', onOuterAbort);
    await watcher;
  }
  if (end.kind === 'terminal') return finish(ctx, submissionId, end.job);
  return end.outcome;
}

/** The watcher: one look per tick; the tick is shortened so a driver-lost bound is judged when it falls due. */
async function watch(ctx: RunContext, submissionId: string, follow: Follow): Promise<void> {
  const { clock, pacing } = ctx;
  let terminalSince: number | undefined;
  while (!follow.over.signal.aborted) {
    if (!follow.wake.signal.aborted) {
      await clock.sleep(nextLookInMs(ctx), AbortSignal.any([follow.over.signal, follow.wake.signal]));
    }
    follow.wake = new AbortController();
    if (follow.over.signal.aborted) return;
    const look = await observeJob(ctx, submissionId);
    if (follow.over.signal.aborted) return;
    const verdict = verdictOf(ctx, look);
    if (verdict) {
      follow.verdict = verdict;
      follow.over.abort();
      return;
    }
    if (look.kind === 'terminal') {
      terminalSince ??= clock.now();
      // Ray closes the tail 1–3 s after the end; a tail that stays open longer is not waited for.
      if (clock.now() - terminalSince >= pacing.tailGraceMs) follow.tail.abort();
    } else {
      terminalSince = undefined;
    }
  }
}

/** The regular tick, or sooner when a driver-lost count reaches its bound before it. */
function nextLookInMs(ctx: RunContext): number {
  const untilLost = ctx.driverWatch.msUntilLost(ctx.clock.now());
  // A bound already due without a verdict (the last look failed) goes back to the regular tick: no busy loop.
  return untilLost !== undefined && untilLost > 0 ? Math.min(ctx.pacing.statusPollMs, untilLost) : ctx.pacing.statusPollMs;
}

async function tailUntilEnd(ctx: RunContext, submissionId: string, follow: Follow): Promise<LoopEnd> {
  const { client, clock, reporter, printer, pacing } = ctx;
  const backoff = createBackoff(pacing.backoffMinMs, pacing.backoffMaxMs);
  const stopped = (): LoopEnd => ({ kind: 'outcome', outcome: follow.verdict ?? outcome('Terminated', 'stopped while following the job') });

  // Output flowing while the job was last seen PENDING means it runs now: look at once rather than at the
  // next tick, so the termination message carries RUNNING and the driver's node as early as possible.
  const onChunk = (chunk: string) => {
    printer.onChunk(chunk);
    if (ctx.knowledge.lastStatus === undefined || ctx.knowledge.lastStatus === 'PENDING') follow.wake.abort();
  };

  for (;;) {
    if (follow.over.signal.aborted) return stopped();
    follow.tail = new AbortController();
    printer.newConnection();
    const signal = AbortSignal.any([follow.over.signal, follow.tail.signal]);
    const tail = await client.tailLogs(submissionId, { onChunk, signal, keepAliveMs: 15_000 });
    if (follow.over.signal.aborted) return stopped();
    if (tail.kind === 'rejected') return { kind: 'outcome', outcome: outcome('Rejected', `the dashboard rejected the log stream: ${tail.message}`) };

    const look = await observeJob(ctx, submissionId);
    if (look.kind === 'terminal') return { kind: 'terminal', job: look.job };
    const ended = verdictOf(ctx, look);
    if (ended) return { kind: 'outcome', outcome: ended };
    if (follow.over.signal.aborted) return stopped();

    const why =
      tail.kind === 'closed' || tail.kind === 'cut'
        ? `close ${tail.code}`
        : tail.kind === 'aborted'
          ? 'status check'
          : tail.kind === 'limit'
            ? `log bound of ${tail.bytes} bytes`
            : tail.message;
    if ((tail.kind === 'closed' || tail.kind === 'cut') && tail.chunks > 0) backoff.reset();
    if (look.kind === 'live' || tail.kind === 'closed' || tail.kind === 'cut') {
      reporter.line('warn', statusLines.reconnecting(submissionId, why), { event: 'reconnecting', status: ctx.knowledge.lastStatus });
    }
    await clock.sleep(backoff.next(), follow.over.signal);
  }
}
