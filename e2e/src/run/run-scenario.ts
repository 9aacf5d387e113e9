// Carries out one scenario on a driver, in its own namespace: apply the RayJob, walk the steps while
// observing about every `intervalMs`, print the timeline, then check the outcome and the invariants.
// Every wait is bounded by the step's own timeout and by the scenario's.
import { rayJobManifest } from '../scenario/manifests.ts';
import type { Scenario } from '../scenario/types.ts';
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

// structure-exception(function-lines runScenario): over the limit before #21 set it; the split is left for a follow-up of #21
export async function runScenario(driver: Driver, scenario: Scenario, options: RunOptions = {}): Promise<ScenarioResult> {
  const namespace = options.namespace ?? `e2e-${scenario.id.toLowerCase()}`;
  const name = `rayjob-${scenario.id.toLowerCase()}`.slice(0, 40);
  const interval = options.intervalMs ?? 400;
  const start = Date.now();
  const deadline = start + scenario.timeoutSeconds * 1000;
  const timeline = createTimeline(`[${scenario.id}]`, options.print);
  const run: RunRecord = { observations: [], submissionsByCluster: new Map(), submitterPodsSeen: new Set() };
  const problems: string[] = [];
  let last: Observation | undefined;

  const look = async (): Promise<Observation> => {
    const o = await observe(driver, namespace, name, start);
    record(run, o);
    timeline.observe(o);
    last = o;
    return o;
  };
  const target = (o: Observation): FaultTarget => ({
    namespace,
    rayJob: name,
    ...(o.cluster && { cluster: o.cluster }),
    ...(o.headPod && { headPod: o.headPod }),
    ...(o.submitterPod && { submitterPod: o.submitterPod }),
  });

  try {
    await driver.createNamespace(namespace);
    await driver.apply(rayJobManifest(namespace, name, scenario.rayJob));
    timeline.trigger(0, `apply RayJob ${namespace}/${name} (${scenario.mode})`);
    steps: for (const step of scenario.steps) {
      if (step.kind === 'fault') {
        const o = await look();
        timeline.trigger(o.atMs, `>>> ${step.fault}`, o);
        await driver.fault(step.fault, target(o));
        continue;
      }
      if (step.kind === 'submitByHand') {
        const o = await look();
        const jobId = await submitByHand(driver, namespace, name, o.cluster, scenario.rayJob);
        timeline.trigger(o.atMs, `>>> submit the job by hand (POST /api/jobs/ on the head, then spec.jobId=${jobId})`, o);
        continue;
      }
      const until = Math.min(deadline, Date.now() + (step.kind === 'wait' ? step.timeoutSeconds : step.seconds) * 1000);
      for (;;) {
        const o = await look();
        if (step.kind === 'wait' && holds(step.until, o)) break;
        if (step.kind === 'hold' && !holds(step.while, o)) {
          problems.push(`at ${(o.atMs / 1000).toFixed(1)}s: expected ${describeCondition(step.while)} to hold for ${step.seconds}s`);
          break steps;
        }
        if (Date.now() >= until) {
          if (step.kind === 'wait') {
            problems.push(`timed out after ${step.timeoutSeconds}s waiting for ${describeCondition(step.until)}`);
            break steps;
          }
          break;
        }
        await sleep(interval);
      }
    }
    const final = last ?? (await look());
    problems.push(...outcomeProblems(scenario.expect, final, run));
    if (scenario.clusterAfter !== 'any' && final.cluster) {
      // After the terminal status: is the cluster deleted (shutdownAfterJobFinishes) or kept? Bounded look.
      const settleUntil = Math.min(deadline, Date.now() + (scenario.clusterAfter === 'deleted' ? 60_000 : 3_000));
      for (;;) {
        const o = await look();
        if (!o.clusterExists || Date.now() >= settleUntil) {
          run.clusterGoneAfterEnd = !o.clusterExists;
          break;
        }
        await sleep(interval);
      }
    }
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
