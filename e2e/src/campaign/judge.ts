// The rules every seed's final state is judged by, whatever faults it saw:
//   a job Ray reported SUCCEEDED ends Complete, one Ray reported FAILED ends Failed;
//   no live Ray job under a Failed RayJob (a job whose head node died with its agent is not live, nor one the
//   cluster's new head does not know after the head that ran it was lost);
//   no job run twice on a cluster; the RayJob reaches a terminal state at all;
//   nothing leaks: after the RayJob is deleted its clusters, Jobs and pods go too.
import type { Observation } from '../run/observe.ts';

export interface SeedRecord {
  final?: Observation;
  /** Every status Ray reported for the job, in order. */
  rayStatuses: string[];
  /** Submissions per cluster, summed over its head pods (see countSubmissions). */
  submissionsByCluster: Map<string, number>;
  /** The most each head pod listed, by `<cluster>/<head pod>`. */
  submissionsByHead?: Map<string, number>;
  /** The head's agent was killed (the job's driver node is dead, its RUNNING status frozen). */
  agentKilled: boolean;
  /** Objects left in the namespace after the RayJob was deleted and the bound passed. */
  leaked: string[];
  reachedTerminal: boolean;
  /** After the RayJob failed, the head that ran the job was gone (replaced or deleted) or had no such job. */
  rayJobGone?: boolean;
}

const live = new Set(['PENDING', 'RUNNING']);

export function judgeSeed(record: SeedRecord): string[] {
  const problems: string[] = [];
  const final = record.final;
  if (!record.reachedTerminal || !final) {
    problems.push(`the RayJob never became Complete or Failed (last: ${final?.deploymentStatus ?? 'none'}/${final?.jobStatus ?? ''} ${final?.reason ?? ''})`);
  } else {
    const everSucceeded = record.rayStatuses.includes('SUCCEEDED');
    const everFailed = record.rayStatuses.includes('FAILED');
    if (everSucceeded && final.deploymentStatus !== 'Complete') {
      problems.push(`Ray reported SUCCEEDED but the RayJob is ${final.deploymentStatus}/${final.reason}: ${final.message}`);
    }
    if (everFailed && !everSucceeded && final.deploymentStatus === 'Complete') problems.push('Ray reported FAILED but the RayJob is Complete');
    const lastRay = record.rayStatuses.at(-1);
    if (final.deploymentStatus === 'Failed' && lastRay !== undefined && live.has(lastRay) && !record.agentKilled && record.rayJobGone !== true) {
      problems.push(`a live Ray job (${lastRay}) under a Failed RayJob (${final.reason})`);
    }
  }
  for (const [cluster, count] of record.submissionsByCluster) {
    if (count > 1) problems.push(`the Ray job ran ${count} times on ${cluster}`);
  }
  if (record.leaked.length > 0) problems.push(`left behind after the RayJob was deleted: ${record.leaked.join(', ')}`);
  return problems;
}
