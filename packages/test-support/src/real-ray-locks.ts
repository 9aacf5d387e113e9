// The two machine-wide locks that let tests with real Ray run beside each other on a 2-core machine:
// - the Ray start lock: held only while a real Ray node (head or worker) starts. A starting node is a dozen Python
//   processes importing Ray (~25 CPU-seconds), and Ray misses its own fixed startup deadlines (the raylet's ~15 s
//   wait for its DashboardAgent, the dashboard's module waits) when two start side by side on 2 cores. A started
//   node mostly waits, so the lock is let go once the node is up and the next one may start.
// - the real-Ray slot (tools/ci/real-ray-slot.mjs): held by a real-Ray test file for its whole run; a counting lock
//   of RAYJOB_REAL_RAY_SLOTS places, so that much of one file's waiting (autoscaler idle timeouts, FT bounds, job
//   runs) may overlap another's. Default 2: with the suites' CPU cut to ~1,780 CPU-s (clean CI 2026-12-06 18:42) the
//   machine is no longer saturated, and the operator's real-Ray files, which mostly wait, were waiting 225 s for a
//   lane 2 file's place; 1 still gives one file at a time.
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireMachineLock } from './machine-lock.ts';

/**
 * The Ray start lock's folder (its `lock` file and `starts.log`): $RAYJOB_RAY_START_DIR, else next to the real-Ray
 * slot's files in the temp folder. A folder, so that sandbox pods (which have a /tmp of their own) can mount it whole.
 */
export function rayStartLockDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.RAYJOB_RAY_START_DIR || join(tmpdir(), 'rayjob-ray-start');
}

/** One line per start ("waited 3 s, held 21 s"), machine-wide, next to the lock: what CI logs and people read. */
export const rayStartLogPath = (dir: string): string => join(dir, 'starts.log');

/** Longer than any start takes on a loaded machine times the few that queue at once; past it, a clear error. */
export const rayStartLockWaitMs = 10 * 60_000;
const logBytes = 1024 * 1024;

/** The real-Ray slot's files: $RAYJOB_REAL_RAY_SLOT (default in the temp folder), then `.2`, `.3`... one per place. */
export function realRaySlotPaths(env: NodeJS.ProcessEnv = process.env): string[] {
  const base = env.RAYJOB_REAL_RAY_SLOT || join(tmpdir(), 'rayjob-real-ray.lock');
  const text = env.RAYJOB_REAL_RAY_SLOTS || '2';
  const places = Number(text);
  if (!Number.isInteger(places) || places < 1) throw new Error(`RAYJOB_REAL_RAY_SLOTS must be a whole number >= 1 (real-Ray test files at once; 1: one at a time), got "${text}"`);
  return Array.from({ length: places }, (_, i) => (i === 0 ? base : `${base}.${i + 1}`));
}

export interface RayStartLock {
  waitedMs: number;
  /** Lets the lock go and logs the start's line with how it ended ("up", "exited 1"). Idempotent. */
  release(outcome: string): Promise<void>;
}

/**
 * Takes the Ray start lock for the start of `what` (e.g. "head rayjob-head-x1"). `print` gets the line each start
 * logs (also appended to rayStartLogPath, kept under 1 MB).
 */
export async function holdRayStartLock(what: string, options: { env?: NodeJS.ProcessEnv; print?: (line: string) => void } = {}): Promise<RayStartLock> {
  const dir = rayStartLockDir(options.env);
  mkdirSync(dir, { recursive: true });
  const lock = await acquireMachineLock([join(dir, 'lock')], { waitMs: rayStartLockWaitMs, what: `the Ray start lock (to start ${what})` });
  const heldAt = Date.now();
  let released: Promise<void> | undefined;
  const release = async (outcome: string): Promise<void> => {
    await lock.release();
    const line = `[ray start lock] ${what}: waited ${(lock.waitedMs / 1000).toFixed(1)} s, held ${((Date.now() - heldAt) / 1000).toFixed(1)} s (${outcome})`;
    options.print?.(line);
    appendLine(rayStartLogPath(dir), `${new Date().toISOString()} ${line}\n`);
  };
  return { waitedMs: lock.waitedMs, release: (outcome) => (released ??= release(outcome)) };
}

function appendLine(file: string, line: string): void {
  try {
    // Bounded: past 1 MB the log starts over (the previous one kept as .old).
    if ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) > logBytes) renameSync(file, `${file}.old`);
    appendFileSync(file, line);
  } catch {
    // The line is a diagnostic; a read-only temp folder must not fail a start.
  }
}
