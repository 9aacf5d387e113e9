// The `ray` that real-Ray pods find first (the real-Ray image, real-ray-bin.ts) runs `ray start` under the machine's Ray
// start lock and lets it go once Ray says the node is up, or when the start dies. Run here without pods or Ray: a
// stand-in `ray` prints what Ray prints and waits where Ray does its CPU-heavy start.
import { spawn, spawnSync, type ChildProcessByStdio } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { eventually, holdRayStartLock, tempDir, type TempDir } from '@rayjob/test-support';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultImages } from '../../src/images/default-images.ts';
import { lookupImage } from '../../src/kubelet/image-program.ts';

// `ray start ...`: says it is starting, starts (waits for the file $GO), then as Ray prints the started line and
// blocks (`exec sleep`: signals reach it as they would reach Ray), or with FAKE_MODE=die fails as a raylet abort does.
const fakeRay = `#!/bin/sh
if [ "$1" != start ]; then echo "Ray's own ray: $*"; exit 0; fi
echo "starting: $*"
while [ ! -e "$GO" ]; do sleep 0.02; done
if [ "$FAKE_MODE" = die ]; then echo "raylet died" >&2; exit 3; fi
echo "--------------------"
echo "Ray runtime started."
exec sleep 60
`;

let dir: TempDir;
let env: NodeJS.ProcessEnv;
let bin: string;
const running: ChildProcessByStdio<null, Readable, Readable>[] = [];
const lockFile = (): string => join(dir.path, 'start-lock', 'lock');
const isFree = (): boolean => spawnSync('flock', ['-n', lockFile(), 'true']).status === 0;

beforeEach(async () => {
  dir = await tempDir('ray-start-lock-');
  const rayBin = join(dir.path, 'venv-bin');
  mkdirSync(rayBin);
  writeFileSync(join(rayBin, 'ray'), fakeRay);
  chmodSync(join(rayBin, 'ray'), 0o755);
  writeFileSync(join(rayBin, 'python'), '');
  writeFileSync(join(rayBin, 'serve'), '');
  // Through the catalog, as pods get it (and without naming the real-Ray calls that would make this file take a
  // place in the real-Ray slot, tools/ci/real-ray-slot.mjs).
  const image = lookupImage(defaultImages({ repoRoot: dir.path, realRayBin: rayBin, env: { RAYJOB_RAY_START_DIR: join(dir.path, 'start-lock') } }), 'rayproject/ray:2.58.0');
  bin = image?.mounts?.find((m) => m.target === '/usr/local/sbin')?.source ?? '';
  expect(image?.mounts).toContainEqual({ source: join(dir.path, 'start-lock'), target: join(dir.path, 'start-lock'), readOnly: false });
  env = { ...process.env, ...image?.env, GO: join(dir.path, 'go') };
});
afterEach(async () => {
  for (const child of running.splice(0)) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  await dir.remove();
  rmSync(bin, { recursive: true, force: true });
});

/** Runs the pods' `ray` with `args` (its own process group, so a test can end everything it started). */
function ray(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const child = spawn(join(bin, 'ray'), args, { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.push(child);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (out += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (out += text));
  const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  return { child, output: () => out, ended, saw: (text: string) => eventually(() => out.includes(text), { what: `"${text}" from ray`, withinMs: 10_000 }) };
}

describe("real-Ray pods' `ray start` and the machine's Ray start lock", () => {
  it('holds the lock from before Ray starts until Ray says it started, then lets it go while the node runs on', async () => {
    const run = ray(['start', '--head', '--block']);
    await run.saw('starting: start --head --block');
    expect(isFree()).toBe(false);
    writeFileSync(env.GO!, '');
    await run.saw('Ray runtime started.');
    await eventually(() => isFree(), { what: 'the start lock free once Ray started', withinMs: 5000 });
    expect(run.child.exitCode).toBeNull();
    expect(readFileSync(join(dir.path, 'start-lock', 'starts.log'), 'utf8')).toMatch(/\[ray start lock\] head \S+: waited \d+\.\d s, held \d+\.\d s \(up\)\n$/);
    // A signal to the wrapper goes on to Ray, and the wrapper ends as Ray did.
    run.child.kill('SIGTERM');
    expect(await run.ended).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('a start that dies lets the lock go, and `ray start` exits as Ray did, its output passed through', async () => {
    writeFileSync(env.GO!, '');
    const run = ray(['start', '--address=head:6379', '--block'], { FAKE_MODE: 'die' });
    expect(await run.ended).toEqual({ code: 3, signal: null });
    expect(run.output()).toContain('raylet died');
    expect(isFree()).toBe(true);
    expect(readFileSync(join(dir.path, 'start-lock', 'starts.log'), 'utf8')).toMatch(/\[ray start lock\] worker \S+: .*\(exited 3\)\n$/);
  });

  it('a start killed mid-way (the container killed) lets the lock go', async () => {
    const run = ray(['start', '--head', '--block']);
    await run.saw('starting:');
    expect(isFree()).toBe(false);
    process.kill(-run.child.pid!, 'SIGKILL');
    await eventually(() => isFree(), { what: 'the start lock free after the start was killed', withinMs: 5000 });
  });

  it('a start waits while another node starts, then runs and says how long it waited', async () => {
    const other = await holdRayStartLock('head elsewhere', { env });
    writeFileSync(env.GO!, '');
    const run = ray(['start', '--head']);
    // The wrapper (the pid ray exec'd into) waits in its flock child.
    const waitsInFlock = (): boolean => readFileSync(`/proc/${run.child.pid}/task/${run.child.pid}/children`, 'utf8').trim().split(/\s+/)
      .some((pid) => pid !== '' && readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'flock');
    await eventually(waitsInFlock, { what: 'ray start waiting for the start lock', withinMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(run.output()).not.toContain('starting:');
    await other.release('up');
    await run.saw('[ray start lock]');
    expect(run.output()).toMatch(/\[ray start lock\] head \S+: waited (0\.[5-9]|[1-9]\d*\.\d) s/);
  });

  it("any other command is Ray's own `ray`, without the lock", async () => {
    const other = await holdRayStartLock('head elsewhere', { env });
    try {
      const run = ray(['health-check', '--address=head:6379']);
      expect(await run.ended).toEqual({ code: 0, signal: null });
      expect(run.output()).toBe("Ray's own ray: health-check --address=head:6379\n");
    } finally {
      await other.release('up');
    }
  });

  it("keeps the rest of the installation's bin folder (serve, python, ...) where pods look for it", () => {
    const serve = join(bin, 'serve');
    expect(existsSync(serve) && lstatSync(serve).isSymbolicLink()).toBe(true);
    expect(readlinkSync(serve)).toBe(join(dir.path, 'venv-bin', 'serve'));
    // Python is exec'd by its path in the installation, not linked: it finds its venv from that path
    // (real-ray-bin.test shows it on a real venv).
    const python = join(bin, 'python');
    expect(lstatSync(python).isSymbolicLink()).toBe(false);
    expect(readFileSync(python, 'utf8')).toContain(`exec '${join(dir.path, 'venv-bin', 'python')}' "$@"`);
  });
});
