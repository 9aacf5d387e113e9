// Conditions over one observation, and the checks over a whole run: the exact final status, the cluster never
// deleted under a live job, the Ray job run once per attempt, and the extra evidence a case asks for.
import type { Condition, Outcome, Scenario } from '../scenario/types.ts';
import type { Observation } from './observe.ts';

export function holds(c: Condition, o: Observation): boolean {
  if (c.deploymentStatus !== undefined && o.deploymentStatus !== c.deploymentStatus) return false;
  if (c.jobStatus !== undefined && o.jobStatus !== c.jobStatus) return false;
  if (c.progressAtLeast !== undefined && o.progress < c.progressAtLeast) return false;
  if (c.submitterExited !== undefined && o.submitterExited !== c.submitterExited) return false;
  if (c.submitterPresent !== undefined && (o.submitter === 'Pending' || o.submitter === 'Running') !== c.submitterPresent) return false;
  if (c.clusterExists !== undefined && o.clusterExists !== c.clusterExists) return false;
  if (c.failedAtLeast !== undefined && o.failed < c.failedAtLeast) return false;
  return true;
}

export function describeCondition(c: Condition): string {
  return Object.entries(c).map(([k, v]) => `${k}=${String(v)}`).join(' ');
}

/** What the run saw, beyond the last observation. */
export interface RunRecord {
  observations: Observation[];
  /**
   * Submissions seen on each cluster: the sum, over the cluster's head pods, of the most each head listed. A head
   * lost without GCS fault tolerance is replaced by one that lists nothing, so a job submitted again to the
   * replacement counts twice here although each head lists it once.
   */
  submissionsByCluster: Map<string, number>;
  /** The most each head pod listed, by `<cluster>/<head pod>`. */
  submissionsByHead?: Map<string, number>;
  submitterPodsSeen: Set<string>;
  lastLogs?: string;
  lastRayStatus?: string;
  clusterGoneAfterEnd?: boolean;
}

/**
 * Counts one look's submissions: the most each head pod listed, summed over a cluster's heads. Shared by the
 * scenarios and the campaign's judge, so both catch a job submitted again to a replacement head.
 */
export function countSubmissions(counts: Pick<RunRecord, 'submissionsByCluster' | 'submissionsByHead'>, o: Observation): void {
  if (!o.cluster || o.submissions === undefined) return;
  const byHead = (counts.submissionsByHead ??= new Map());
  const key = `${o.cluster}/${o.headPod ?? ''}`;
  byHead.set(key, Math.max(byHead.get(key) ?? 0, o.submissions));
  let sum = 0;
  for (const [head, count] of byHead) if (head.startsWith(`${o.cluster}/`)) sum += count;
  counts.submissionsByCluster.set(o.cluster, sum);
}

export function record(run: RunRecord, o: Observation): void {
  run.observations.push(o);
  countSubmissions(run, o);
  for (const pod of o.submitterPods) run.submitterPodsSeen.add(pod);
  if (o.logs !== undefined) run.lastLogs = o.logs;
  if (o.rayStatus !== undefined) run.lastRayStatus = o.rayStatus;
}

/** Every way the final state differs from `expect`; empty when it matches. */
export function outcomeProblems(expect: Outcome, final: Observation, run: Pick<RunRecord, 'lastLogs' | 'lastRayStatus' | 'submitterPodsSeen'>): string[] {
  const problems: string[] = [];
  const same = (what: string, want: unknown, got: unknown) => {
    if (want !== undefined && want !== got) problems.push(`${what}: want ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  };
  same('jobDeploymentStatus', expect.deploymentStatus, final.deploymentStatus);
  same('jobStatus', expect.jobStatus, final.jobStatus);
  same('reason', expect.reason, final.reason);
  same('succeeded', expect.succeeded, final.succeeded);
  same('failed', expect.failed, final.failed);
  same("Ray's own job status", expect.rayStatus, run.lastRayStatus);
  if (typeof expect.message === 'string' && final.message !== expect.message) {
    problems.push(`message: want ${JSON.stringify(expect.message)}, got ${JSON.stringify(final.message)}`);
  }
  if (expect.message instanceof RegExp && !expect.message.test(final.message)) {
    problems.push(`message: want it to match ${String(expect.message)}, got ${JSON.stringify(final.message)}`);
  }
  for (const line of expect.logsContain ?? []) {
    if (!(run.lastLogs ?? '').includes(line)) problems.push(`the Ray job's logs lack ${JSON.stringify(line)}`);
  }
  if (expect.submitterPodsAtMost !== undefined && run.submitterPodsSeen.size > expect.submitterPodsAtMost) {
    problems.push(`submitter pods: want at most ${expect.submitterPodsAtMost}, saw ${run.submitterPodsSeen.size} (${[...run.submitterPodsSeen].join(', ')})`);
  }
  return problems;
}

/** The invariants every scenario holds, whatever its outcome. */
export function invariantProblems(scenario: Scenario, run: RunRecord): string[] {
  const problems: string[] = [];
  const early = clusterGoneUnderLiveJob(run.observations);
  if (early) {
    const status = early.deploymentStatus === 'Running' || early.deploymentStatus === 'Waiting' ? early.deploymentStatus : `${early.deploymentStatus} with jobStatus ${early.jobStatus}`;
    problems.push(`at ${(early.atMs / 1000).toFixed(1)}s the RayCluster ${early.cluster} was gone while the RayJob was ${status}`);
  }
  for (const [cluster, count] of run.submissionsByCluster) {
    if (count > scenario.runsPerAttempt) problems.push(`the Ray job was submitted ${count} times on ${cluster}`);
  }
  if (scenario.clusterAfter === 'deleted' && run.clusterGoneAfterEnd === false) problems.push('the RayCluster was not deleted after the job finished');
  if (scenario.clusterAfter === 'kept' && run.clusterGoneAfterEnd === true) problems.push('the RayCluster was deleted although the spec keeps it');
  return problems;
}

/** States in which the operator lets the cluster go on purpose, whatever the job does (suspend, a retry's new attempt). */
const releasing = new Set(['Suspending', 'Suspended', 'Retrying', 'New', 'Initializing']);
const liveJob = new Set(['RUNNING', 'PENDING']);

/**
 * The first look at which the RayJob's cluster, seen before, is gone while the RayJob still counts its job as
 * live: Running or Waiting, or a RUNNING/PENDING jobStatus under a terminal RayJob (KubeRay's #2314 pair before
 * its cluster deletion). Once the cluster is gone the dashboard cannot be asked, so this is judged on the
 * RayJob's own status. One look reads the RayJob and the clusters side by side, so it may pair a RayJob read
 * just before its Complete write with a cluster list read just after the deletion; a look like that counts only
 * when the next look at the same cluster shows the same (a real early deletion does not heal).
 */
function clusterGoneUnderLiveJob(observations: readonly Observation[]): Observation | undefined {
  const seen = new Set<string>();
  const early = (o: Observation): boolean =>
    o.cluster !== '' && !o.clusterExists && seen.has(o.cluster) && !releasing.has(o.deploymentStatus)
    && (o.deploymentStatus === 'Running' || o.deploymentStatus === 'Waiting' || liveJob.has(o.jobStatus));
  for (const [i, o] of observations.entries()) {
    if (o.clusterExists && o.cluster !== '') seen.add(o.cluster);
    if (!early(o)) continue;
    const next = observations.slice(i + 1).find((later) => later.cluster === o.cluster);
    if (next === undefined || early(next)) return o;
  }
  return undefined;
}
