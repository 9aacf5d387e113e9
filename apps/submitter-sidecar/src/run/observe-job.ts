// One look at the job: its status from the dashboard and, while it is RUNNING, its driver node's liveness.
// Every look feeds the unreachable budget and the driver watch, wherever it happens (between tails or
// while a tail is open).
import { isTerminalStatus, type JobDetails } from '@rayjob/ray-client';
import type { RunContext } from './context.ts';

export type Observation =
  | { kind: 'terminal'; job: JobDetails }
  | { kind: 'live'; job: JobDetails }
  | { kind: 'driver-lost'; job: JobDetails; forMs: number }
  | { kind: 'not-found'; message: string }
  | { kind: 'rejected'; message: string }
  | { kind: 'unreachable'; message: string; exhausted: boolean };

export async function observeJob(ctx: RunContext, submissionId: string): Promise<Observation> {
  const { client, clock, knowledge, budget } = ctx;
  const answer = await client.getJob(submissionId);
  switch (answer.kind) {
    case 'ok':
      break;
    case 'not-found':
      budget.answered();
      return { kind: 'not-found', message: answer.message };
    case 'rejected':
    case 'invalid-input':
    case 'already-exists':
      return { kind: 'rejected', message: answer.message };
    case 'unavailable':
    case 'bad-response':
      return { kind: 'unreachable', message: answer.message, exhausted: budget.failed() === 'exhausted' };
  }
  budget.answered();
  const job = answer.value;
  knowledge.seen = true;
  knowledge.lastStatus = job.status;
  knowledge.lastMessage = job.message ?? undefined;
  if (job.end_time != null) knowledge.endTime = job.end_time;
  if (job.driver_node_id) knowledge.driverNodeId = job.driver_node_id;
  if (isTerminalStatus(job.status)) return { kind: 'terminal', job };

  const liveness = job.status === 'RUNNING' && job.driver_node_id ? await client.nodeLiveness(job.driver_node_id) : undefined;
  const now = clock.now();
  if (ctx.driverWatch.observe(job, liveness, now) === 'lost') {
    return { kind: 'driver-lost', job, forMs: ctx.driverWatch.lostForMs(now) };
  }
  return { kind: 'live', job };
}
