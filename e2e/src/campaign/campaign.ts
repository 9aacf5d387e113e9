// A campaign: seeds run concurrently, each in its own namespace, each judged by the rules in judge.ts. Most share
// one sandbox and operator (behind the API fault proxy, their API faults aimed at their own namespace); a seed
// whose faults reach every namespace (operator restarts, watch expiry) gets a sandbox and operator of its own.
// Shared by `npm run campaign` and the CI-sized test so both run the same code.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { preparePodPrograms } from '../drivers/pod-programs.ts';
import type { ApiFaultProxy } from '../drivers/api-fault-proxy.ts';
import { startSandboxDriver, type SandboxDriver } from '../drivers/sandbox-driver.ts';
import { createLimit } from '../run/limit.ts';
import { runSeed, type SeedResult } from './run-seed.ts';
import { planSeed, type SeedPlan } from './schedule.ts';

export interface CampaignOptions {
  seeds: readonly number[];
  concurrency: number;
  operatorRestarts: boolean;
  /** Keep the sandboxes' folders here (`shared`, `own-N`: the operators' and pods' logs) instead of temporary ones. */
  dir?: string;
  /** Called as each seed ends, in the order they end. */
  onSeed?: (result: SeedResult, done: number) => void;
}

export interface CampaignResult {
  results: SeedResult[];
  failures: SeedResult[];
  minutes: number;
  seedsPerMinute: number;
  apiFaultsInjected: unknown;
  /** The operator's exits nobody asked for (each one a bug, whatever the seeds say). */
  operatorCrashes: string[];
}

/** The one-line command that replays a seed alone. */
export const replayCommand = (seed: number): string => `npm run campaign -- --seed ${seed}`;

/** A failing seed's report: its problems, its events and the replay command. */
export function describeFailure(result: SeedResult): string {
  return [
    `seed ${result.seed}: WRONG: ${result.problems.join('; ')}`,
    ...result.events.map((e) => `  ${e}`),
    `  replay: ${replayCommand(result.seed)}`,
  ].join('\n');
}

/**
 * Seeds whose faults cannot be aimed at their own objects: an operator restart, or its watches (which serve every
 * namespace) ending or answered 410. Each of these runs on a sandbox and operator of its own, so neither the
 * seeds beside it nor its replay alone see a different set of faults.
 */
export function needsOwnOperator(plan: SeedPlan): boolean {
  return plan.faults.some((f) => f.fault.kind === 'operator' || (f.fault.kind === 'api' && (f.fault.fault === 'expireWatches' || f.fault.fault === 'gone')));
}

type Environment = SandboxDriver & { proxy: ApiFaultProxy };

export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const started = Date.now();
  const concurrency = Math.max(1, options.concurrency);
  const plans = options.seeds.map((seed) => planSeed(seed, { operatorRestarts: options.operatorRestarts }));
  const own = plans.filter(needsOwnOperator);
  const shared = plans.filter((p) => !needsOwnOperator(p));
  // A third of the slots (at least one) for seeds with an operator of their own, the rest on the shared one.
  const ownSlots = own.length === 0 ? 0 : shared.length === 0 ? Math.min(concurrency, own.length) : Math.max(1, Math.min(own.length, Math.floor(concurrency / 3)));
  const sharedSlots = Math.max(1, concurrency - ownSlots);
  const programs = await preparePodPrograms();
  const environments: Environment[] = [];
  const start = async (slots: number, name: string): Promise<Environment> => {
    // KubeRay's reconcileConcurrency (default 1): the shared operator serves many seeds at once, as a busy cluster's would.
    const operatorArgs = [`--reconcile-concurrency=${Math.min(8, slots)}`];
    const dir = options.dir === undefined ? undefined : join(options.dir, name);
    if (dir !== undefined) await mkdir(dir, { recursive: true });
    const driver = await startSandboxDriver({ apiFaults: true, podPrograms: programs, operatorArgs, ...(dir !== undefined && { dir }) });
    if (!driver.proxy) {
      await driver.close();
      throw new Error('the API fault proxy did not start');
    }
    const environment = driver as Environment;
    environments.push(environment);
    return environment;
  };
  try {
    const sharedEnvironment = shared.length > 0 ? await start(sharedSlots, 'shared') : undefined;
    const idle: Environment[] = [];
    let ownStarted = 0;
    let done = 0;
    const run = async (plan: SeedPlan, environment: Environment): Promise<SeedResult> => {
      const result = await runSeed({ driver: environment, proxy: environment.proxy, operator: environment.operator }, plan);
      done += 1;
      options.onSeed?.(result, done);
      return result;
    };
    const sharedLimit = createLimit(sharedSlots);
    const ownLimit = createLimit(Math.max(1, ownSlots));
    const results = await Promise.all(plans.map((plan) => {
      if (!needsOwnOperator(plan) && sharedEnvironment) return sharedLimit(() => run(plan, sharedEnvironment));
      return ownLimit(async () => {
        // Sandboxes are reused one seed at a time: at most ownSlots of them, started as first needed.
        const environment = idle.pop() ?? (await start(1, `own-${(ownStarted += 1)}`));
        try {
          return await run(plan, environment);
        } finally {
          idle.push(environment);
        }
      });
    }));
    const minutes = (Date.now() - started) / 60_000;
    const injected: Record<string, number> = {};
    for (const e of environments) for (const [k, v] of Object.entries(e.proxy.injected())) injected[k] = (injected[k] ?? 0) + v;
    return {
      results,
      failures: results.filter((r) => r.problems.length > 0),
      minutes,
      seedsPerMinute: results.length / minutes,
      apiFaultsInjected: injected,
      operatorCrashes: environments.flatMap((e) => e.operator.crashes()),
    };
  } finally {
    await Promise.all(environments.map((e) => e.close()));
    await programs.remove();
  }
}
