// A campaign: seeds run concurrently on one sandbox (our operator behind the API fault proxy), each judged by
// the rules in judge.ts. Shared by `npm run campaign` and the CI-sized test so both run the same code.
import { preparePodPrograms } from '../drivers/pod-programs.ts';
import { startSandboxDriver } from '../drivers/sandbox-driver.ts';
import { createLimit } from '../run/limit.ts';
import { runSeed, type SeedResult } from './run-seed.ts';
import { planSeed } from './schedule.ts';

export interface CampaignOptions {
  seeds: readonly number[];
  concurrency: number;
  operatorRestarts: boolean;
  /** Keep the sandbox folder here (the operator's and the pods' logs) instead of a temporary one. */
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

export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const started = Date.now();
  const programs = await preparePodPrograms();
  // KubeRay's reconcileConcurrency (default 1): one operator serves every seed at once, as a busy cluster's would.
  const operatorArgs = [`--reconcile-concurrency=${Math.min(8, Math.max(1, options.concurrency))}`];
  const driver = await startSandboxDriver({ apiFaults: true, podPrograms: programs, operatorArgs, ...(options.dir !== undefined && { dir: options.dir }) }).catch(async (error: unknown) => {
    await programs.remove();
    throw error;
  });
  try {
    const proxy = driver.proxy;
    if (!proxy) throw new Error('the API fault proxy did not start');
    const limit = createLimit(Math.max(1, options.concurrency));
    let done = 0;
    const results = await Promise.all(
      options.seeds.map((seed) =>
        limit(async () => {
          const result = await runSeed({ driver, proxy, operator: driver.operator }, planSeed(seed, { operatorRestarts: options.operatorRestarts }));
          done += 1;
          options.onSeed?.(result, done);
          return result;
        })),
    );
    const minutes = (Date.now() - started) / 60_000;
    return {
      results,
      failures: results.filter((r) => r.problems.length > 0),
      minutes,
      seedsPerMinute: results.length / minutes,
      apiFaultsInjected: proxy.injected(),
      operatorCrashes: driver.operator.crashes(),
    };
  } finally {
    await driver.close();
    await programs.remove();
  }
}
