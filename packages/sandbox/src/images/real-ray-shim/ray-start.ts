// `ray start` in sandbox pods of real-Ray images (realRayImage; run by the `ray` command it puts on PATH):
//   node ray-start.ts <the real ray> start [args...]
// runs the real `ray start` under the machine's Ray start lock (@rayjob/test-support's holdRayStartLock), held from
// just before Ray starts until the node is up: Ray says "Ray runtime started." (which `ray start` prints once all of
// the node's processes run; with --block it then stays), or `ray start` ends. Then the lock is let go and the node
// keeps running. A starting node is ~25 CPU-seconds of Python imports, and two at once on 2 cores miss Ray's own
// startup deadlines; a cluster's head and workers, and other tests' clusters, otherwise all start side by side.
//
// Ray's output passes through unchanged (watched for the line above); signals sent to this process go on to Ray
// (Ray ignores a repeated SIGTERM), and this process ends as Ray does: same exit code, or killed by the same signal.
// The lock lives in a holder process of its own (not in Ray's daemons), so a start that crashes or is killed lets it go.
import { spawn } from 'node:child_process';
import { constants, hostname } from 'node:os';
import { holdRayStartLock } from '@rayjob/test-support';

/** What `ray start` prints once the node's processes all run (Ray 2.x, head and worker). */
export const rayStartedLine = 'Ray runtime started.';
/** Past this without Ray saying it started, the lock goes anyway: a start stuck in Ray must not stop every other. */
const maxHoldMs = 10 * 60_000;

const [realRay, ...args] = process.argv.slice(2);
if (realRay === undefined || args[0] !== 'start') {
  process.stderr.write('usage: node ray-start.ts <path of the real ray> start [ray start options...]\n');
  process.exit(2);
}

const role = args.includes('--head') ? 'head' : 'worker';
const lock = await holdRayStartLock(`${role} ${hostname()}`, { print: (line) => process.stderr.write(`${line}\n`) }).catch((error: Error) => {
  process.stderr.write(`ray start: ${error.message}\n`);
  process.exit(1);
});

const ray = spawn(realRay, args, { stdio: ['inherit', 'pipe', 'pipe'] });
const overdue = setTimeout(() => void lock.release(`still starting after ${maxHoldMs / 1000} s; let go`), maxHoldMs);
// The line may arrive split over two chunks: keep the tail of what came before on each stream. A reader that went
// away (EPIPE) must not end this process: Ray would lose its output pipe.
for (const [from, to] of [[ray.stdout, process.stdout], [ray.stderr, process.stderr]] as const) {
  to.on('error', () => {});
  let tail = '';
  from.on('data', (chunk: Buffer) => {
    to.write(chunk);
    const text = tail + chunk.toString('latin1');
    if (text.includes(rayStartedLine)) void lock.release('up');
    tail = text.slice(-rayStartedLine.length);
  });
}
const forwarded = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
for (const signal of forwarded) process.on(signal, () => ray.kill(signal));
ray.on('error', async (error) => {
  clearTimeout(overdue);
  await lock.release('could not run');
  process.stderr.write(`ray start: cannot run ${realRay}: ${error.message}\n`);
  process.exit(127);
});
ray.on('close', async (code, signal) => {
  clearTimeout(overdue);
  await lock.release(signal !== null ? `ended by ${signal}` : `exited ${code}`);
  if (signal === null) process.exit(code ?? 1);
  // Ended by a signal: end by the same one (the container's status says so), or as a shell reports it.
  for (const name of forwarded) process.removeAllListeners(name);
  process.kill(process.pid, signal);
  process.exit(128 + (constants.signals[signal] ?? 0));
});
