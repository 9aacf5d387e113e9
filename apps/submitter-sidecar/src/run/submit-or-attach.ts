// Step 2, idempotent: look the submission ID up; submit only when Ray does not know it (never with
// --attach-only: then an unknown ID ends the run with exit 6, AttachTargetMissing, as does a head at another IP
// than --expected-head-ip); treat Ray's "already exists ... Please use a different submission_id" as "attach"
// (two submitters racing, or a retry whose first POST landed). Transient failures retry until --max-unreachable.
import { outcome, type Outcome } from '../exit.ts';
import { statusLines } from '../output/status-lines.ts';
import type { RunContext } from './context.ts';
import { checkExpectedHead } from './check-head.ts';
import { observeJob } from './observe-job.ts';
import { createBackoff } from './unreachable-budget.ts';

export type Arrival = { kind: 'submitted' } | { kind: 'attached' };

export async function submitOrAttach(ctx: RunContext, submissionId: string): Promise<Arrival | Outcome> {
  const { client, clock, reporter, pacing } = ctx;
  const backoff = createBackoff(pacing.backoffMinMs, pacing.backoffMaxMs);
  const attached = (): Arrival => {
    reporter.line('info', statusLines.attached(submissionId), { event: 'attached' });
    return { kind: 'attached' };
  };

  let lookedUp = false;
  let headChecked = false;
  for (;;) {
    if (ctx.signal.aborted) return outcome('Terminated', 'stopped before the job was submitted');
    if (!lookedUp) {
      const look = await observeJob(ctx, submissionId);
      if (look.kind === 'rejected') return outcome('Rejected', `the dashboard rejected the job lookup: ${look.message}`);
      if (look.kind === 'unreachable') {
        if (look.exhausted) return outcome('Unreachable', `the dashboard stayed unreachable: ${look.message}`);
        await clock.sleep(backoff.next(), ctx.signal);
        continue;
      }
      if (look.kind !== 'not-found') return attached();
      if (ctx.config.attachOnly) {
        return outcome(
          'AttachTargetMissing',
          `job ${submissionId} was not found at ${client.baseUrl} and --attach-only forbids submitting it; ` +
            'it was seen before, so the head that ran it was lost. Nothing was submitted',
        );
      }
      lookedUp = true;
    }
    if (ctx.config.expectedHeadIp !== undefined && !headChecked) {
      const check = await checkExpectedHead(ctx, submissionId, ctx.config.expectedHeadIp);
      if (check.kind === 'retry') {
        if (ctx.budget.failed() === 'exhausted') return outcome('Unreachable', `the dashboard stayed unreachable: ${check.message}`);
        await clock.sleep(backoff.next(), ctx.signal);
        continue;
      }
      if (check.kind === 'refuse') return check.outcome;
      headChecked = true;
    }

    ctx.knowledge.submitSent = true;
    const answer = await client.submit({ ...ctx.config.request, submission_id: submissionId });
    switch (answer.kind) {
      case 'ok':
        ctx.budget.answered();
        ctx.knowledge.seen = true;
        ctx.knowledge.lastStatus ??= 'PENDING';
        if (answer.value.droppedFields.length > 0) {
          reporter.line('warn', `this Ray version does not know ${answer.value.droppedFields.join(', ')}; not sent`, {
            event: 'fields-dropped',
          });
        }
        reporter.line('info', statusLines.submitted(submissionId), { event: 'submitted' });
        return { kind: 'submitted' };
      case 'already-exists':
        ctx.budget.answered();
        ctx.knowledge.seen = true;
        return attached();
      case 'rejected':
      case 'invalid-input':
      case 'not-found':
      case 'bad-response':
        return outcome('Rejected', `the dashboard rejected the submission: ${answer.message}`);
      case 'unavailable':
        if (ctx.budget.failed() === 'exhausted') {
          return outcome('Unreachable', `the dashboard stayed unreachable: ${answer.message}`);
        }
        reporter.line('warn', `submit failed (${answer.message}); retrying`, { event: 'submit-retry' });
        await clock.sleep(backoff.next(), ctx.signal);
        // The POST may have landed before the answer was lost: the retry then answers "already exists".
        continue;
    }
  }
}
