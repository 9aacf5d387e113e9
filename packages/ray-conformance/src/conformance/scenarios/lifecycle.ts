/** A job's life through GET, list, stop, delete and logs, and the texts for unknown ids. */
import { expect } from 'vitest';
import { pollUntil } from '../../probe/deadline.ts';
import { jsonBody } from '../../probe/http.ts';
import { isTerminalStatus } from '../context.ts';
import { normalizeJson, normalizeText } from '../normalize.ts';
import { comparable, type Scenario } from '../scenario.ts';

const detailsKeys = [
  'driver_agent_http_address', 'driver_exit_code', 'driver_info', 'driver_node_id', 'end_time', 'entrypoint', 'error_type',
  'job_id', 'message', 'metadata', 'runtime_env', 'start_time', 'status', 'submission_id', 'type',
];

export const lifecycleScenarios: Scenario[] = [
  {
    name: 'a job that exits 0: details while RUNNING and once SUCCEEDED, then its logs',
    async run(ctx) {
      const sid = ctx.sid('succeeds');
      await ctx.submit({ entrypoint: 'echo hello; sleep 3; echo bye', submission_id: sid });
      const pending = normalizeJson(await ctx.job(sid), ctx.subs);
      const running = normalizeJson(await ctx.waitForStatus(sid, (s) => s !== 'PENDING', 150_000), ctx.subs);
      const done = normalizeJson(await ctx.waitForStatus(sid, isTerminalStatus, 150_000), ctx.subs);
      const logs = jsonBody(await ctx.http(`/api/jobs/${sid}/logs`)) as { logs: string };
      return { pending, running, done, logKeys: Object.keys(logs), logs: ctx.logLines(logs.logs) };
    },
    check(o) {
      const common = {
        type: 'SUBMISSION', job_id: null, submission_id: '<sid:succeeds>', driver_info: null,
        entrypoint: 'echo hello; sleep 3; echo bye', error_type: null, start_time: '<number>', metadata: null, runtime_env: null,
      };
      expect(Object.keys(o.pending as object).sort()).toEqual(detailsKeys);
      expect(o.pending).toMatchObject({ ...common, status: 'PENDING', message: 'Job has not started yet.', end_time: null,
        driver_agent_http_address: null, driver_node_id: null, driver_exit_code: null });
      expect(o.running).toEqual({ ...common, status: 'RUNNING', message: 'Job is currently running.', end_time: null,
        driver_agent_http_address: 'http://127.0.0.1:<port>', driver_node_id: '<opaque>', driver_exit_code: null });
      expect(o.done).toEqual({ ...common, status: 'SUCCEEDED', message: 'Job finished successfully.', end_time: '<number>',
        driver_agent_http_address: 'http://127.0.0.1:<port>', driver_node_id: '<opaque>', driver_exit_code: 0 });
      expect(o.logKeys).toEqual(['logs']);
      expect(o.logs).toEqual({
        ray: ['<log-time>\tINFO job_manager.py:583 -- Runtime env is setting up.', 'Running entrypoint for job <sid:succeeds>: echo hello; sleep 3; echo bye'],
        output: ['hello', 'bye'],
      });
    },
  },
  {
    name: 'a job that exits 3 is FAILED with JOB_ENTRYPOINT_COMMAND_ERROR and the exit code',
    async run(ctx) {
      const sid = ctx.sid('fails');
      await ctx.submit({ entrypoint: 'echo before-failing; exit 3', submission_id: sid });
      const done = await ctx.waitForStatus(sid, isTerminalStatus, 150_000);
      const message = String(done.message);
      return {
        status: done.status,
        error_type: done.error_type,
        driver_exit_code: done.driver_exit_code,
        messageFirstLine: message.split('\n')[0],
        messageMentionsOutput: message.includes('before-failing'),
        end_time: typeof done.end_time,
      };
    },
    check(o) {
      expect(o).toEqual({
        status: 'FAILED',
        error_type: 'JOB_ENTRYPOINT_COMMAND_ERROR',
        driver_exit_code: 3,
        messageFirstLine: 'Job entrypoint command failed with exit code 3, last available logs (truncated to 20,000 chars):',
        messageMentionsOutput: true,
        end_time: 'number',
      });
    },
  },
  {
    name: 'an unknown id is 404 `Job <id> does not exist` on every route, the tail handshake included',
    async run(ctx) {
      const nope = ctx.sid('unknown');
      return {
        get: await ctx.observe(`/api/jobs/${nope}`),
        stop: await ctx.observe(`/api/jobs/${nope}/stop`, { method: 'POST' }),
        delete: await ctx.observe(`/api/jobs/${nope}`, { method: 'DELETE' }),
        logs: await ctx.observe(`/api/jobs/${nope}/logs`),
        tail: await ctx.tail(`/api/jobs/${nope}/logs/tail`, { deflate: false, timeoutMs: 15_000 }).then((r) =>
          r.kind === 'rejected' ? { rejected: r.status, body: r.body.split(nope).join('<sid:unknown>') } : r.kind,
        ),
      };
    },
    check(o) {
      const notFound = { status: 404, type: 'text/plain', text: 'Job <sid:unknown> does not exist' };
      expect(o).toEqual({ get: notFound, stop: notFound, delete: notFound, logs: notFound,
        tail: { rejected: 404, body: 'Job <sid:unknown> does not exist' } });
    },
  },
  {
    name: 'stop: a RUNNING job answers stopped=true and becomes STOPPED; stopping again answers false',
    async run(ctx) {
      const sid = ctx.sid('stopme');
      await ctx.submit({ entrypoint: 'sleep 60', submission_id: sid });
      await ctx.waitForStatus(sid, (s) => s === 'RUNNING', 150_000);
      const first = await ctx.observe(`/api/jobs/${sid}/stop`, { method: 'POST' });
      const done = await ctx.waitForStatus(sid, isTerminalStatus, 30_000);
      // Right after STOPPED the supervisor actor may still exist, and real Ray then answers
      // stopped=true again (observed once); once it is gone the answer is false.
      const againImmediately = await ctx.observe(`/api/jobs/${sid}/stop`, { method: 'POST' });
      const again = await pollUntil(
        async () => {
          const seen = await ctx.observe(`/api/jobs/${sid}/stop`, { method: 'POST' });
          return 'json' in seen && (seen.json as { stopped?: boolean }).stopped === false ? seen : undefined;
        },
        { what: 'stop to answer stopped=false', timeoutMs: 30_000, intervalMs: 500 },
      ).catch(() => againImmediately);
      return { first, status: done.status, message: done.message, error_type: done.error_type, driver_exit_code: done.driver_exit_code, again, _againImmediately: againImmediately };
    },
    check(o) {
      expect(comparable(o)).toEqual({
        first: { status: 200, type: 'application/json', json: { stopped: true } },
        status: 'STOPPED', message: 'Job was intentionally stopped.', error_type: null, driver_exit_code: null,
        again: { status: 200, type: 'application/json', json: { stopped: false } },
      });
    },
  },
  {
    name: 'delete: non-terminal is 500 naming the state; terminal is deleted and then 404',
    async run(ctx) {
      const sid = ctx.sid('deleteme');
      await ctx.submit({ entrypoint: 'sleep 4', submission_id: sid });
      await ctx.waitForStatus(sid, (s) => s === 'RUNNING', 150_000);
      const whileRunning = await ctx.observe(`/api/jobs/${sid}`, { method: 'DELETE' });
      await ctx.waitForStatus(sid, isTerminalStatus, 30_000);
      const afterEnd = await ctx.observe(`/api/jobs/${sid}`, { method: 'DELETE' });
      const getAfter = await ctx.observe(`/api/jobs/${sid}`);
      return { whileRunning, afterEnd, getAfter };
    },
    check(o) {
      expect(o).toEqual({
        whileRunning: { status: 500, type: 'text/plain', traceback: [
          'RuntimeError: Request failed with status code 500: Traceback (most recent call last):',
          "RuntimeError: Attempted to delete job '<sid:deleteme>', but it is in a non-terminal state RUNNING.",
        ] },
        afterEnd: { status: 200, type: 'application/json', json: { deleted: true } },
        getAfter: { status: 404, type: 'text/plain', text: 'Job <sid:deleteme> does not exist' },
      });
    },
  },
  {
    name: 'a job waiting for resources stays PENDING: stop answers true but it stays PENDING, delete is 500',
    async run(ctx) {
      const sid = ctx.sid('pending');
      await ctx.submit({ entrypoint: 'echo never', submission_id: sid, entrypoint_resources: { rayjob_nonexistent: 1 } });
      const details = normalizeJson(await ctx.job(sid), ctx.subs) as Record<string, unknown>;
      const stop = await ctx.observe(`/api/jobs/${sid}/stop`, { method: 'POST' });
      // Ray would move a stopped PENDING job only once its actor started; give it time to (not) move.
      await new Promise((r) => setTimeout(r, 3_000));
      const after = (await ctx.job(sid))?.status;
      const del = await ctx.observe(`/api/jobs/${sid}`, { method: 'DELETE' });
      const tail = await ctx.tail(`/api/jobs/${sid}/logs/tail`, { deflate: false, timeoutMs: 3_000 });
      return { status: details.status, message: details.message, stop, after, del, tailWhilePending: tail.kind === 'timeout' ? { silentFor3s: tail.frames.length === 0 } : tail.kind };
    },
    check(o) {
      expect(o).toEqual({
        status: 'PENDING',
        message: 'Job has not started yet. It may be waiting for resources (CPUs, GPUs, memory, custom resources) to become available.',
        stop: { status: 200, type: 'application/json', json: { stopped: true } },
        after: 'PENDING',
        del: { status: 500, type: 'text/plain', traceback: [
          'RuntimeError: Request failed with status code 500: Traceback (most recent call last):',
          "RuntimeError: Attempted to delete job '<sid:pending>', but it is in a non-terminal state PENDING.",
        ] },
        tailWhilePending: { silentFor3s: true },
      });
    },
  },
  {
    name: 'a supervisor that cannot start: FAILED before RUNNING, empty logs, tail closes 1000 at once',
    async run(ctx) {
      const sid = ctx.sid('nostart');
      await ctx.submit({ entrypoint: 'echo never', submission_id: sid, entrypoint_resources: { CPU: 0.1 } });
      const done = await ctx.waitForStatus(sid, isTerminalStatus, 150_000);
      const tail = await ctx.tail(`/api/jobs/${sid}/logs/tail`, { deflate: false, timeoutMs: 15_000 });
      return {
        status: done.status,
        error_type: done.error_type,
        messageStart: normalizeText(String(done.message), ctx.subs).split(': ')[0],
        driver_agent_http_address: done.driver_agent_http_address,
        logs: await ctx.observe(`/api/jobs/${sid}/logs`),
        tail: tail.kind === 'closed' ? { code: tail.code, frames: tail.frames.length, within2s: tail.closedAtMs - tail.openedAtMs < 2_000 } : tail.kind,
      };
    },
    check(o) {
      expect(o).toEqual({
        status: 'FAILED',
        error_type: 'JOB_SUPERVISOR_ACTOR_START_FAILURE',
        messageStart: 'Failed to start supervisor actor <sid:nostart>',
        driver_agent_http_address: null,
        logs: { status: 200, type: 'application/json', json: { logs: '' } },
        tail: { code: 1000, frames: 0, within2s: true },
      });
    },
  },
  {
    name: 'list: a JSON array whose entries have the GET shape',
    async run(ctx) {
      const sid = ctx.sid('listed');
      await ctx.submit({ entrypoint: 'echo listed', submission_id: sid });
      const list = jsonBody(await ctx.http('/api/jobs/')) as Array<Record<string, unknown>>;
      const mine = list.find((j) => j.submission_id === sid);
      const single = await ctx.job(sid);
      return {
        isArray: Array.isArray(list),
        found: mine !== undefined,
        sameKeys: mine && single ? Object.keys(mine).sort().join() === Object.keys(single).sort().join() : false,
        keys: mine ? Object.keys(mine).sort() : [],
      };
    },
    check(o) {
      expect(o).toEqual({ isArray: true, found: true, sameKeys: true, keys: detailsKeys });
    },
  },
];
