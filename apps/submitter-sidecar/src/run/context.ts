// Everything a run step needs, injected: the Ray client, the clock and sleep, where lines go, the config and
// what is known about the job so far. Tests build one with a real client against the emulator and real or
// shortened timings; main.ts builds one for the process.
import type { RayClient } from '@rayjob/ray-client';
import type { SubmitterConfig } from '../cli/load-config.ts';
import type { JobKnowledge } from '../exit.ts';
import type { Reporter } from '../output/reporter.ts';
import type { LogPrinter } from './follow-logs.ts';
import type { UnreachableBudget } from './unreachable-budget.ts';
import type { DriverWatch } from './watch-driver.ts';

export interface Clock {
  now(): number;
  /** Resolves after ms, or early (without error) when the signal aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface RunContext {
  config: SubmitterConfig;
  client: RayClient;
  clock: Clock;
  reporter: Reporter;
  knowledge: JobKnowledge;
  budget: UnreachableBudget;
  printer: LogPrinter;
  driverWatch: DriverWatch;
  /** Aborted when the process is told to stop (in-process callers; the real process exits at once). */
  signal: AbortSignal;
  pacing: Pacing;
}

/** How often the submitter looks, derived from the flags (no hidden knobs). */
export interface Pacing {
  healthPollMs: number;
  statusPollMs: number;
  backoffMinMs: number;
  backoffMaxMs: number;
  /** After Ray reports a terminal status, how long an open tail may take to deliver the rest and close. */
  tailGraceMs: number;
}

export function pacingFor(config: Pick<SubmitterConfig, 'driverLostAfterMs' | 'maxUnreachableMs' | 'healthTimeoutMs'>): Pacing {
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, Math.round(v)));
  return {
    healthPollMs: clamp((config.healthTimeoutMs ?? Infinity) / 4, 50, 2_000),
    // At most 0.5 s between looks while following: a DEAD driver node is first seen within half a second, and
    // the watcher then looks again exactly when --driver-lost-after falls due, so exit 5 comes within a second
    // of the bound. Shorter bounds look more often (ten looks per bound).
    statusPollMs: clamp(config.driverLostAfterMs / 10, 50, 500),
    backoffMinMs: clamp(config.maxUnreachableMs / 40, 25, 250),
    backoffMaxMs: clamp(config.maxUnreachableMs / 4, 100, 5_000),
    tailGraceMs: 5_000,
  };
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      signal?.addEventListener('abort', done, { once: true });
    }),
};
