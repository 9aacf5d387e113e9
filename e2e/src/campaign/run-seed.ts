// One seed of the campaign: apply its RayJob in its own namespace, fire its faults as the job's progress
// passes each point, wait (bounded) for a terminal status, judge it, then delete the RayJob and check that
// nothing is left behind.
import type { ApiFaultProxy } from '../drivers/api-fault-proxy.ts';
import type { Driver } from '../drivers/types.ts';
import type { OperatorProcess } from '../drivers/operator-process.ts';
import { rayJobManifest } from '../scenario/manifests.ts';
import { countSubmissions } from '../run/checks.ts';
import { observe, type Observation } from '../run/observe.ts';
import { judgeSeed, type SeedRecord } from './judge.ts';
import { describeFault, type CampaignFault, type SeedPlan } from './schedule.ts';

export interface SeedContext {
  driver: Driver;
  proxy: ApiFaultProxy;
  operator: OperatorProcess;
  /** Bound for the RayJob to become terminal (seconds). */
  terminalWithinSeconds?: number;
}

export interface SeedResult {
  seed: number;
  plan: SeedPlan;
  problems: string[];
  events: string[];
  seconds: number;
  /** How the RayJob ended: `Complete/` or `Failed/<reason>` (or its last state when it never ended). */
  outcome: string;
  /** Seconds from the apply to each milestone the seed reached (where its time went). */
  phases: Partial<Record<SeedPhase, number>>;
}

/** A seed's milestones, in order: its cluster's head serves, its job prints, it ends, its objects are gone. */
export type SeedPhase = 'clusterCreated' | 'headCreated' | 'headRunning' | 'jobStarted' | 'terminal' | 'judged' | 'cleanedUp';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const terminal = new Set(['Complete', 'Failed']);

async function fire(ctx: SeedContext, fault: CampaignFault, o: Observation, namespace: string, name: string): Promise<void> {
  switch (fault.kind) {
    case 'job':
      await ctx.driver.fault(fault.fault, {
        namespace, rayJob: name,
        ...(o.cluster && { cluster: o.cluster }), ...(o.headPod && { headPod: o.headPod }), ...(o.submitterPod && { submitterPod: o.submitterPod }),
      });
      return;
    case 'api':
      // Bursts and conflicts hit the seed's own namespace only; watches are the operator's, for every namespace
      // (they reach every seed running at the time, see hasSharedFaults in campaign.ts).
      if (fault.fault === 'burst5xx') ctx.proxy.failNext(5, 503, namespace);
      else if (fault.fault === 'burst429') ctx.proxy.failNext(5, 429, namespace);
      else if (fault.fault === 'conflicts') ctx.proxy.conflictNext(3, namespace);
      else if (fault.fault === 'expireWatches') ctx.proxy.expireWatches();
      else ctx.proxy.goneNext(3);
      return;
    case 'operator':
      await ctx.operator.stop();
      ctx.operator.start();
      return;
  }
}

/** One seed's run: where it is, what it saw, and which of its faults are still to fire. */
interface SeedRun {
  ctx: SeedContext;
  namespace: string;
  name: string;
  start: number;
  record: SeedRecord;
  pending: SeedPlan['faults'];
  phases: SeedResult['phases'];
  note(what: string): void;
}

/** The job's progress as the loop last saw it: when it last moved, and whether it ever did. */
interface ProgressTrack {
  lastProgress: number;
  stalledSince: number;
  started: boolean;
  /** The head pod that last answered for the job. */
  rayHead: string | undefined;
}

const reached = (run: SeedRun, phase: SeedPhase) => { run.phases[phase] ??= (Date.now() - run.start) / 1000; };

/** Records one look: the Ray statuses and submissions it shows and the milestones it reached. */
function recordLook(run: SeedRun, o: Observation, track: ProgressTrack): void {
  const { record } = run;
  record.final = o;
  if (o.rayStatus !== undefined && record.rayStatuses.at(-1) !== o.rayStatus) record.rayStatuses.push(o.rayStatus);
  if (o.rayStatus !== undefined) track.rayHead = o.headPod;
  countSubmissions(record, o);
  if (o.clusterExists) reached(run, 'clusterCreated');
  if (o.headPod !== undefined) reached(run, 'headCreated');
  if (o.headPhase === 'Running') reached(run, 'headRunning');
  if (o.progress > 0) reached(run, 'jobStarted');
}

/**
 * Fires the faults that are due. A fault fires when its step is reached, or when the job, once started, stopped
 * making progress (after a head loss the steps never come; the remaining faults still fire, as they would on a
 * real cluster). A job not started yet is only slow to start (a loaded machine): its faults wait, they are meant
 * for a running job.
 */
async function fireDueFaults(run: SeedRun, o: Observation, track: ProgressTrack): Promise<void> {
  const { pending } = run;
  while (pending[0] && o.deploymentStatus === 'Running' && (o.progress >= pending[0].atStep || (track.started && Date.now() - track.stalledSince > 15_000))) {
    const next = pending.shift();
    if (!next) break;
    // A fault is meant for a running job; one whose job already printed its last step would race the
    // operator's own observation of the end (the schedule's point, not the rules, would be tested).
    if (o.progressOf > 0 && o.progress >= o.progressOf) {
      run.note(`fault ${describeFault(next.fault)} skipped: the job already finished its steps`);
      continue;
    }
    run.note(`fault ${describeFault(next.fault)} at step ${o.progress}`);
    if (next.fault.kind === 'job' && next.fault.fault === 'killDashboardAgent') run.record.agentKilled = true;
    await fire(run.ctx, next.fault, o, run.namespace, run.name).catch((error: unknown) => run.note(`fault not applied: ${(error as Error).message}`));
  }
}

