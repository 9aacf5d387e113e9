// Step 3: follow the job until Ray says it is terminal. A log-stream end is never read as the job's end:
// after any close or error the status is asked; while the job is not terminal the tail is reopened with
// backoff (the printer drops the replayed prefix). While a tail is open, a watcher keeps looking at the
// status and the driver's node, so a lost driver or a lost head is noticed even if the stream stays quiet.
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

export async function followJob(ctx: RunContext, submissionId: string): Promise<Outcome> {
  const { client, clock, reporter, printer, pacing } = ctx;
  const backoff = createBackoff(pacing.backoffMinMs, pacing.backoffMaxMs);

  for (;;) {
    if (ctx.signal.aborted) return outcome('Terminated', 'stopped while following the job');
    const stop = new AbortController();
    const onOuterAbort = () => stop.abort();
    ctx.signal.addEventListener('abort', onOuterAbort, { once: true });
    let verdict: Outcome | undefined;

    // Output flowing while the job was last seen PENDING means it runs now: look at once rather than at the
    // next poll, so the termination message carries RUNNING and the driver's node as early as possible.
    let wake = new AbortController();
    const onChunk = (chunk: string) => {
      printer.onChunk(chunk);
      if (ctx.knowledge.lastStatus === undefined || ctx.knowledge.lastStatus === 'PENDING') wake.abort();
    };
    const watcher = (async () => {
      let terminalSince: number | undefined;
      while (!stop.signal.aborted) {
        if (!wake.signal.aborted) await clock.sleep(pacing.statusPollMs, AbortSignal.any([stop.signal, wake.signal]));
        wake = new AbortController();
        if (stop.signal.aborted) return;
        const look = await observeJob(ctx, submissionId);
        verdict = verdictOf(ctx, look);
        if (verdict) return stop.abort();
        if (look.kind === 'terminal') {
          terminalSince ??= clock.now();
          // Ray closes the tail 1–3 s after the end; a tail that stays open longer is not waited for.
          if (clock.now() - terminalSince >= pacing.tailGraceMs) return stop.abort();
        }
      }
    })();

    printer.newConnection();
    const tail = await client.tailLogs(submissionId, { onChunk, signal: stop.signal, keepAliveMs: 15_000 });
    stop.abort();
    ctx.signal.removeEventListener('abort', onOuterAbort);
    await watcher;
    if (verdict) return verdict;
    if (ctx.signal.aborted) return outcome('Terminated', 'stopped while following the job');
    if (tail.kind === 'rejected') return outcome('Rejected', `the dashboard rejected the log stream: ${tail.message}`);

    const look = await observeJob(ctx, submissionId);
    if (look.kind === 'terminal') return finish(ctx, submissionId, look.job);
    const ended = verdictOf(ctx, look);
    if (ended) return ended;

    const why =
      tail.kind === 'closed' || tail.kind === 'cut'
        ? `close ${tail.code}`
        : tail.kind === 'aborted'
          ? 'status check'
          : tail.message;
    if ((tail.kind === 'closed' || tail.kind === 'cut') && tail.chunks > 0) backoff.reset();
    if (look.kind === 'live' || tail.kind === 'closed' || tail.kind === 'cut') {
      reporter.line('warn', statusLines.reconnecting(submissionId, why), { event: 'reconnecting', status: ctx.knowledge.lastStatus });
    }
    await clock.sleep(backoff.next(), ctx.signal);
  }
}
