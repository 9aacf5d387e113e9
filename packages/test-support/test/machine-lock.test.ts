import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireMachineLock, eventually, holdRayStartLock, realRaySlotPaths, tempDir, type MachineLock, type TempDir } from '../src/index.ts';

/** Whether another process could take the lock of `path` right now. */
const isFree = (path: string): boolean => spawnSync('flock', ['-n', path, 'true']).status === 0;
const settledWithin = <T>(promise: Promise<T>, ms: number): Promise<boolean> =>
  Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

const held: MachineLock[] = [];
const dirs: TempDir[] = [];
const freshDir = async (): Promise<string> => {
  const dir = await tempDir('machine-lock-');
  dirs.push(dir);
  return dir.path;
};
const take = async (paths: string[], waitMs = 10_000): Promise<MachineLock> => {
  const lock = await acquireMachineLock(paths, { waitMs, what: 'the test lock', turnMs: 50 });
  held.push(lock);
  return lock;
};
afterEach(async () => {
  await Promise.all(held.splice(0).map((lock) => lock.release()));
  await Promise.all(dirs.splice(0).map((dir) => dir.remove()));
});

describe('acquireMachineLock', () => {
  it('with N files, N holders at once; the next waits for a release and gets the file let go', async () => {
    const dir = await freshDir();
    const paths = [join(dir, 'a.lock'), join(dir, 'b.lock')];
    const first = await take(paths);
    const second = await take(paths);
    expect([first.path, second.path].sort()).toEqual(paths);
    expect(paths.some(isFree)).toBe(false);
    const third = take(paths);
    expect(await settledWithin(third, 300)).toBe(false);
    await second.release();
    expect((await third).path).toBe(second.path);
    expect((await third).waitedMs).toBeGreaterThanOrEqual(250);
  });

  it('with one file, one holder at a time (N=1: the old real-Ray slot)', async () => {
    const dir = await freshDir();
    const paths = [join(dir, 'only.lock')];
    const first = await take(paths);
    const second = take(paths);
    expect(await settledWithin(second, 300)).toBe(false);
    await first.release();
    expect((await second).path).toBe(paths[0]);
    expect(isFree(paths[0]!)).toBe(false);
  });

  it('is bounded: a lock that stays taken fails the wait naming what it is for', async () => {
    const dir = await freshDir();
    const paths = [join(dir, 'x.lock'), join(dir, 'y.lock')];
    await take(paths);
    await take(paths);
    await expect(acquireMachineLock(paths, { waitMs: 200, what: 'the test lock', turnMs: 50 })).rejects.toThrow(/the test lock: still taken after 0 s/);
  });

  it('is not inherited: a process started while it is held (a daemon outliving `ray start`) does not keep it', async () => {
    const dir = await freshDir();
    const path = join(dir, 'start.lock');
    const lock = await take([path]);
    const daemon = spawn('sleep', ['30'], { detached: true, stdio: 'ignore' });
    try {
      await lock.release();
      expect(isFree(path)).toBe(true);
    } finally {
      daemon.kill('SIGKILL');
    }
  });

  it('is let go when the process holding it is killed', async () => {
    const dir = await freshDir();
    const path = join(dir, 'crash.lock');
    const script = `const { acquireMachineLock } = await import(${JSON.stringify(new URL('../src/machine-lock.ts', import.meta.url).pathname)});
      await acquireMachineLock([${JSON.stringify(path)}], { waitMs: 5000, what: 'x' }); console.log('held'); setInterval(() => {}, 1000);`;
    const taker = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => taker.stdout.once('data', resolve));
    expect(isFree(path)).toBe(false);
    taker.kill('SIGKILL');
    await eventually(() => isFree(path), { what: 'the lock free after its taker was killed', withinMs: 5000 });
  });
});

describe('realRaySlotPaths', () => {
  it.each([
    { name: 'two places by default', env: { RAYJOB_REAL_RAY_SLOT: '/x/slot.lock' }, expected: ['/x/slot.lock', '/x/slot.lock.2'] },
    { name: 'N=1: one file at a time', env: { RAYJOB_REAL_RAY_SLOT: '/x/slot.lock', RAYJOB_REAL_RAY_SLOTS: '1' }, expected: ['/x/slot.lock'] },
    { name: 'N=3', env: { RAYJOB_REAL_RAY_SLOT: '/x/s', RAYJOB_REAL_RAY_SLOTS: '3' }, expected: ['/x/s', '/x/s.2', '/x/s.3'] },
  ])('$name', ({ env, expected }) => {
    expect(realRaySlotPaths(env)).toEqual(expected);
  });

  it('names the variable and what it takes when it is not a count', () => {
    expect(() => realRaySlotPaths({ RAYJOB_REAL_RAY_SLOTS: 'two' })).toThrow(/RAYJOB_REAL_RAY_SLOTS must be a whole number >= 1.*got "two"/);
  });
});

describe('holdRayStartLock', () => {
  it('holds the start lock until released, then logs how long it waited and held it, also in starts.log next to it', async () => {
    const dir = await freshDir();
    const env = { RAYJOB_RAY_START_DIR: join(dir, 'start') };
    const lockFile = join(dir, 'start', 'lock');
    const lines: string[] = [];
    const lock = await holdRayStartLock('head h1', { env, print: (line) => lines.push(line) });
    expect(isFree(lockFile)).toBe(false);
    await lock.release('up');
    expect(isFree(lockFile)).toBe(true);
    expect(lines).toEqual([expect.stringMatching(/^\[ray start lock\] head h1: waited \d+\.\d s, held \d+\.\d s \(up\)$/)]);
    expect(readFileSync(join(dir, 'start', 'starts.log'), 'utf8')).toContain(lines[0]);
  });
});
