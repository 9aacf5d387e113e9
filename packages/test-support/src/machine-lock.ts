// Machine-wide locks for test processes that must not overlap on this machine (real Ray, tools/ci/real-ray-slot.mjs).
// A lock is an flock(1) on a file, held by a small holder process (`flock FILE sh -c 'echo held; exec cat'`) that
// keeps it until its stdin closes: when release() ends the pipe, or when the process that took it dies (the kernel
// closes the pipe). So a crashed or killed taker never keeps a lock, and the lock's fd lives in the holder only:
// nothing the taker spawns afterwards inherits it (Node opens its pipes close-on-exec), not even the daemons that
// outlive `ray start`.
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

export interface MachineLockOptions {
  /** The bound on the wait for a free lock; past it, acquireMachineLock rejects naming `what` and the files. */
  waitMs: number;
  /** What the lock is for, for the timeout message ("the Ray start lock"). */
  what: string;
  /** With several files: how long each wait on one of them lasts before the next is tried. Default 1 s. */
  turnMs?: number;
}

export interface MachineLock {
  /** The file whose lock is held. */
  path: string;
  /** Milliseconds from the call until the lock was held. */
  waitedMs: number;
  /** Lets the lock go; resolves once the holder has exited (the lock is free for others then). Idempotent. */
  release(): Promise<void>;
}

type Holder = ChildProcessByStdio<Writable, Readable, Readable>;

/** flock's exit code when the file is locked by someone else past its wait (-E): not an error, just "try another". */
const busyCode = 75;

/**
 * Holds the lock of one of `paths`: a counting lock of paths.length places, each a file. The first free file wins,
 * tried in order without waiting; while all are taken, each is waited on for turnMs in turn until one is free. One
 * file is simply waited on for the whole bound.
 */
export async function acquireMachineLock(paths: readonly string[], options: MachineLockOptions): Promise<MachineLock> {
  if (paths.length === 0) throw new Error(`${options.what}: no lock files given`);
  const started = Date.now();
  const turnMs = options.turnMs ?? 1000;
  for (let round = 0; ; round++) {
    for (const path of paths) {
      const leftMs = options.waitMs - (Date.now() - started);
      if (round > 0 && leftMs <= 0) {
        throw new Error(`${options.what}: still taken after ${Math.round(options.waitMs / 1000)} s (${paths.join(', ')}); a process holding it shows in \`fuser -v ${paths[0]}\``);
      }
      const wait = paths.length === 1 ? Math.max(leftMs, 0) : round === 0 ? 0 : Math.min(turnMs, leftMs);
      const holder = await tryHold(path, wait);
      if (holder !== undefined) return { path, waitedMs: Date.now() - started, release: once(() => letGo(holder)) };
    }
  }
}

/** Starts a holder for `path`, waiting up to waitMs (0: not at all); undefined when the file stayed locked. */
function tryHold(path: string, waitMs: number): Promise<Holder | undefined> {
  const wait = waitMs > 0 ? ['-w', (waitMs / 1000).toFixed(3)] : ['-n'];
  const holder = spawn('flock', ['-E', String(busyCode), ...wait, path, 'sh', '-c', 'echo held; exec cat'], { stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    holder.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    holder.once('error', (error) => reject(new Error(`cannot run flock(1) for ${path}: ${error.message}`)));
    holder.once('exit', (code, signal) => {
      if (code === busyCode) resolve(undefined);
      else reject(new Error(`flock ${path} ended before holding the lock (${signal ?? `exit ${code}`}): ${stderr.trim()}`));
    });
    holder.stdout.setEncoding('utf8').once('data', () => {
      holder.removeAllListeners('exit');
      resolve(holder);
    });
  });
}

async function letGo(holder: Holder): Promise<void> {
  if (holder.exitCode !== null || holder.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => holder.once('exit', () => resolve()));
  holder.stdin.end();
  // cat ends at once on EOF; the bound only guards against a stuck holder keeping the lock.
  const timer = setTimeout(() => holder.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= fn());
}
