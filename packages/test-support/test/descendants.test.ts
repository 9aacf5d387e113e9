import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { eventually, liveDescendants } from '../src/index.ts';

describe('liveDescendants', () => {
  it('finds a child and its grandchild started through a shell, and nothing once they are gone', async () => {
    const shell = spawn('sh', ['-c', 'sleep 30 & echo ready; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((resolve) => shell.stdout.once('data', resolve));
    // "ready" is printed once the background child is forked, not once it has exec'd sleep: await the exec.
    const found = await eventually(() => {
      const now = liveDescendants();
      return now.some((p) => p.command === 'sleep 30') && now;
    }, { what: 'the shell\'s child running sleep', withinMs: 5_000 });
    expect(found.map((p) => p.command)).toEqual(expect.arrayContaining(['sh -c sleep 30 & echo ready; wait', 'sleep 30']));
    const sleeper = found.find((p) => p.command === 'sleep 30');
    expect(sleeper?.ppid).toBe(shell.pid);
    process.kill(sleeper?.pid as number, 'SIGKILL');
    await eventually(() => liveDescendants().length === 0, { what: 'the shell and its sleep gone', withinMs: 5_000 });
  });

  it('does not count another process tree', () => {
    expect(liveDescendants(process.ppid).some((p) => p.pid === process.pid)).toBe(true);
    expect(liveDescendants(process.pid).some((p) => p.pid === process.pid)).toBe(false);
  });
});
