// A campaign: seeds run concurrently on one sandbox and operator (behind the API fault proxy), each in its own
// namespace, each judged by the rules in judge.ts. API bursts and conflicts are aimed at the seed's namespace;
// operator restarts and watch faults reach every seed running at the time (see hasSharedFaults).
// Shared by `npm run campaign` and the CI-sized test so both run the same code.
import { preparePodPrograms } from '../drivers/pod-programs.ts';
import { startSandboxDriver } from '../drivers/sandbox-driver.ts';
import { createLimit } from '../run/limit.ts';
import { runSeed, type SeedResult } from './run-seed.ts';
import { planSeed, type SeedPlan } from './schedule.ts';

export interface CampaignOptions {
  seeds: readonly number[];
  concurrency: number;
  operatorRestarts: boolean;
  /** Keep the sandbox folder here (the operator's log) instead of a temporary one. */
  dir?: string;
  /** Called as each seed ends, in the order they end. */
  onSeed?: (result: SeedResult, done: number) => void;
  /**
   * Ends the campaign early (Ctrl-C): seeds in flight are abandoned and the sandbox, its pods and the operator
   * are stopped before runCampaign returns (`interrupted`, with the seeds that finished), so nothing is left running.
   */
  signal?: AbortSignal;
}

export interface CampaignResult {
  results: SeedResult[];
  failures: SeedResult[];
  minutes: number;
  seedsPerMinute: number;
  apiFaultsInjected: unknown;
  /** The operator's exits nobody asked for (each one a bug, whatever the seeds say). */
  operatorCrashes: string[];
  /** The signal ended the campaign before every seed ran. */
  interrupted: boolean;
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
 * Faults that reach every seed running at the time, whatever seed drew them: an operator restart, and the
 * operator's watches (which serve every namespace) ending or answered 410 Gone. Bursts and conflicts are aimed at
 * the seed's own namespace.
 */
export function hasSharedFaults(plan: SeedPlan): boolean {
  return plan.faults.some((f) => f.fault.kind === 'operator' || (f.fault.kind === 'api' && (f.fault.fault === 'expireWatches' || f.fault.fault === 'gone')));
}

export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const started = Date.now();
  const programs = await preparePodPrograms();
  const driver = await startSandboxDriver({ apiFaults: true, podPrograms: programs, ...(options.dir !== undefined && { dir: options.dir }) }).catch(async (error: unknown) => {
    await programs.remove();
    throw error;
  });
  try {
    const proxy = driver.proxy;
    if (!proxy) throw new Error('the API fault proxy did not start');
    const limit = createLimit(Math.max(1, options.concurrency));
    const finished: SeedResult[] = [];
    const interrupted = abortPromise(options.signal);
    const all = Promise.all(
      options.seeds.map((seed) =>
        limit(async () => {
          if (options.signal?.aborted) return undefined;
          const result = await runSeed({ driver, proxy, operator: driver.operator }, planSeed(seed, { operatorRestarts: options.operatorRestarts }));
          if (options.signal?.aborted) return undefined;
          finished.push(result);
          options.onSeed?.(result, finished.length);
          return result;
        })),
    );
    // Seeds abandoned by an interrupt fail once the sandbox is gone: nobody waits for them any more.
    all.catch(() => undefined);
    const settled = await Promise.race([all, interrupted.promise]);
    interrupted.dispose();
    const results = settled === 'interrupted' ? [...finished] : settled.filter((r): r is SeedResult => r !== undefined);
    const minutes = (Date.now() - started) / 60_000;
    return {
      results,
      failures: results.filter((r) => r.problems.length > 0),
      minutes,
      seedsPerMinute: results.length / minutes,
      apiFaultsInjected: proxy.injected(),
      operatorCrashes: driver.operator.crashes(),
      interrupted: settled === 'interrupted',
    };
  } finally {
    await driver.close();
    await programs.remove();
  }
}

function abortPromise(signal: AbortSignal | undefined): { promise: Promise<'interrupted'>; dispose: () => void } {
  if (!signal) return { promise: new Promise(() => undefined), dispose: () => undefined };
  let onAbort = () => undefined as void;
  const promise = new Promise<'interrupted'>((resolve) => {
    onAbort = () => resolve('interrupted');
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}
