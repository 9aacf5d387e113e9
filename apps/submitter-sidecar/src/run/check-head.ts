// Before a submission (addition H): is the dashboard's head the one this attempt's first submitter started on?
// The operator records that head's IP before it creates the attempt's first submitter Job. A head at another IP
// that does not know the submission ID may be a replacement of a head that ran the job unseen (the first pod
// submitted, then pod and head were lost before the operator recorded any status): submitting would run it twice.
import { outcome, type Outcome } from '../exit.ts';
import type { RunContext } from './context.ts';

export type HeadCheck = { kind: 'go' } | { kind: 'retry'; message: string } | { kind: 'refuse'; outcome: Outcome };

export async function checkExpectedHead(ctx: RunContext, submissionId: string, expectedIp: string): Promise<HeadCheck> {
  const answer = await ctx.client.headNode();
  switch (answer.kind) {
    case 'head':
      ctx.budget.answered();
      if (answer.ip === expectedIp) return { kind: 'go' };
      return { kind: 'refuse', outcome: outcome(
        'AttachTargetMissing',
        `job ${submissionId} was not found at ${ctx.client.baseUrl}, whose head is at ${answer.ip}, not at ${expectedIp} where ` +
          'this attempt\'s first submitter started: the head was replaced since then, and the job may have been submitted ' +
          'to the lost head, so it is not submitted again. Nothing was submitted',
      ) };
    case 'unavailable':
      return { kind: 'retry', message: answer.reason };
    case 'no-head':
    case 'no-endpoint':
    case 'unreadable': {
      ctx.budget.answered();
      // No check is better than a false failure: a dashboard that cannot name its head gets the job.
      const why = answer.kind === 'no-head' ? 'the node table names no head' : answer.kind === 'no-endpoint' ? 'the dashboard has no node table (404)' : answer.reason;
      ctx.reporter.line('warn', `cannot check that the head is still at ${expectedIp} (${why}); submitting without the check`, { event: 'head-check-skipped' });
      return { kind: 'go' };
    }
  }
}
