// The shipped artifact as a real process: the bundle, and the image's /submitter entry (bin/submitter).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTerminationMessage } from '@rayjob/core';
import { fastTiming, startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countingJob, occurrences } from './support/in-process.ts';
import { waitFor } from './support/poll.ts';
import { spawnSubmitter } from './support/process.ts';
import { startTlsFront } from './support/tls-front.ts';

let emulator: RayEmulator;
beforeEach(async () => {
  emulator = await startRayEmulator({ timing: fastTiming });
});
afterEach(async () => {
  await emulator.stop();
});
const statusOf = (sid: string) => emulator.jobs().find((j) => j.submissionId === sid)?.status;

describe('ray-job-submitter as a process', () => {
  it('killed and started again: attaches to the one job and prints each line once', async () => {
    const sid = 'reattach-1';
    const env = { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: sid };
    const first = spawnSubmitter(['--', countingJob(40, 0.05)], env);
    await waitFor(() => first.stdout().includes('line 3\n'), 'the first submitter to print', 15_000);
    first.child.kill('SIGKILL'); // OOMKill, eviction: no chance to clean up
    await first.waitForExit();

    const second = spawnSubmitter(['--', countingJob(40, 0.05)], env);
    const { code } = await second.waitForExit(20_000);
    expect(code).toBe(0);
    expect(second.stdout()).toContain(`Job '${sid}' has already been submitted, tailing logs.`);
    expect(second.stdout()).toContain(`Job '${sid}' succeeded`);
    for (let i = 1; i <= 40; i += 1) expect(occurrences(second.stdout(), `line ${i}\n`)).toBe(1);
    expect(emulator.jobs().filter((j) => j.submissionId === sid)).toHaveLength(1);
    expect(emulator.requests().filter((r) => r.method === 'POST' && r.path === '/api/jobs/')).toHaveLength(1);
  });

  it.each([
    { signal: 'SIGTERM' as const, code: 143, reason: 'Terminated' },
    { signal: 'SIGINT' as const, code: 130, reason: 'Interrupted' },
  ])('$signal through the image entry (/submitter = bin/submitter): exits $code at once, the job keeps running', async ({ signal, code, reason }) => {
    const sid = `signal-${signal}`;
    const terminationLog = join(mkdtempSync(join(tmpdir(), 'submitter-sig-')), 'termination-log');
    const proc = spawnSubmitter(
      ['--termination-log', terminationLog, '--', countingJob(400, 0.05)],
      { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: sid },
      'image-entry',
    );
    await waitFor(() => proc.stdout().includes('line 2\n'), 'the job to print', 15_000);
    const sentAt = Date.now();
    proc.child.kill(signal);
    const exit = await proc.waitForExit(5_000);
    expect(exit).toEqual({ code, signal: null }); // node itself exited with the code: the script exec'd it
    expect(Date.now() - sentAt).toBeLessThan(3_000);
    expect(proc.stderr()).toContain(`exiting without stopping job '${sid}'`);
    expect(statusOf(sid)).toBe('RUNNING');
    // Still running a moment later: nothing stopped it.
    const printedBefore = (await fetchLog(sid)).length;
    await waitFor(async () => (await fetchLog(sid)).length > printedBefore, 'the job to keep printing');
    expect(statusOf(sid)).toBe('RUNNING');
    expect(emulator.requests().some((r) => r.path.endsWith('/stop'))).toBe(false);
    expect(parseTerminationMessage(readFileSync(terminationLog, 'utf8'))).toMatchObject({
      submissionId: sid,
      reason,
      exitCode: code,
      lastStatus: 'RUNNING',
    });
  });

  it('SIGTERM before anything was submitted (still waiting for GCS) does not claim a job keeps running', async () => {
    const sid = 'signal-early';
    const terminationLog = join(mkdtempSync(join(tmpdir(), 'submitter-sig-')), 'termination-log');
    await emulator.faults.stopDashboard();
    const proc = spawnSubmitter(['--termination-log', terminationLog, '--', 'echo never'], { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: sid });
    await waitFor(() => proc.stdout().includes('Waiting for Ray Dashboard GCS'), 'the GCS wait line', 15_000);
    proc.child.kill('SIGTERM');
    expect(await proc.waitForExit(5_000)).toEqual({ code: 143, signal: null });
    expect(proc.stderr()).not.toContain('keeps running');
    expect(proc.stderr()).toContain(`Received SIGTERM before job '${sid}' was submitted; exiting (nothing was submitted, nothing is left running)`);
    const final = parseTerminationMessage(readFileSync(terminationLog, 'utf8'));
    expect(final).toMatchObject({ submissionId: sid, reason: 'Terminated', exitCode: 143 });
    expect(final?.lastStatus).toBeUndefined();
    expect(final?.message).toContain('nothing was submitted');
    await emulator.faults.startDashboard();
  });
});