/** Looks at the seed until its RayJob is terminal (bounded), firing the faults on the way; the head that last ran the job. */
async function watchUntilTerminal(run: SeedRun): Promise<string | undefined> {
  const until = Date.now() + (run.ctx.terminalWithinSeconds ?? 240) * 1000;
  const track: ProgressTrack = { lastProgress: -1, stalledSince: Date.now(), started: false, rayHead: undefined };
  while (Date.now() < until) {
    // Progress (from the logs) only times the faults: once they all fired, the logs need not be read.
    const o = await observe(run.ctx.driver, run.namespace, run.name, run.start, Date.now, { logs: run.pending.length > 0 }).catch((error: unknown) => {
      // One look that failed (a request timed out on a loaded machine) is no verdict: look again.
      run.note(`look failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    });
    if (o === undefined) {
      await sleep(1000);
      continue;
    }
    recordLook(run, o, track);
    if (terminal.has(o.deploymentStatus)) {
      reached(run, 'terminal');
      run.record.reachedTerminal = true;
      run.note(`terminal ${o.deploymentStatus}/${o.jobStatus} ${o.reason}`);
      break;
    }
    if (o.progress !== track.lastProgress) {
      track.lastProgress = o.progress;
      track.stalledSince = Date.now();
    }
    if (o.progress > 0) track.started = true;
    await fireDueFaults(run, o, track);
    // Twice a step while a fault waits for its step; once a second after (Ray's statuses change no faster).
    await sleep(run.pending.length > 0 ? 500 : 1000);
  }
  return track.rayHead;
}

/**
 * Lets a stop reach Ray before judging "no live job under a Failed RayJob" (not after the agent died: its job's
 * RUNNING is frozen for good, and the judge does not count it as live).
 */
async function awaitRayJobEnd(run: SeedRun, rayHead: string | undefined): Promise<void> {
  const { record } = run;
  if (record.final?.deploymentStatus !== 'Failed' || record.agentKilled) return;
  // A head lost mid-job comes back without the job (no GCS FT): a 404 from the running head means the job is gone.
  for (let i = 0; i < 30; i += 1) {
    const o = await observe(run.ctx.driver, run.namespace, run.name, run.start);
    if (o.rayStatus !== undefined && record.rayStatuses.at(-1) !== o.rayStatus) record.rayStatuses.push(o.rayStatus);
    // No GCS FT: a Ray job lives only on the head pod that ran it; a new head (or none) means the job is gone.
    record.rayJobGone = o.rayJobNotFound === true || (rayHead !== undefined && o.headPod !== rayHead);
    if (record.rayJobGone || (o.rayStatus !== undefined && !['PENDING', 'RUNNING'].includes(o.rayStatus))) break;
    await sleep(1000);
  }
}

export async function runSeed(ctx: SeedContext, plan: SeedPlan): Promise<SeedResult> {
  const start = Date.now();
  const events: string[] = [];
  const run: SeedRun = {
    ctx, start,
    namespace: `seed-${plan.seed}`,
    name: `campaign-${plan.seed}`,
    record: { rayStatuses: [], submissionsByCluster: new Map(), agentKilled: false, leaked: [], reachedTerminal: false },
    pending: [...plan.faults],
    phases: {},
    note: (what: string) => events.push(`[${((Date.now() - start) / 1000).toFixed(1)}s] ${what}`),
  };
  const { namespace, name, record } = run;
  const problems: string[] = [];
  try {
    await ctx.driver.createNamespace(namespace);
    await ctx.driver.apply(rayJobManifest(namespace, name, plan.shape));
    run.note(`apply ${plan.shape.mode} steps=${plan.shape.steps}${plan.shape.exitCode ? ' exit=1' : ''} faults=${plan.faults.map((f) => `${describeFault(f.fault)}@${f.atStep}`).join(',') || 'none'}`);
    const rayHead = await watchUntilTerminal(run);
    await awaitRayJobEnd(run, rayHead);
    reached(run, 'judged');
    // The RayJob alone is deleted: its finalizer, owner references and the operator must take the rest.
    await ctx.driver.remove('rayjobs', namespace, name);
    record.leaked = await leftovers(ctx.driver, namespace);
    reached(run, 'cleanedUp');
    await ctx.driver.deleteNamespace(namespace).catch(() => {});
  } catch (error) {
    problems.push(`driver error: ${error instanceof Error ? error.message : String(error)}`);
  }
  problems.push(...judgeSeed(record));
  return { seed: plan.seed, plan, problems, events, seconds: (Date.now() - start) / 1000, phases: run.phases, outcome: `${record.final?.deploymentStatus ?? 'none'}/${record.final?.reason ?? ''}` };
}

/** What is still in the namespace 60 s after the RayJob was deleted (bounded), by kind and name. */
async function leftovers(driver: Driver, namespace: string): Promise<string[]> {
  const until = Date.now() + 60_000;
  for (;;) {
    const found: string[] = [];
    for (const resource of ['rayjobs', 'rayclusters', 'jobs', 'pods'] as const) {
      const items = await driver.list(resource, namespace).catch(() => []);
      found.push(...items.map((i) => `${resource}/${i.metadata.name}`));
    }
    if (found.length === 0 || Date.now() > until) return found;
    await sleep(1000);
  }
}
