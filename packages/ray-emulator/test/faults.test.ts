import { describe, expect, it } from 'vitest';
import { emulator } from './support/emulator.ts';
import { getJson, raw, submit, tail } from './support/raw-http.ts';
import { waitFor } from './support/wait-for.ts';

const status = async (url: string, id: string) => (await getJson(url, `/api/jobs/${id}`)).json?.status;
const untilStatus = (url: string, id: string, s: string) =>
  waitFor(async () => (await status(url, id)) === s, { what: `${id} ${s}` });
const headNode = async (url: string) => {
  const { json } = await getJson(url, '/nodes?view=summary');
  return (json as { data: { summary: Array<{ raylet: { nodeId: string; state: string; isHeadNode: boolean } }> } }).data.summary.find(
    (n) => n.raylet.isHeadNode,
  )?.raylet;
};
const longJob = 'echo started; while true; do sleep 0.05; done';

describe('faults', () => {
  it('restartJobHead: tails close 1000, JobHead routes answer 500 for a while, jobs keep running', async () => {
    const e = await emulator();
    await submit(e.url, { entrypoint: longJob, submission_id: 'j1' });
    await untilStatus(e.url, 'j1', 'RUNNING');
    const t = tail(e.ws, 'j1');
    await waitFor(() => t.frames.join('').includes('started'), { what: 'first frame' });
    await e.faults.restartJobHead({ downForMs: 300 });
    expect(await t.ended).toMatchObject({ kind: 'closed', code: 1000 });
    for (const path of ['/api/jobs/j1', '/api/version', '/api/jobs/']) {
      expect(await raw(e.url, 'GET', path)).toMatchObject({ status: 500, body: '500 Internal Server Error\n\nServer got itself in trouble' });
    }
    expect(await tail(e.ws, 'j1').ended).toMatchObject({ kind: 'refused', status: 500 });
    expect((await raw(e.url, 'GET', '/nodes?view=summary')).status).toBe(200);
    expect((await raw(e.url, 'GET', '/api/gcs_healthz')).status).toBe(200);
    await waitFor(async () => (await raw(e.url, 'GET', '/api/jobs/j1')).status === 200, { what: 'JobHead back' });
    expect(await status(e.url, 'j1')).toBe('RUNNING');
  });

  it('killAgent: driver killed, job frozen RUNNING, mutations 500, head node DEAD after the delay', async () => {
    const e = await emulator({ timing: { nodeDeathDelayMs: 200 } });
    await submit(e.url, { entrypoint: longJob, submission_id: 'k1' });
    await untilStatus(e.url, 'k1', 'RUNNING');
    const pid = e.jobs()[0]?.pid as number;
    const t = tail(e.ws, 'k1');
    await waitFor(() => t.frames.length > 0, { what: 'first frame' });
    const killedAt = Date.now();
    await e.faults.killAgent();
    expect(await t.ended).toMatchObject({ kind: 'closed', code: 1000 });
    await waitFor(() => !alive(pid), { what: 'the driver to die' });
    expect((await headNode(e.url))?.state).toBe('ALIVE');
    await waitFor(async () => (await headNode(e.url))?.state === 'DEAD', { what: 'head DEAD' });
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(150);
    expect(await status(e.url, 'k1')).toBe('RUNNING');
    for (const [method, path] of [['POST', '/api/jobs/k1/stop'], ['DELETE', '/api/jobs/k1'], ['GET', '/api/jobs/k1/logs']] as const) {
      const answer = await raw(e.url, method, path);
      expect(answer.status).toBe(500);
      const exceptionLines = answer.body.split('\n').filter((l) => /^([\w]+\.)*\w+(Error|Exception): /.test(l));
      expect(exceptionLines).toEqual([
        "ConnectionRefusedError: [Errno 111] Connect call failed ('127.0.0.1', 52365)",
        "aiohttp.client_exceptions.ClientConnectorError: Cannot connect to host 127.0.0.1:52365 ssl:default [Connect call failed ('127.0.0.1', 52365)]",
      ]);
    }
    const sub = await submit(e.url, { entrypoint: 'true' });
    expect(sub.status).toBe(500);
    expect((await raw(e.url, 'GET', '/api/gcs_healthz')).status).toBe(200);
  });

  it('stopDashboard: connection refused and tails cut without a close frame; startDashboard: same port, jobs went on', async () => {
    const e = await emulator();
    await submit(e.url, { entrypoint: 'echo a; sleep 0.3; echo b', submission_id: 'd1' });
    await untilStatus(e.url, 'd1', 'RUNNING');
    const t = tail(e.ws, 'd1');
    await waitFor(() => t.frames.length > 0, { what: 'first frame' });
    await e.faults.stopDashboard();
    expect(await t.ended).toMatchObject({ kind: 'closed', code: 1006 });
    await expect(raw(e.url, 'GET', '/api/version')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await waitFor(() => e.jobs()[0]?.status === 'SUCCEEDED', { what: 'the job to finish while the dashboard is down' });
    await e.faults.startDashboard();
    expect(await status(e.url, 'd1')).toBe('SUCCEEDED');
  });

  it('loseHead: every job forgotten, processes killed, a new head node id', async () => {
    const e = await emulator();
    await submit(e.url, { entrypoint: longJob, submission_id: 'h1' });
    await untilStatus(e.url, 'h1', 'RUNNING');
    const pid = e.jobs()[0]?.pid as number;
    const before = await headNode(e.url);
    const t = tail(e.ws, 'h1');
    await waitFor(() => t.frames.length > 0, { what: 'first frame' });
    await e.faults.loseHead();
    expect(await t.ended).toMatchObject({ kind: 'closed', code: 1006 });
    expect((await raw(e.url, 'GET', '/api/jobs/h1')).status).toBe(404);
    expect(e.jobs()).toEqual([]);
    await waitFor(() => !alive(pid), { what: 'the driver to die' });
    const after = await headNode(e.url);
    expect(after?.nodeId).not.toBe(before?.nodeId);
    expect(after?.state).toBe('ALIVE');
  });

  it('dropLastLogChunk: the tail misses the final chunk that GET logs has (ray#46413)', async () => {
    const e = await emulator({ timing: { logPollMs: 30 } });
    e.faults.dropLastLogChunk(true);
    await submit(e.url, { entrypoint: 'echo one; sleep 0.2; echo last$((1))words', submission_id: 'c1' });
    const t = tail(e.ws, 'c1');
    expect(await t.ended).toMatchObject({ kind: 'closed', code: 1000 });
    const logs = JSON.parse((await raw(e.url, 'GET', '/api/jobs/c1/logs')).body).logs as string;
    expect(logs).toContain('last1words\n');
    expect(t.frames.join('')).toContain('one\n');
    expect(t.frames.join('')).not.toContain('last1words');
    e.faults.dropLastLogChunk(false);
    const full = tail(e.ws, 'c1');
    await full.ended;
    expect(full.frames.join('')).toBe(logs);
  });

  it('slowAnswers delays every answer, 0 turns it off', async () => {
    const e = await emulator();
    e.faults.slowAnswers(700);
    let started = Date.now();
    await raw(e.url, 'GET', '/api/version');
    expect(Date.now() - started).toBeGreaterThanOrEqual(680);
    e.faults.slowAnswers(0);
    started = Date.now();
    await raw(e.url, 'GET', '/api/version');
    expect(Date.now() - started).toBeLessThan(600);
  });

  it('fail5xx answers the next N requests with the status, then recovers', async () => {
    const e = await emulator();
    e.faults.fail5xx(3, 503);
    expect(await raw(e.url, 'GET', '/api/version')).toMatchObject({ status: 503, body: '503: Service Unavailable' });
    expect((await raw(e.url, 'GET', '/nodes?view=summary')).status).toBe(503);
    expect(await raw(e.url, 'GET', '/api/gcs_healthz')).toMatchObject({
      status: 503, body: '503: Health check failed: RPC error: Deadline Exceeded',
    });
    expect((await raw(e.url, 'GET', '/api/version')).status).toBe(200);
    e.faults.fail5xx(1);
    expect(await raw(e.url, 'GET', '/api/jobs/')).toMatchObject({ status: 500, body: '500 Internal Server Error\n\nServer got itself in trouble' });
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('supervisor and worker faults', () => {
  it('killSupervisor: entrypoint killed, FAILED / JOB_SUPERVISOR_ACTOR_DIED, reason appended to the log', async () => {
    const e = await emulator({ timing: { supervisorDeathMs: 100 } });
    await submit(e.url, { entrypoint: longJob, submission_id: 'sv1' });
    await untilStatus(e.url, 'sv1', 'RUNNING');
    const pid = e.jobs()[0]?.pid as number;
    await e.faults.killSupervisor('sv1');
    await waitFor(() => !alive(pid), { what: 'the entrypoint to die' });
    await untilStatus(e.url, 'sv1', 'FAILED');
    const job = (await getJson(e.url, '/api/jobs/sv1')).json as Record<string, unknown>;
    expect(job.error_type).toBe('JOB_SUPERVISOR_ACTOR_DIED');
    expect(job.driver_exit_code).toBeNull();
    expect(String(job.message)).toMatch(/^Job supervisor actor died: The actor died unexpectedly before finishing this task\.\n\tclass_name: JobSupervisor\n/);
    const logs = JSON.parse((await raw(e.url, 'GET', '/api/jobs/sv1/logs')).body).logs as string;
    expect(logs.endsWith(String(job.message))).toBe(true);
    expect((await raw(e.url, 'POST', '/api/jobs/sv1/stop')).body).toBe('{"stopped":false}');
  });

  it('killWorkerNode: its drivers fail as supervisor deaths, its logs 500, the node DEAD later, nothing new placed there', async () => {
    const e = await emulator({ timing: { nodeDeathDelayMs: 150 } });
    const worker = e.addWorkerNode({ resources: { slot: 2 } });
    await submit(e.url, { entrypoint: longJob, submission_id: 'wk1', entrypoint_resources: { slot: 1 } });
    await submit(e.url, { entrypoint: longJob, submission_id: 'hd1' });
    await untilStatus(e.url, 'wk1', 'RUNNING');
    await untilStatus(e.url, 'hd1', 'RUNNING');
    const t = tail(e.ws, 'wk1');
    await waitFor(() => t.frames.length > 0, { what: 'first frame' });
    await e.faults.killWorkerNode(worker);
    expect(await t.ended).toMatchObject({ kind: 'closed', code: 1000 });
    await untilStatus(e.url, 'wk1', 'FAILED');
    expect((await getJson(e.url, '/api/jobs/wk1')).json?.error_type).toBe('JOB_SUPERVISOR_ACTOR_DIED');
    const logs = await raw(e.url, 'GET', '/api/jobs/wk1/logs');
    expect(logs.status).toBe(500);
    expect(logs.body).toContain('ClientConnectorError');
    await submit(e.url, { entrypoint: 'true', submission_id: 'wk2', entrypoint_resources: { slot: 1 } });
    await waitFor(async () => {
      const { json } = await getJson(e.url, '/nodes?view=summary');
      const nodes = (json as { data: { summary: Array<{ raylet: { nodeId: string; state: string } }> } }).data.summary;
      return nodes.find((n) => n.raylet.nodeId === worker)?.raylet.state === 'DEAD';
    }, { what: 'the worker DEAD' });
    expect(await status(e.url, 'wk2')).toBe('PENDING');
    expect(await status(e.url, 'hd1')).toBe('RUNNING');
  });

  it.each([
    ['killSupervisor of an unknown job', (e: Awaited<ReturnType<typeof emulator>>) => e.faults.killSupervisor('ghost'), /no job ghost/],
    ['killWorkerNode of the head', async (e: Awaited<ReturnType<typeof emulator>>) => {
      const head = await headNode(e.url);
      return e.faults.killWorkerNode(head?.nodeId ?? '');
    }, /is not a worker/],
  ])('%s is refused with a clear error', async (_name, act, message) => {
    const e = await emulator();
    await expect(act(e)).rejects.toThrow(message);
  });
});

describe('resource demand (what the sandbox autoscaler stand-in scales for)', () => {
  it('is stated on the control port and read back; bad amounts are refused', async () => {
    const { startFaultControl } = await import('../src/fault-control.ts');
    const e = await emulator();
    const control = await startFaultControl(e, '127.0.0.1', 0);
    try {
      expect(await (await fetch(`${control.url}/resourceDemand`)).json()).toEqual({});
      const set = await fetch(`${control.url}/resourceDemand`, { method: 'POST', body: JSON.stringify({ CPU: 3 }) });
      expect(await set.json()).toEqual({ CPU: 3 });
      expect(e.resourceDemand()).toEqual({ CPU: 3 });
      const bad = await fetch(`${control.url}/resourceDemand`, { method: 'POST', body: JSON.stringify({ CPU: -1 }) });
      expect(bad.status).toBe(400);
      expect(e.resourceDemand()).toEqual({ CPU: 3 });
    } finally {
      await control.close();
    }
  });
});
