// Ctrl-C on `npm run campaign` stops everything it started: the sandbox's pods run as processes outside the
// campaign's own process tree, so an exit without teardown left dozens of them running.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { eventually } from '@rayjob/test-support';

const cli = join(import.meta.dirname, '..', 'src', 'campaign', 'cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'campaign-interrupt-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Processes whose command line mentions the campaign's sandbox folder: its pods, and the operator. */
function processesUsing(folder: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(folder)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return pids;
}

const until = async (what: string, check: () => boolean, withinMs: number): Promise<void> => {
  await eventually(check, { what, withinMs, everyMs: 200, retryErrors: false });
};

it('SIGINT stops the sandbox, its pods and the operator, then exits 130 with a summary', async () => {
  const child = spawn(process.execPath, [cli, '--seeds', '2', '--concurrency', '2', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    await until('a pod process of the campaign', () => processesUsing(join(dir, 'kubelet')).length > 0, 180_000);
    child.kill('SIGINT');
    const code = await Promise.race([exited, new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 60_000))]);
    expect(code, output).toBe(130);
    expect(output).toMatch(/campaign: interrupted after \d+ of 2 seeds, 0 wrong outcome\(s\); sandbox, pods and operator stopped/);
    // Pods end with their node; give the last of them a moment to go.
    await until('no process left in the sandbox folder', () => processesUsing(dir).length === 0, 15_000);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    for (const pid of processesUsing(dir)) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
    }
  }
}, 300_000);