// Memory (issue #27): what a run loads is what its pod pays for. node:https and node:tls (~8 MiB of RSS) only for
// an https:// dashboard, the yaml package only for a --runtime-env file; a YAML file still reaches Ray.
describe('what a run of the bundle loads', () => {
  /**
   * Runs the bundle to its exit 0 with a preload that writes the built-ins it loaded: at exit, or when its first
   * request to the dashboard starts (diagnostics_channel). The preload takes node:fs through getBuiltinModule: an ES
   * import of it would load fs streams itself.
   */
  async function loadedBy(args: string[], sid: string, at: 'exit' | 'first request' = 'exit') {
    const dir = mkdtempSync(join(tmpdir(), 'submitter-loads-'));
    const report = join(dir, 'loaded.json');
    const preload = join(dir, 'preload.mjs');
    const write = `writeFileSync(${JSON.stringify(report)}, JSON.stringify(process.moduleLoadList))`;
    writeFileSync(
      preload,
      `import { subscribe } from 'node:diagnostics_channel';\nconst { writeFileSync } = process.getBuiltinModule('node:fs');\n` +
        (at === 'exit'
          ? `process.on('exit', () => ${write});\n`
          : `let seen = false;\nsubscribe('http.client.request.start', () => { if (!seen) { seen = true; ${write}; } });\n`),
    );
    const proc = spawnSubmitter(['--termination-log', join(dir, 'termination-log'), ...args, '--', 'echo hello'], {
      RAY_DASHBOARD_ADDRESS: emulator.url,
      RAY_JOB_SUBMISSION_ID: sid,
      NODE_OPTIONS: `--import ${preload}`,
    });
    const { code } = await proc.waitForExit(20_000);
    expect(code, proc.stderr()).toBe(0);
    return { loaded: JSON.parse(readFileSync(report, 'utf8')) as string[], stdout: proc.stdout() };
  }

  it('an http:// run follows its job without loading node:https or node:tls (ws loads them only for wss://)', async () => {
    const { loaded, stdout } = await loadedBy([], 'loads-http');
    expect(stdout).toContain('hello\n');
    expect(loaded).toContain('NativeModule http');
    expect(loaded.filter((m) => /^NativeModule (https|tls|_tls_wrap)$/.test(m))).toEqual([]);
  });

  it('loads nothing before its first request that the request does not need: no crypto, zlib (ws), or fs streams (cold start, #27)', async () => {
    const { loaded } = await loadedBy([], 'loads-first-request', 'first request');
    expect(loaded).toContain('NativeModule http');
    expect(loaded.filter((m) => /^NativeModule (crypto|zlib|internal\/fs\/streams)$/.test(m))).toEqual([]);
  });

  it('an https:// dashboard: node:https and node:tls load on demand, the job is submitted and its log followed over wss://', async () => {
    const front = await startTlsFront(emulator.url);
    try {
      const { loaded, stdout } = await loadedBy(['--address', front.url, '--verify', front.caFile], 'loads-https');
      expect(stdout).toContain('hello\n');
      expect(stdout).toContain("Job 'loads-https' succeeded");
      expect(loaded).toEqual(expect.arrayContaining(['NativeModule https', 'NativeModule tls']));
      expect(emulator.requests().some((r) => r.upgrade && r.path.startsWith('/api/jobs/loads-https/logs/tail'))).toBe(true);
    } finally {
      await front.close();
    }
  });

  it('a --runtime-env YAML file is parsed by the lazily loaded yaml chunk and reaches Ray', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'submitter-yaml-'));
    const file = join(dir, 'env.yaml');
    writeFileSync(file, 'env_vars:\n  A: "1"\n');
    await loadedBy(['--runtime-env', file], 'loads-yaml');
    const job = (await (await fetch(`${emulator.url}/api/jobs/loads-yaml`)).json()) as { runtime_env?: unknown };
    expect(job.runtime_env).toEqual({ env_vars: { A: '1' } });
  });
});

async function fetchLog(sid: string): Promise<string> {
  const response = await import('node:http').then(
    (http) =>
      new Promise<string>((resolve, reject) => {
        http
          .get(`${emulator.url}/api/jobs/${sid}/logs`, (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (t: string) => (body += t)).on('end', () => resolve(body));
          })
          .on('error', reject);
      }),
  );
  return (JSON.parse(response) as { logs: string }).logs;
}
