import { describe, expect, it } from 'vitest';
import { emulator } from './support/emulator.ts';
import { getJson, raw, submit } from './support/raw-http.ts';
import { waitFor } from './support/wait-for.ts';

import { printedLine } from './support/printed-line.ts';

type Details = Record<string, unknown>;

async function job(url: string, id: string): Promise<Details> {
  const answer = await getJson(url, `/api/jobs/${id}`);
  if (!answer.json) throw new Error(`GET ${id}: ${answer.status} ${answer.body}`);
  return answer.json;
}

async function untilStatus(url: string, id: string, status: string, timeoutMs = 5_000): Promise<Details> {
  return waitFor(async () => {
    const details = await job(url, id);
    return details.status === status ? details : undefined;
  }, { what: `${id} to be ${status}`, timeoutMs });
}

describe('job lifecycle', () => {
  it('goes PENDING -> RUNNING -> SUCCEEDED with Ray\'s 15 keys, messages and times', async () => {
    const e = await emulator({ timing: { pendingToRunningMs: 300 } });
    const before = Date.now();
    expect((await submit(e.url, { entrypoint: 'sleep 0.3; echo done', submission_id: 'ok1' })).body).toBe(
      '{"job_id":"ok1","submission_id":"ok1"}',
    );
    const pending = await job(e.url, 'ok1');
    expect(Object.keys(pending)).toEqual([
      'type', 'job_id', 'submission_id', 'driver_info', 'status', 'entrypoint', 'message', 'error_type', 'start_time',
      'end_time', 'metadata', 'runtime_env', 'driver_agent_http_address', 'driver_node_id', 'driver_exit_code',
    ]);
    expect(pending).toMatchObject({
      type: 'SUBMISSION', job_id: null, status: 'PENDING', message: 'Job has not started yet.', end_time: null,
      driver_agent_http_address: null, driver_node_id: null, driver_exit_code: null, metadata: null, runtime_env: null,
    });
    expect(pending.start_time as number).toBeGreaterThanOrEqual(before);
    const running = await untilStatus(e.url, 'ok1', 'RUNNING');
    expect(running.message).toBe('Job is currently running.');
    expect(running.driver_agent_http_address).toBe('http://127.0.0.1:52365');
    expect(running.driver_node_id).toMatch(/^[0-9a-f]{56}$/);
    const done = await untilStatus(e.url, 'ok1', 'SUCCEEDED');
    expect(done).toMatchObject({ message: 'Job finished successfully.', error_type: null, driver_exit_code: 0 });
    expect(done.end_time as number).toBeGreaterThanOrEqual(done.start_time as number);
    expect(done.start_time).toBe(pending.start_time);
  });

  it.each([
    ['exit 3', 3],
    ['kill -9 $$', -9],
    ['nonexistent-command-xyz', 127],
  ])('reports `%s` as FAILED with driver_exit_code %i and Ray\'s message', async (entrypoint, code) => {
    const e = await emulator();
    await submit(e.url, { entrypoint: `echo before; ${entrypoint}`, submission_id: 'f1' });
    const failed = await untilStatus(e.url, 'f1', 'FAILED');
    expect(failed.error_type).toBe('JOB_ENTRYPOINT_COMMAND_ERROR');
    expect(failed.driver_exit_code).toBe(code);
    expect(failed.message).toMatch(
      new RegExp(`^Job entrypoint command failed with exit code ${code}, last available logs \\(truncated to 20,000 chars\\):\\n`),
    );
    expect(failed.message).toContain('before\n');
  });

  it('quotes only the last 10 log lines in the failure message', async () => {
    const e = await emulator();
    await submit(e.url, { entrypoint: 'for i in $(seq 1 30); do echo n$i; done; exit 1', submission_id: 'f2' });
    const failed = await untilStatus(e.url, 'f2', 'FAILED');
    const quoted = String(failed.message).split(':\n')[1];
    expect(quoted).toBe(Array.from({ length: 10 }, (_, i) => `n${i + 21}\n`).join(''));
  });

  it('runs the entrypoint byte-identical through bash -c', async () => {
    const e = await emulator();
    const entrypoint = `a='x;y' && echo "$a" \`echo tick\` 'single "dq"' && echo $((2+3)) | cat; printf '%s\\n' "$0"`;
    await submit(e.url, { entrypoint, submission_id: 'q1' });
    const done = await untilStatus(e.url, 'q1', 'SUCCEEDED');
    expect(done.entrypoint).toBe(entrypoint);
    const logs = JSON.parse((await raw(e.url, 'GET', '/api/jobs/q1/logs')).body).logs as string;
    expect(logs).toContain('x;y tick single "dq"\n5\n/bin/bash\n');
    expect(logs).toContain(`Running entrypoint for job q1: ${entrypoint}\n`);
    expect(logs).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}\tINFO job_manager\.py:\d+ -- Runtime env is setting up\.\n/);
  });

  it('passes cwd and env to the entrypoint', async () => {
    const e = await emulator({ cwd: '/tmp', env: { EMU_TEST_VAR: 'hello' } });
    await submit(e.url, { entrypoint: 'pwd; echo $EMU_TEST_VAR', submission_id: 'c1' });
    await untilStatus(e.url, 'c1', 'SUCCEEDED');
    expect(JSON.parse((await raw(e.url, 'GET', '/api/jobs/c1/logs')).body).logs).toContain('/tmp\nhello\n');
  });

  it('stops a RUNNING job: SIGTERM to the group, STOPPED with a null exit code', async () => {
    const e = await emulator();
    await submit(e.url, { entrypoint: 'trap "echo got-term; exit 0" TERM; echo up; while true; do sleep 0.05; done', submission_id: 's1' });
    await waitFor(async () => printedLine(await raw(e.url, 'GET', '/api/jobs/s1/logs'), 'up'), { what: 'the trap to be set' });
    expect((await raw(e.url, 'POST', '/api/jobs/s1/stop')).body).toBe('{"stopped":true}');
    const stopped = await untilStatus(e.url, 's1', 'STOPPED');
    expect(stopped).toMatchObject({ message: 'Job was intentionally stopped.', driver_exit_code: null, error_type: null });
    expect(JSON.parse((await raw(e.url, 'GET', '/api/jobs/s1/logs')).body).logs).toContain('got-term');
    expect((await raw(e.url, 'POST', '/api/jobs/s1/stop')).body).toBe('{"stopped":false}');
  });

  it('SIGKILLs a driver that ignores SIGTERM after the grace period', async () => {
    const e = await emulator({ timing: { stopGraceMs: 300 } });
    await submit(e.url, { entrypoint: 'trap "" TERM; echo up; while true; do sleep 0.05; done', submission_id: 's2' });
    await waitFor(async () => printedLine(await raw(e.url, 'GET', '/api/jobs/s2/logs'), 'up'), { what: 'the trap' });
    const stoppedAt = Date.now();
    await raw(e.url, 'POST', '/api/jobs/s2/stop');
    await untilStatus(e.url, 's2', 'STOPPED');
    expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(250);
  });

  it('keeps a stopped PENDING job PENDING while it cannot start, and stops it once it starts', async () => {
    const e = await emulator();
    await submit(e.url, { entrypoint: 'echo $((40+2))', submission_id: 'p1', entrypoint_resources: { special: 1 } });
    expect((await raw(e.url, 'POST', '/api/jobs/p1/stop')).body).toBe('{"stopped":true}');
    await new Promise((r) => setTimeout(r, 200));
    const pending = await job(e.url, 'p1');
    expect(pending.status).toBe('PENDING');
    expect(pending.message).toBe(
      'Job has not started yet. It may be waiting for resources (CPUs, GPUs, memory, custom resources) to become available.',
    );
    e.addWorkerNode({ resources: { special: 1 } });
    const stopped = await untilStatus(e.url, 'p1', 'STOPPED');
    expect(stopped.driver_node_id).not.toBeNull();
    expect(JSON.parse((await raw(e.url, 'GET', '/api/jobs/p1/logs')).body).logs).not.toContain('\n42\n');
  });

  it('places a driver that needs a worker-only resource on that worker, others on the head', async () => {
    const e = await emulator();
    const worker = e.addWorkerNode({ resources: { CPU: 2, accel: 1 } });
    await submit(e.url, { entrypoint: 'true', submission_id: 'w1', entrypoint_resources: { accel: 1 } });
    await submit(e.url, { entrypoint: 'true', submission_id: 'h1', entrypoint_num_cpus: 1 });
    const onWorker = await untilStatus(e.url, 'w1', 'SUCCEEDED');
    const onHead = await untilStatus(e.url, 'h1', 'SUCCEEDED');
    expect(onWorker.driver_node_id).toBe(worker);
    expect(onWorker.driver_agent_http_address).not.toBe(onHead.driver_agent_http_address);
    const nodes = (await getJson(e.url, '/nodes?view=summary')).json as { data: { summary: Array<{ raylet: { nodeId: string; isHeadNode: boolean } }> } };
    const head = nodes.data.summary.find((n) => n.raylet.isHeadNode);
    expect(onHead.driver_node_id).toBe(head?.raylet.nodeId);
  });

  it('waits for resources held by a running job and starts when they are released', async () => {
    const e = await emulator();
    e.addWorkerNode({ resources: { slot: 1 } });
    await submit(e.url, { entrypoint: 'sleep 0.4', submission_id: 'r1', entrypoint_resources: { slot: 1 } });
    await untilStatus(e.url, 'r1', 'RUNNING');
    await submit(e.url, { entrypoint: 'true', submission_id: 'r2', entrypoint_resources: { slot: 1 } });
    await new Promise((r) => setTimeout(r, 150));
    expect((await job(e.url, 'r2')).status).toBe('PENDING');
    await untilStatus(e.url, 'r2', 'SUCCEEDED');
  });

  it('fails a job still PENDING at the start timeout with Ray\'s message', async () => {
    const e = await emulator({ timing: { startTimeoutMs: 1_500 } });
    await submit(e.url, { entrypoint: 'true', submission_id: 't1', entrypoint_resources: { nowhere: 1 } });
    const failed = await untilStatus(e.url, 't1', 'FAILED');
    expect(failed.error_type).toBe('JOB_SUPERVISOR_ACTOR_START_TIMEOUT');
    expect(failed.message).toMatch(/^Job supervisor actor failed to start within 1\.5 seconds\. This timeout can be configured/);
    expect(failed.message).toContain('entrypoint_memory)aren\'t available on the cluster.');
    expect(failed.driver_exit_code).toBeNull();
    expect((await raw(e.url, 'GET', '/api/jobs/t1/logs')).body).toBe('{"logs":""}');
  });

  it('fails a job asking for CPU in entrypoint_resources as a supervisor start failure', async () => {
    const e = await emulator();
    expect((await submit(e.url, { entrypoint: 'true', submission_id: 'cpu1', entrypoint_resources: { CPU: 0.1 } })).status).toBe(200);
    const failed = await untilStatus(e.url, 'cpu1', 'FAILED');
    expect(failed.error_type).toBe('JOB_SUPERVISOR_ACTOR_START_FAILURE');
    expect(failed.message).toMatch(/^Failed to start supervisor actor cpu1: 'Use the 'num_cpus' and 'num_gpus' keyword/);
    expect(failed.driver_agent_http_address).toBeNull();
  });

  it('adds the runtime-env hint to the PENDING message', async () => {
    const e = await emulator({ timing: { pendingToRunningMs: 5_000 } });
    await submit(e.url, { entrypoint: 'true', submission_id: 'env1', runtime_env: { env_vars: { A: '1' } }, metadata: { k: 'v' } });
    const pending = await job(e.url, 'env1');
    expect(pending.message).toBe('Job has not started yet. It may be waiting for the runtime environment to be set up.');
    expect(pending).toMatchObject({ runtime_env: { env_vars: { A: '1' } }, metadata: { k: 'v' } });
  });

  it('generates raysubmit_ ids from Ray\'s alphabet when none is given', async () => {
    const e = await emulator();
    for (const body of [{ entrypoint: 'true' }, { entrypoint: 'true', submission_id: '' }, { entrypoint: 'true', submission_id: null }]) {
      const answer = JSON.parse((await submit(e.url, body)).body) as { submission_id: string; job_id: string };
      expect(answer.submission_id).toMatch(/^raysubmit_[A-HJ-NP-Za-km-z1-9]{16}$/);
      expect(answer.job_id).toBe(answer.submission_id);
    }
  });

  it('uses the deprecated job_id field when submission_id is absent', async () => {
    const e = await emulator();
    expect(JSON.parse((await submit(e.url, { entrypoint: 'true', job_id: 'legacy' })).body).submission_id).toBe('legacy');
  });

  it('refuses to delete a non-terminal job with Ray\'s 500, deletes a terminal one, and appends to the log on resubmit', async () => {
    const e = await emulator();
    await submit(e.url, { entrypoint: 'echo first; sleep 0.3', submission_id: 'd1' });
    await untilStatus(e.url, 'd1', 'RUNNING');
    const refused = await raw(e.url, 'DELETE', '/api/jobs/d1');
    expect(refused.status).toBe(500);
    expect(refused.body).toContain("RuntimeError: Attempted to delete job 'd1', but it is in a non-terminal state RUNNING.\n.");
    await untilStatus(e.url, 'd1', 'SUCCEEDED');
    expect((await raw(e.url, 'DELETE', '/api/jobs/d1')).body).toBe('{"deleted":true}');
    expect((await raw(e.url, 'GET', '/api/jobs/d1')).status).toBe(404);
    await submit(e.url, { entrypoint: 'echo second', submission_id: 'd1' });
    await untilStatus(e.url, 'd1', 'SUCCEEDED');
    const logs = JSON.parse((await raw(e.url, 'GET', '/api/jobs/d1/logs')).body).logs as string;
    expect(logs.indexOf('first')).toBeGreaterThanOrEqual(0);
    expect(logs.indexOf('second')).toBeGreaterThan(logs.indexOf('first'));
  });

  it('lists every submission job', async () => {
    const e = await emulator();
    await submit(e.url, { entrypoint: 'true', submission_id: 'l1' });
    await submit(e.url, { entrypoint: 'true', submission_id: 'l2' });
    const list = JSON.parse((await raw(e.url, 'GET', '/api/jobs/')).body) as Array<{ submission_id: string }>;
    expect(list.map((j) => j.submission_id).sort()).toEqual(['l1', 'l2']);
    expect(e.jobs().map((j) => j.submissionId).sort()).toEqual(['l1', 'l2']);
  });
});
