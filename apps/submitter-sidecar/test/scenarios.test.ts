// The submitter contract against the emulator over real sockets, in-process (same wiring as main.ts):
// one scenario per exit code and per way a log stream can lie.
import { parseTerminationMessage, shellJoin } from '@rayjob/core';
import { fastTiming, startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import type { RayClient } from '@rayjob/ray-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countingJob, occurrences, startInProcess } from './support/in-process.ts';
import { waitFor } from './support/poll.ts';

let emulator: RayEmulator;
let seq = 0;
const id = () => `sub-${process.pid}-${++seq}`;
const env = (submissionId: string, extra: Record<string, string> = {}) => ({
  RAY_DASHBOARD_ADDRESS: emulator.url,
  RAY_JOB_SUBMISSION_ID: submissionId,
  ...extra,
});

beforeEach(async () => {
  emulator = await startRayEmulator({ timing: fastTiming });
});
afterEach(async () => {
  await emulator.stop();
});

async function fullLog(run: { client: RayClient }, submissionId: string): Promise<string> {
  const logs = await run.client.getLogs(submissionId);
  if (logs.kind !== 'ok') throw new Error(`GET logs: ${logs.message}`);
  return logs.value;
}

const statusOf = (submissionId: string) => emulator.jobs().find((j) => j.submissionId === submissionId)?.status;

describe('the job runs to its end', () => {
  it.each([
    { name: 'SUCCEEDED exits 0', entrypoint: countingJob(3), exitCode: 0, reason: 'Succeeded', lines: ["Job '$ID' submitted successfully", "Job '$ID' succeeded"] },
    { name: 'FAILED exits 1 with the status message', entrypoint: 'echo oops; exit 3', exitCode: 1, reason: 'JobFailed', lines: ["Job '$ID' failed", 'Status message: Job entrypoint command failed with exit code 3'] },
  ])('$name', async ({ entrypoint, exitCode, reason, lines }) => {
    const sid = id();
    const run = startInProcess(['--', entrypoint], env(sid));
    const result = await run.done;
    expect(result.exitCode).toBe(exitCode);
    for (const line of lines) expect(run.stdout()).toContain(line.replace('$ID', sid));
    // The job's output is printed exactly as Ray has it.
    expect(run.stdout()).toContain(await fullLog(run, sid));
    const final = parseTerminationMessage(run.terminationLog());
    expect(final).toMatchObject({ submissionId: sid, exitCode, reason, lastStatus: exitCode === 0 ? 'SUCCEEDED' : 'FAILED' });
    expect(final?.endTime).toBeGreaterThan(0);
    expect(final?.driverNodeId).toMatch(/^[0-9a-f]+$/);
  });

  it('STOPPED (by someone else) exits 0 and says the job was stopped', async () => {
    const sid = id();
    const run = startInProcess(['--', countingJob(200, 0.05)], env(sid));
    await waitFor(() => run.stdout().includes('line 2'), 'the job to print');
    const stop = await run.client.stopJob(sid);
    expect(stop).toEqual({ kind: 'ok', value: { stopped: true } });
    const result = await run.done;
    expect(result.exitCode).toBe(0);
    expect(run.stdout()).toContain(`Job '${sid}' was stopped`);
    expect(parseTerminationMessage(run.terminationLog())?.lastStatus).toBe('STOPPED');
  });

  it('--no-wait exits 0 once the job is submitted, leaving it running', async () => {
    const sid = id();
    const run = startInProcess(['--no-wait', '--', countingJob(100)], env(sid));
    expect((await run.done).exitCode).toBe(0);
    expect(run.stdout()).toContain(`Job '${sid}' submitted successfully`);
    await waitFor(() => statusOf(sid) === 'RUNNING', 'the job to run');
  });
});

describe("KubeRay's light-weight submitter invocation, unchanged", () => {
  it('env address and id, JSON flags in KubeRay formats, the entrypoint after --: all reach Ray as given', async () => {
    const sid = id();
    const run = startInProcess(
      [
        '--runtime-env-json', '{"env_vars":{"counter_name":"test_counter"}}',
        '--metadata-json', '{"team":"ml","note":"a \\u003c b"}',
        '--entrypoint-num-cpus', '0.500000',
        '--entrypoint-resources', '{"custom":1}',
        '--no-wait', // no node has "custom": the job stays PENDING
        '--', 'echo "$counter_name"',
      ],
      { RAY_DASHBOARD_ADDRESS: emulator.url.replace('http://', ''), RAY_JOB_SUBMISSION_ID: sid },
    );
    expect((await run.done).exitCode).toBe(0);
    const job = await run.client.getJob(sid);
    expect(job.kind === 'ok' && job.value).toMatchObject({
      submission_id: sid,
      status: 'PENDING',
      // Ray's PENDING message names the resources and the runtime env: both arrived.
      message: expect.stringMatching(/waiting for resources.*runtime environment/),
      entrypoint: 'echo "$counter_name"',
      runtime_env: { env_vars: { counter_name: 'test_counter' } },
      metadata: { team: 'ml', note: 'a < b' },
    });
    const submit = emulator.requests().filter((r) => r.method === 'POST' && r.path === '/api/jobs/');
    expect(submit).toHaveLength(1);
  });
});

describe('log streams that end early never end the job', () => {
  it('a JobHead restart mid-job: no exit, no line printed twice, 0 when the job succeeds', async () => {
    const sid = id();
    const run = startInProcess(['--log-format', 'json', '--', countingJob(30, 0.03)], env(sid));
    await waitFor(() => run.stdout().includes('line 5\n'), 'output before the restart');
    await emulator.faults.restartJobHead({ downForMs: 300 });
    await waitFor(() => run.stderr().includes('reconnecting'), 'a reconnect');
    const result = await run.done;
    expect(result.exitCode).toBe(0);
    // stdout is the job's log and nothing else (own lines are JSON on stderr): byte for byte what Ray has.
    expect(run.stdout()).toBe(await fullLog(run, sid));
    for (let i = 1; i <= 30; i += 1) expect(occurrences(run.stdout(), `line ${i}\n`)).toBe(1);
  });

  it('a dropped last chunk (ray#46413): the last line is printed exactly once', async () => {
    emulator.faults.dropLastLogChunk(true);
    const sid = id();
    const run = startInProcess(['--log-format', 'json', '--', `${countingJob(12, 0.03)}; echo THE-LAST-LINE`], env(sid));
    expect((await run.done).exitCode).toBe(0);
    expect(occurrences(run.stdout(), '\nTHE-LAST-LINE\n')).toBe(1);
    expect(run.stdout()).toBe(await fullLog(run, sid));
  });

  it('two submitters at once with one submission id: one job, both follow it to 0', async () => {
    const sid = id();
    const a = startInProcess(['--', countingJob(5)], env(sid));
    const b = startInProcess(['--', countingJob(5)], env(sid));
    const [ra, rb] = await Promise.all([a.done, b.done]);
    expect([ra.exitCode, rb.exitCode]).toEqual([0, 0]);
    expect(emulator.jobs().filter((j) => j.submissionId === sid)).toHaveLength(1);
    const both = a.stdout() + b.stdout();
    expect(occurrences(both, 'submitted successfully')).toBe(1);
    expect(occurrences(both, 'has already been submitted, tailing logs.')).toBe(1);
  });
});

describe('exit codes for what went wrong around the job', () => {
  it('head agent killed (driver node DEAD, Ray still says RUNNING): exits 5', async () => {
    const sid = id();
    const run = startInProcess(['--driver-lost-after', '400ms', '--', countingJob(500, 0.05)], env(sid));
    await waitFor(() => run.stdout().includes('line 2'), 'the job to print');
    await emulator.faults.killAgent();
    const result = await run.done;
    expect(result.exitCode).toBe(5);
    expect(statusOf(sid)).toBe('RUNNING'); // frozen, as real Ray leaves it
    expect(parseTerminationMessage(run.terminationLog())).toMatchObject({ reason: 'DriverLost', lastStatus: 'RUNNING' });
  });

  it('head lost (the job is no longer known after it was seen): exits 3', async () => {
    const sid = id();
    const run = startInProcess(['--', countingJob(500, 0.05)], env(sid));
    await waitFor(() => run.stdout().includes('line 2'), 'the job to print');
    await emulator.faults.loseHead();
    const result = await run.done;
    expect(result.exitCode).toBe(3);
    const final = parseTerminationMessage(run.terminationLog());
    expect(final).toMatchObject({ reason: 'HeadLost', lastStatus: 'RUNNING' });
    // Never "...does not exist: Job is currently running.": Ray's stale message is labelled as the last one seen.
    expect(final?.message).not.toMatch(/does not exist\W*: Job is currently running/);
    expect(final?.message).toMatch(/head was lost.*When last seen, Ray reported RUNNING: Job is currently running/);
  });

  it('dashboard unreachable past --max-unreachable: exits 4', async () => {
    const sid = id();
    const run = startInProcess(['--max-unreachable', '700ms', '--', countingJob(500, 0.05)], env(sid));
    await waitFor(() => run.stdout().includes('line 2'), 'the job to print');
    const stoppedAt = Date.now();
    await emulator.faults.stopDashboard();
    const result = await run.done;
    expect(result.exitCode).toBe(4);
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(650);
    expect(parseTerminationMessage(run.terminationLog())).toMatchObject({ reason: 'Unreachable' });
    await emulator.faults.startDashboard();
  });

  it('head agent killed before the submit (every POST 500s): exits 4 at --max-unreachable, the job never submitted', async () => {
    // reference/status-correctness.md: 5xx are retried until --max-unreachable, then exit 4; the operator keeps the
    // RayJob Running meanwhile (rule 3: not found while the submitter runs) and then fails it SubmissionFailed.
    await emulator.faults.killAgent();
    const sid = id();
    const started = Date.now();
    const run = startInProcess(['--max-unreachable', '700ms', '--', countingJob(3)], env(sid));
    const result = await run.done;
    expect(result.exitCode).toBe(4);
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
    expect(statusOf(sid)).toBeUndefined();
    expect(parseTerminationMessage(run.terminationLog())).toMatchObject({ submissionId: sid, reason: 'Unreachable' });
  });

  it('a dashboard outage shorter than --max-unreachable is ridden out', async () => {
    const sid = id();
    const run = startInProcess(['--log-format', 'json', '--max-unreachable', '20s', '--', countingJob(40, 0.03)], env(sid));
    await waitFor(() => run.stdout().includes('line 3\n'), 'the job to print');
    await emulator.faults.stopDashboard();
    await new Promise((r) => setTimeout(r, 400));
    await emulator.faults.startDashboard();
    expect((await run.done).exitCode).toBe(0);
    expect(run.stdout()).toBe(await fullLog(run, sid));
  });

  it('GCS never healthy within --health-timeout: exits 4 after saying it waits', async () => {
    emulator.faults.fail5xx(1_000_000, 503);
    const sid = id();
    const run = startInProcess(['--health-timeout', '600ms', '--', 'echo never'], env(sid));
    const result = await run.done;
    expect(result.exitCode).toBe(4);
    expect(run.stdout()).toContain(`Waiting for Ray Dashboard GCS to become healthy at ${emulator.url} ...`);
    expect(emulator.requests().every((r) => r.path === '/api/gcs_healthz')).toBe(true);
    emulator.faults.fail5xx(0);
  });

  it('a rejected request (403: wrong token): exits 2', async () => {
    await emulator.stop();
    emulator = await startRayEmulator({ timing: fastTiming, authToken: 'the-right-token-123' });
    const sid = id();
    const run = startInProcess(['--', 'echo hi'], env(sid, { RAY_AUTH_TOKEN: 'a-wrong-token-456' }));
    const result = await run.done;
    expect(result.exitCode).toBe(2);
    expect(run.stderr()).toContain('403');
    expect(emulator.jobs()).toHaveLength(0);
  });

  it('an internal error (a dependency throws): exits 70, never 1', async () => {
    const sid = id();
    const run = startInProcess(['--', 'echo hi'], env(sid), {
      wrapClient: (client) => ({
        ...client,
        getJob: async () => {
          throw new TypeError('boom from an injected dependency');
        },
      }),
    });
    const result = await run.done;
    expect(result.exitCode).toBe(70);
    expect(run.stderr()).toContain('boom from an injected dependency');
    expect(parseTerminationMessage(run.terminationLog())).toMatchObject({ reason: 'InternalError', exitCode: 70 });
  });
});

describe('the entrypoint is data', () => {
  const tricky = `printf '%s\\n' "semi;colon" && echo \`echo tick\` "[$RAYJOB_T]" 'single "double"' ü€ ; echo after`;
  it.each([
    {
      name: 'one argument arrives verbatim and the head shell interprets it',
      args: [tricky],
      recorded: tricky,
      output: 'semi;colon\ntick [from-head] single "double" ü€\nafter\n',
    },
    {
      name: 'several arguments are shell-quoted and joined as `ray job submit` does',
      args: ['printf', '%s|', 'a b', "it's", '$RAYJOB_T', '`x`;&&', 'ü€'],
      recorded: shellJoin(['printf', '%s|', 'a b', "it's", '$RAYJOB_T', '`x`;&&', 'ü€']),
      output: "a b|it's|$RAYJOB_T|`x`;&&|ü€|",
    },
  ])('$name', async ({ args, recorded, output }) => {
    await emulator.stop();
    emulator = await startRayEmulator({ timing: fastTiming, env: { RAYJOB_T: 'from-head' } });
    const sid = id();
    const run = startInProcess(['--log-format', 'json', '--', ...args], env(sid));
    expect((await run.done).exitCode).toBe(0);
    const job = await run.client.getJob(sid);
    expect(job.kind === 'ok' && job.value.entrypoint).toBe(recorded);
    expect(run.stdout()).toContain(output);
  });
});

describe('the auth token never appears in what the submitter writes', () => {
  const canary = 'CANARY-token-5f2e9a7c';
  const headerCanary = 'CANARY-header-8b1d3e6f';
  it.each([
    { name: 'success, text', format: 'text', fault: undefined, exitCode: 0 },
    { name: 'success, json', format: 'json', fault: undefined, exitCode: 0 },
    { name: 'dashboard unreachable, json', format: 'json', fault: 'stop', exitCode: 4 },
    { name: 'GCS never healthy, text', format: 'text', fault: 'unhealthy', exitCode: 4 },
  ])('$name', async ({ format, fault, exitCode }) => {
    await emulator.stop();
    emulator = await startRayEmulator({ timing: fastTiming, authToken: canary });
    if (fault === 'unhealthy') emulator.faults.fail5xx(1_000_000, 503);
    const sid = id();
    const run = startInProcess(
      [
        '--log-format', format, '--max-unreachable', '500ms', '--health-timeout', fault === 'unhealthy' ? '300ms' : '1h',
        '--headers', JSON.stringify({ 'X-Canary': headerCanary }), '--', countingJob(fault === 'stop' ? 500 : 3),
      ],
      env(sid, { RAY_AUTH_TOKEN: canary }),
    );
    if (fault === 'stop') {
      await waitFor(() => run.stdout().includes('line 1'), 'the job to print');
      await emulator.faults.stopDashboard();
    }
    expect((await run.done).exitCode).toBe(exitCode);
    emulator.faults.fail5xx(0);
    // The secrets were really sent (so this test can fail)...
    const sent = emulator.requests().find((r) => r.path.startsWith('/api/jobs/'));
    if (fault !== 'unhealthy') {
      expect(sent?.headers['x-ray-authorization']).toBe(`Bearer ${canary}`);
      expect(sent?.headers['x-canary']).toBe(headerCanary);
    }
    // ...and never written.
    for (const text of [run.stdout(), run.stderr(), run.terminationLog()]) {
      expect(text).not.toContain(canary);
      expect(text).not.toContain(headerCanary);
    }
    expect(run.terminationLog()).toContain(sid);
    if (fault === 'stop') await emulator.faults.startDashboard();
  });
});
