// Driver liveness while Ray says RUNNING (the submitter contract, exit 5): the driver's node has to be DEAD or
// missing from the node table for --driver-lost-after of the submitter's own observation. An inconclusive
// answer neither starts nor resets the count ("inconclusive is not dead"); ALIVE, or any status other than
// RUNNING, resets it.
import type { JobDetails, NodeLiveness } from '@rayjob/ray-client';

export interface DriverWatch {
  /** 'lost' once the bound is reached. */
  observe(job: Pick<JobDetails, 'status' | 'driver_node_id'>, liveness: NodeLiveness | undefined, now: number): 'ok' | 'lost';
  lostForMs(now: number): number;
  /** How long until the bound is reached if nothing changes; undefined while nothing is being counted. */
  msUntilLost(now: number): number | undefined;
}

export function createDriverWatch(lostAfterMs: number): DriverWatch {
  let badSince: number | undefined;
  return {
    observe(job, liveness, now) {
      if (job.status !== 'RUNNING' || !job.driver_node_id || liveness === undefined) {
        badSince = undefined;
        return 'ok';
      }
      if (liveness.kind === 'alive') badSince = undefined;
      else if (liveness.kind === 'dead' || liveness.kind === 'missing') badSince ??= now;
      return badSince !== undefined && now - badSince >= lostAfterMs ? 'lost' : 'ok';
    },
    lostForMs: (now) => (badSince === undefined ? 0 : now - badSince),
    msUntilLost: (now) => (badSince === undefined ? undefined : badSince + lostAfterMs - now),
  };
}
