// Last step, once Ray reports a terminal status: complete the output from GET /logs (the stream can miss
// the last chunk, ray#46413; what was printed is not printed again), print Ray CLI's outcome lines and choose
// the exit code: SUCCEEDED and STOPPED 0 (as `ray job submit`), FAILED 1.
import type { JobDetails } from '@rayjob/ray-client';
import { outcome, type Outcome } from '../exit.ts';
import { statusLines } from '../output/status-lines.ts';
import type { RunContext } from './context.ts';

const logFetchAttempts = 3;

export async function finish(ctx: RunContext, submissionId: string, job: JobDetails): Promise<Outcome> {
  const { client, clock, reporter, printer } = ctx;
  for (let attempt = 1; attempt <= logFetchAttempts; attempt += 1) {
    const logs = await client.getLogs(submissionId);
    if (logs.kind === 'ok') {
      printer.complete(logs.value);
      break;
    }
    if (attempt === logFetchAttempts || logs.kind === 'not-found' || logs.kind === 'rejected') {
      reporter.line('warn', `could not fetch the full log to complete the output: ${logs.message}`, { event: 'logs-incomplete' });
      break;
    }
    await clock.sleep(ctx.pacing.backoffMinMs * attempt, ctx.signal);
  }

  const message = job.message ?? '';
  switch (job.status) {
    case 'SUCCEEDED':
      reporter.status('info', statusLines.succeeded(submissionId), { event: 'finished', status: job.status });
      return outcome('Succeeded', 'the job succeeded');
    case 'STOPPED':
      reporter.status('warn', statusLines.stopped(submissionId), { event: 'finished', status: job.status });
      return outcome('Succeeded', 'the job was stopped');
    case 'FAILED':
      reporter.status('error', statusLines.failed(submissionId), { event: 'finished', status: job.status });
      reporter.status('error', statusLines.statusMessage(message), { event: 'status-message' });
      return outcome('JobFailed', 'the job failed');
    default:
      return outcome('InternalError', `finish called for a job in status ${job.status}`);
  }
}
