import { describe, expect, it } from 'vitest';
import type { RayResult, TailResult } from '../src/index.ts';
import type { IncomingMessage } from 'node:http';
import { client, deadPort, emulator, rawServer, untilStatus } from './support/fixtures.ts';
import { waitFor } from './support/wait-for.ts';

const kindOf = (r: RayResult<unknown> | TailResult) => (r.kind === 'unavailable' ? `unavailable/${r.cause}` : r.kind);

describe('error classes, as values', () => {
  it('not-found: an unknown id on every job route', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    for (const result of [await c.getJob('ghost'), await c.stopJob('ghost'), await c.deleteJob('ghost'), await c.getLogs('ghost')]) {
      expect(result).toEqual({ kind: 'not-found', status: 404, message: 'HTTP 404: Job ghost does not exist' });
    }
    expect(await c.tailLogs('ghost', { onChunk: () => undefined })).toMatchObject({ kind: 'not-found', status: 404 });
  });

  it('already-exists: Ray\'s 500 "Please use a different submission_id"', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'sleep 1', submission_id: 'dup' });
    const again = await c.submit({ entrypoint: 'sleep 1', submission_id: 'dup' });
    expect(again).toMatchObject({ kind: 'already-exists', status: 500 });
    expect(again.kind === 'already-exists' && again.message).toContain('Please use a different submission_id');
  });

  it('rejected: a 400 for a field the server does not know (client told a wrong version)', async () => {
    const e = await emulator({ rayVersion: '2.53.0' });
    const c = client({ address: e.url, rayVersion: '2.58.0' });
    const result = await c.submit({ entrypoint: 'true', entrypoint_label_selector: { a: 'b' } });
    expect(result).toMatchObject({ kind: 'rejected', status: 400 });
    expect(result.kind === 'rejected' && result.message).toBe(
      "HTTP 400: TypeError: JobSubmitRequest.__init__() got an unexpected keyword argument 'entrypoint_label_selector'",
    );
  });

  it('rejected: deleting a running job (Ray answers 500, retrying cannot help)', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'sleep 2', submission_id: 'run' });
    await untilStatus(c, 'run', 'RUNNING');
    const result = await c.deleteJob('run');
    expect(result).toMatchObject({ kind: 'rejected', status: 500 });
    expect(result.kind === 'rejected' && result.message).toContain("but it is in a non-terminal state RUNNING.");
  });

  it.each([
    [undefined, 401, 'HTTP 401: Unauthorized: Missing authentication token'],
    ['wrong-token', 403, 'HTTP 403: Forbidden: Invalid authentication token'],
  ])('rejected: token %s -> %i', async (token, status, message) => {
    const e = await emulator({ authToken: 'right-token' });
    const c = client({ address: e.url, ...(token ? { token } : {}) });
    expect(await c.getVersion()).toEqual({ kind: 'rejected', status, message });
    expect(await c.submit({ entrypoint: 'true' })).toEqual({ kind: 'rejected', status, message });
  });

  it('rejected: a 405 from a browser filter in front (headers the client refuses to set are caught first)', async () => {
    const s = await rawServer((_req, res) => {
      res.statusCode = 405;
      res.end("'POST' method not allowed for browser traffic.");
    });
    expect(await client({ address: s.url }).stopJob('x')).toEqual({
      kind: 'rejected', status: 405, message: "HTTP 405: 'POST' method not allowed for browser traffic.",
    });
    expect(() => client({ address: s.url, headers: { Origin: 'http://x' } })).toThrow(/headers: "Origin" makes Ray treat/);
  });

  it.each([
    ['refused', async () => ({ address: `http://127.0.0.1:${await deadPort()}` })],
  ])('unavailable/%s', async (cause, setup) => {
    const c = client(await setup());
    for (const result of [await c.getVersion(), await c.getJob('x'), await c.submit({ entrypoint: 'true' }), await c.gcsHealth()]) {
      expect(kindOf(result)).toBe(`unavailable/${cause}`);
    }
    expect(kindOf(await c.tailLogs('x', { onChunk: () => undefined }))).toBe(`unavailable/${cause}`);
  });

  it('unavailable/refused: the emulator\'s dashboard is stopped', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await e.faults.stopDashboard();
    expect(kindOf(await c.getJob('x'))).toBe('unavailable/refused');
    await e.faults.startDashboard();
    expect(kindOf(await c.getJob('x'))).toBe('not-found');
  });

  it('unavailable/server-error: injected 5xx and the JobHead restart window', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    e.faults.fail5xx(2, 503);
    expect(await c.getJob('x')).toMatchObject({ kind: 'unavailable', cause: 'server-error', status: 503 });
    expect(await c.gcsHealth()).toEqual({
      kind: 'unavailable', cause: 'server-error', status: 503, message: 'HTTP 503: 503: Health check failed: RPC error: Deadline Exceeded',
    });
    await e.faults.restartJobHead({ downForMs: 500 });
    expect(await c.listJobs()).toEqual({
      kind: 'unavailable', cause: 'server-error', status: 500, message: 'HTTP 500: Server got itself in trouble',
    });
  });

  it('unavailable/timeout: the per-request timeout, and a per-call override', async () => {
    const e = await emulator();
    const c = client({ address: e.url, timeoutMs: 150 });
    e.faults.slowAnswers(600);
    const started = Date.now();
    expect(kindOf(await c.getJob('x'))).toBe('unavailable/timeout');
    expect(Date.now() - started).toBeLessThan(550);
    expect(kindOf(await c.getJob('x', { timeoutMs: 2_000 }))).toBe('not-found');
  });

  it('unavailable/aborted: the client\'s signal (or a call\'s) drops a call in flight at once, and refuses the next', async () => {
    // A dashboard that holds every request open: only the abort can end the call before the 30 s timeout.
    const open = new Set<IncomingMessage>();
    const closed: string[] = [];
    const s = await rawServer((req) => {
      open.add(req);
      req.socket.on('close', () => closed.push(`${req.method} ${req.url}`));
    });
    const fence = new AbortController();
    const c = client({ address: s.url, rayVersion: '2.58.0', timeoutMs: 30_000, signal: fence.signal });
    const submit = c.submit({ entrypoint: 'true', submission_id: 'held' });
    await waitFor(() => open.size === 1, { what: 'the submission to reach the server' });
    const abortedAt = Date.now();
    fence.abort();
    expect(await submit).toEqual({ kind: 'unavailable', cause: 'aborted', message: 'POST /api/jobs/: aborted by the caller' });
    expect(Date.now() - abortedAt).toBeLessThan(1_000);
    await waitFor(() => closed.includes('POST /api/jobs/'), { what: 'the held connection to be closed by the client' });
    // Nothing more is sent once the signal is aborted; a log tail ends at once too.
    expect(kindOf(await c.stopJob('held'))).toBe('unavailable/aborted');
    expect(await c.tailLogs('held', { onChunk: () => undefined })).toMatchObject({ kind: 'aborted' });
    expect(open.size).toBe(1);

    // A call's own signal aborts that call only.
    const d = client({ address: s.url, rayVersion: '2.58.0', timeoutMs: 30_000 });
    const call = new AbortController();
    const get = d.getJob('held', { signal: call.signal });
    await waitFor(() => open.size === 2, { what: 'the GET to reach the server' });
    call.abort();
    expect(kindOf(await get)).toBe('unavailable/aborted');
  });

  it('unavailable/reset: the server drops the connection mid-request', async () => {
    const s = await rawServer((req) => req.socket.destroy());
    expect(kindOf(await client({ address: s.url }).getJob('x'))).toBe('unavailable/reset');
  });

  it('rejected, not not-found, when the server has no /api/version', async () => {
    const s = await rawServer((_req, res) => {
      res.statusCode = 404;
      res.end('404: Not Found');
    });
    const result = await client({ address: s.url }).submit({ entrypoint: 'true' });
    expect(result).toEqual({ kind: 'rejected', status: 404, message: `GET /api/version answered 404: is ${s.url} a Ray dashboard?` });
  });

  it('repeats a GET once on a fresh connection after a reset, never a POST', async () => {
    let seen = 0;
    const s = await rawServer((req, res) => {
      seen += 1;
      if (seen % 2 === 1) return void req.socket.destroy();
      res.end('{"stopped":true}');
    });
    const c = client({ address: s.url });
    expect((await c.getJob('x')).kind).toBe('bad-response'); // second attempt answered (with a non-job body)
    expect(seen).toBe(2);
    expect(kindOf(await c.stopJob('x'))).toBe('unavailable/reset');
    expect(seen).toBe(3);
  });

  it.each([
    ['not JSON', 'oops', 'GET /api/jobs/x: the answer is not JSON'],
    ['a wrong shape', '{"status":"DANCING"}', 'GET /api/jobs/x: unexpected shape at status'],
    ['a missing field', '{"entrypoint":"x"}', 'GET /api/jobs/x: unexpected shape at status'],
  ])('bad-response: %s', async (_name, body, message) => {
    const s = await rawServer((_req, res) => res.end(body));
    const result = await client({ address: s.url }).getJob('x');
    expect(result.kind).toBe('bad-response');
    expect(result.kind === 'bad-response' && result.message).toContain(message);
  });

  it('tolerates unknown fields and a null error_type (older Rays)', async () => {
    const s = await rawServer((_req, res) =>
      res.end('{"status":"FAILED","error_type":null,"submission_id":"x","brand_new_field":{"a":1}}'),
    );
    const result = await client({ address: s.url }).getJob('x');
    expect(result).toMatchObject({ kind: 'ok', value: { status: 'FAILED', error_type: null, brand_new_field: { a: 1 } } });
  });

  it.each([
    [{ entrypoint: '' }, 'submit request field entrypoint: entrypoint must be a non-empty shell command'],
    [{ entrypoint: 'x', entrypoint_memory: 1.5 }, 'submit request field entrypoint_memory: entrypoint_memory must be an integer number of bytes'],
  ])('invalid-input: %j is refused before anything is sent', async (request, message) => {
    const e = await emulator();
    const c = client({ address: e.url });
    expect(await c.submit(request)).toEqual({ kind: 'invalid-input', message });
    expect(e.requests()).toEqual([]);
  });
});
