// Carries out one scenario on a driver, in its own namespace: apply the RayJob, walk the steps while
// observing about every `intervalMs`, print the timeline, then check the outcome and the invariants.
// Every wait is bounded by the step's own timeout and by the scenario's.
import { rayJobManifest } from '../scenario/manifests.ts';
import type { Scenario, Step } from '../scenario/types.ts';
import type { Driver, FaultTarget } from '../drivers/types.ts';
import { describeCondition, holds, invariantProblems, outcomeProblems, record, type RunRecord } from './checks.ts';
import { observe, type Observation } from './observe.ts';
import { submitByHand } from './submit-by-hand.ts';
import { createTimeline } from './timeline.ts';

export interface ScenarioResult {
  scenario: Scenario;
  passed: boolean;
  problems: string[];
  timeline: string[];
  seconds: number;
  final?: Observation;
  /** Every look, in order (the demo reads its phases from them). */
  observations: Observation[];
}

export interface RunOptions {
  namespace?: string;
  /** Prints timeline lines as they happen. */
  print?: (line: string) => void;
  intervalMs?: number;
  /** Keep the namespace afterwards (for looking around with kubectl). */
  keep?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One scenario's run: where it runs, its bounds, what it saw and what went wrong. */
interface ScenarioRun {
  driver: Driver;
  scenario: Scenario;
  namespace: string;
  name: string;
  interval: number;
  deadline: number;
  run: RunRecord;
  problems: string[];
  timeline: ReturnType<typeof createTimeline>;
  /** One observation, recorded and printed. */
  look(): Promise<Observation>;
}

const faultTarget = (r: ScenarioRun, o: Observation): FaultTarget => ({
  namespace: r.namespace,
  rayJob: r.name,
  ...(o.cluster && { cluster: o.cluster }),
  ...(o.headPod && { headPod: o.headPod }),
  ...(o.submitterPod && { submitterPod: o.submitterPod }),
});

/** A wait or a hold: looks every interval until its condition holds (wait) or stops holding (hold), bounded. False: the scenario stops here. */
async function watchStep(r: ScenarioRun, step: Extract<Step, { kind: 'wait' | 'hold' }>): Promise<boolean> {
  const until = Math.min(r.deadline, Date.now() + (step.kind === 'wait' ? step.timeoutSeconds : step.seconds) * 1000);
  for (;;) {
    const o = await r.look();
    if (step.kind === 'wait' && holds(step.until, o)) return true;
    if (step.kind === 'hold' && !holds(step.while, o)) {
      r.problems.push(`at ${(o.atMs / 1000).toFixed(1)}s: expected ${describeCondition(step.while)} to hold for ${step.seconds}s`);
      return false;
    }
    if (Date.now() >= until) {
      if (step.kind === 'wait') {
        r.problems.push(`timed out after ${step.timeoutSeconds}s waiting for ${describeCondition(step.until)}`);
        return false;
      }
      return true;
    }
    await sleep(r.interval);
  }
}

/** Carries out one step; false when the scenario stops here (a problem was recorded). */
async function runStep(r: ScenarioRun, step: Step): Promise<boolean> {
  if (step.kind === 'fault') {
    const o = await r.look();
    r.timeline.trigger(o.atMs, `>>> ${step.fault}`, o);
    await r.driver.fault(step.fault, faultTarget(r, o));
    return true;
  }
  if (step.kind === 'submitByHand') {
    const o = await r.look();
    const jobId = await submitByHand(r.driver, r.namespace, r.name, o.cluster, r.scenario.rayJob);
    r.timeline.trigger(o.atMs, `>>> submit the job by hand (POST /api/jobs/ on the head, then spec.jobId=${jobId})`, o);
    return true;
  }
  return watchStep(r, step);
}

/** After the terminal status: is the cluster deleted (shutdownAfterJobFinishes) or kept? Bounded look. */
async function settleCluster(r: ScenarioRun): Promise<void> {
  const settleUntil = Math.min(r.deadline, Date.now() + (r.scenario.clusterAfter === 'deleted' ? 60_000 : 3_000));
  for (;;) {
    const o = await r.look();
    if (!o.clusterExists || Date.now() >= settleUntil) {
      r.run.clusterGoneAfterEnd = !o.clusterExists;
      return;
    }
    await sleep(r.interval);
  }
}

export async function runScenario(driver: Driver, scenario: Scenario, options: RunOptions = {}): Promise<ScenarioResult> {
  const namespace = options.namespace ?? `e2e-${scenario.id.toLowerCase()}`;
  const name = `rayjob-${scenario.id.toLowerCase()}`.slice(0, 40);
  const start = Date.now();
  const timeline = createTimeline(`[${scenario.id}]`, options.print);
  const run: RunRecord = { observations: [], submissionsByCluster: new Map(), submitterPodsSeen: new Set() };
  const problems: string[] = [];
  let last: Observation | undefined;
  const r: ScenarioRun = {
    driver, scenario, namespace, name, run, problems, timeline,
    interval: options.intervalMs ?? 400,
    deadline: start + scenario.timeoutSeconds * 1000,
    async look() {
      const o = await observe(driver, namespace, name, start);
      record(run, o);
      timeline.observe(o);
      last = o;
      return o;
    },
  };

  try {
    await driver.createNamespace(namespace);
    await driver.apply(rayJobManifest(namespace, name, scenario.rayJob));
    timeline.trigger(0, `apply RayJob ${namespace}/${name} (${scenario.mode})`);
    for (const step of scenario.steps) if (!(await runStep(r, step))) break;
    const final = last ?? (await r.look());
    problems.push(...outcomeProblems(scenario.expect, final, run));
    if (scenario.clusterAfter !== 'any' && final.cluster) await settleCluster(r);
    problems.push(...invariantProblems(scenario, run));
  } catch (error) {
    problems.push(`driver error: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    if (!options.keep) await driver.deleteNamespace(namespace).catch(() => {});
  }
  for (const p of problems) options.print?.(`[${scenario.id}] PROBLEM ${p}`);
  return {
    scenario,
    passed: problems.length === 0,
    problems,
    timeline: timeline.lines(),
    seconds: (Date.now() - start) / 1000,
    ...(last && { final: last }),
    observations: run.observations,
  };
}
