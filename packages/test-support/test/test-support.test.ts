import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually, freePort, giveUp, tcpOpen, tempDir } from '../src/index.ts';

describe('eventually', () => {
  it('answers the first value that is not undefined, null or false', async () => {
    let n = 0;
    const answers = [undefined, null, false, 'ready'];
    expect(await eventually(() => answers[n++], { what: 'ready', everyMs: 1 })).toBe('ready');
    expect(n).toBe(4);
  });

  it('is bounded: it fails at the deadline naming what it waited for and the last error', async () => {
    const started = Date.now();
    await expect(eventually(() => { throw new Error('boom'); }, { what: 'the thing', withinMs: 50, everyMs: 5 })).rejects.toThrow(/timed out after 50 ms waiting for the thing: Error: boom/);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('with maxEveryMs, pauses grow from everyMs to the cap: a long wait checks a few times a second, not 50', async () => {
    const at: number[] = [];
    await expect(eventually(() => { at.push(Date.now()); return false; }, { what: 'never', withinMs: 1_500, everyMs: 20, maxEveryMs: 250 })).rejects.toThrow(/timed out/);
    // 20, 30, 45, 68, 102, 153, 230, then 250 each: ~12 checks in 1.5 s where a fixed 20 ms pause makes ~75.
    expect(at.length).toBeGreaterThanOrEqual(8);
    expect(at.length).toBeLessThanOrEqual(14);
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    expect(gaps[0]).toBeLessThan(200);
    expect(Math.max(...gaps.slice(-3))).toBeGreaterThanOrEqual(240);
  });

  it('without maxEveryMs, the pause stays everyMs', async () => {
    let n = 0;
    await expect(eventually(() => { n++; return false; }, { what: 'never', withinMs: 300, everyMs: 10 })).rejects.toThrow(/timed out/);
    expect(n).toBeGreaterThan(12);
  });

  it('with retryErrors false, an error ends the wait at once', async () => {
    await expect(eventually(() => { throw new Error('stop'); }, { what: 'x', withinMs: 5_000, retryErrors: false })).rejects.toThrow('stop');
  });

  it('a check that gives up ends the wait at once, while other errors are still retried', async () => {
    let n = 0;
    const started = Date.now();
    await expect(eventually(() => {
      n++;
      if (n < 3) throw new Error('transient');
      return giveUp('RayJob failed: AppFailed');
    }, { what: 'x', withinMs: 5_000, everyMs: 5 })).rejects.toThrow('RayJob failed: AppFailed');
    expect(n).toBe(3);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('ports and directories', () => {
  it('a free port can be listened on, and nothing answers there before', async () => {
    const port = await freePort();
    expect(await tcpOpen(port, 500)).toBe(false);
    const server = createServer();
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
    expect(await tcpOpen(port, 500)).toBe(true);
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('a temporary directory is removed with what is in it', async () => {
    const dir = await tempDir('ts-');
    await writeFile(join(dir.path, 'f'), 'x');
    expect(existsSync(join(dir.path, 'f'))).toBe(true);
    await dir.remove();
    expect(existsSync(dir.path)).toBe(false);
  });
});
