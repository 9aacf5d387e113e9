import { describe, expect, it } from 'vitest';
import { emulator } from './support/emulator.ts';
import { getJson, raw, submit, tail } from './support/raw-http.ts';

describe('paths and shapes', () => {
  it('serves /api/version like Ray 2.58', async () => {
    const e = await emulator();
    const answer = await raw(e.url, 'GET', '/api/version');
    expect(answer.contentType).toBe('application/json; charset=utf-8');
    const body = JSON.parse(answer.body);
    expect(body).toMatchObject({ version: '4', ray_version: '2.58.0' });
    expect(body.ray_commit).toMatch(/^[0-9a-f]{40}$/);
    expect(body.session_name).toMatch(/^session_\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d_\d{6}_\d+$/);
  });

  it.each([
    ['POST', '/api/jobs', 404, '404: Not Found'],
    ['GET', '/api/jobs/x/', 404, '404: Not Found'],
    ['GET', '/api/jobs/nope', 404, 'Job nope does not exist'],
    ['POST', '/api/jobs/nope/stop', 404, 'Job nope does not exist'],
    ['DELETE', '/api/jobs/nope', 404, 'Job nope does not exist'],
    ['GET', '/api/jobs/nope/logs', 404, 'Job nope does not exist'],
    ['GET', '/api/gcs_healthz', 200, 'success'],
    ['GET', '/api/authentication_mode', 200, '{"authentication_mode":"disabled"}'],
    ['PUT', '/api/version', 405, '405: Method Not Allowed'],
    ['GET', '/api/packages/gcs/_ray_pkg_abc.zip', 404, 'Package gcs://_ray_pkg_abc.zip does not exist'],
  ])('%s %s -> %i %s', async (method, path, status, body) => {
    const e = await emulator();
    const answer = await raw(e.url, method, path);
    expect([answer.status, answer.body]).toEqual([status, body]);
    if (status === 404) expect(answer.contentType).toBe('text/plain; charset=utf-8');
  });

  it('answers HEAD /api/jobs/ with 200 and gcs_healthz as application/text', async () => {
    const e = await emulator();
    expect((await raw(e.url, 'HEAD', '/api/jobs/')).status).toBe(200);
    expect((await raw(e.url, 'GET', '/api/gcs_healthz')).contentType).toBe('application/text; charset=utf-8');
  });

  it('stores an uploaded package', async () => {
    const e = await emulator();
    expect((await raw(e.url, 'PUT', '/api/packages/gcs/_ray_pkg_1.zip', { body: 'zip' })).status).toBe(200);
    expect((await raw(e.url, 'GET', '/api/packages/gcs/_ray_pkg_1.zip')).status).toBe(200);
  });

  it('serves the node summary in Ray\'s shape with the head ALIVE and workers', async () => {
    const e = await emulator();
    const worker = e.addWorkerNode({ resources: { CPU: 4 } });
    const { json } = await getJson(e.url, '/nodes?view=summary');
    expect(json).toMatchObject({ result: true, msg: 'Node summary fetched.' });
    const summary = (json as { data: { summary: Array<{ raylet: Record<string, unknown> }> } }).data.summary;
    expect(summary).toHaveLength(2);
    expect(summary.map((n) => n.raylet.state)).toEqual(['ALIVE', 'ALIVE']);
    expect(summary.map((n) => n.raylet.isHeadNode)).toEqual([true, false]);
    expect(summary[1]?.raylet.nodeId).toBe(worker);
    expect(summary[1]?.raylet.resourcesTotal).toEqual({ CPU: 4 });
  });
});

describe('submit request parsing', () => {
  it.each([
    ['2.58.0', { entrypoint_label_selector: { a: 'b' } }, 200],
    ['2.53.0', { entrypoint_label_selector: { a: 'b' } }, 400],
    ['2.58.0', { retry_policy: {} }, 400],
    ['2.7.0', { entrypoint_memory: 1024 }, 400],
    ['2.8.0', { entrypoint_memory: 1024 }, 200],
    ['2.1.0', { entrypoint_num_cpus: 1 }, 400],
    ['2.9.0', { entrypoint_num_cpus: 1, entrypoint_num_gpus: 0, entrypoint_resources: {} }, 200],
    ['2.9.0', { bogus: 1 }, 400],
  ])('Ray %s answers %j with %i', async (rayVersion, extra, status) => {
    const e = await emulator({ rayVersion });
    const answer = await submit(e.url, { entrypoint: 'true', ...extra });
    expect(answer.status).toBe(status);
    if (status === 400) {
      const key = Object.keys(extra)[0];
      expect(answer.body).toMatch(/^Traceback \(most recent call last\):\n/);
      expect(answer.body.trimEnd().split('\n').at(-1)).toBe(
        `TypeError: JobSubmitRequest.__init__() got an unexpected keyword argument '${key}'`,
      );
    }
  });

  it.each([
    [{ metadata: { a: 1 } }, "TypeError: metadata values must be strings, got <class 'int'>"],
    [{ entrypoint_memory: 1.5 }, "TypeError: entrypoint_memory must be an integer, got <class 'float'>"],
    [{ entrypoint_num_cpus: '1' }, "TypeError: entrypoint_num_cpus must be a number, got <class 'str'>"],
    [{ runtime_env: [] }, "TypeError: runtime_env must be a dict, got <class 'list'>"],
    [{ entrypoint_resources: { a: 'x' } }, "TypeError: entrypoint_resources values must be numbers, got <class 'str'>"],
    [{ submission_id: 5 }, "TypeError: submission_id must be a string if provided, got <class 'int'>"],
    [{ entrypoint: 5 }, "TypeError: entrypoint must be a string, got <class 'int'>"],
  ])('rejects %j with 400 and `%s`', async (extra, lastLine) => {
    const e = await emulator();
    const answer = await submit(e.url, { entrypoint: 'true', ...extra });
    expect(answer.status).toBe(400);
    expect(answer.body.trimEnd().split('\n').at(-1)).toBe(lastLine);
  });

  it('rejects a body without entrypoint, ignores null keys, and answers 500 to non-JSON', async () => {
    const e = await emulator({ rayVersion: '2.9.0' });
    const missing = await submit(e.url, { submission_id: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body).toContain("TypeError: JobSubmitRequest.__init__() missing 1 required positional argument: 'entrypoint'");
    expect((await submit(e.url, { entrypoint: 'true', entrypoint_label_selector: null, metadata: null })).status).toBe(200);
    const notJson = await raw(e.url, 'POST', '/api/jobs/', { body: 'not json' });
    expect([notJson.status, notJson.body]).toEqual([500, '500 Internal Server Error\n\nServer got itself in trouble']);
  });

  it('answers a duplicate submission id with Ray\'s wrapped 500', async () => {
    const e = await emulator();
    expect((await submit(e.url, { entrypoint: 'sleep 1', submission_id: 'dup' })).status).toBe(200);
    const again = await submit(e.url, { entrypoint: 'sleep 1', submission_id: 'dup' });
    expect(again.status).toBe(500);
    expect(again.contentType).toBe('text/plain; charset=utf-8');
    expect(again.body).toContain('RuntimeError: Request failed with status code 400: Traceback (most recent call last):');
    expect(again.body).toMatch(
      /ValueError: Job with submission_id dup already exists\. Please use a different submission_id\.\n\.\n$/,
    );
  });
});

describe('browser-traffic filter', () => {
  it.each([
    ['origin', 'http://x'],
    ['referer', 'http://x/'],
    ['sec-fetch-mode', 'cors'],
    ['sec-fetch-site', 'same-origin'],
    ['sec-fetch-dest', 'empty'],
    ['sec-fetch-user', '?1'],
    ['access-control-request-method', 'POST'],
    ['access-control-request-headers', 'x'],
    ['user-agent', 'Mozilla/5.0'],
  ])('refuses POST and DELETE carrying %s but allows GET', async (header, value) => {
    const e = await emulator();
    const headers = { [header]: value };
    const post = await submit(e.url, { entrypoint: 'true' }, headers);
    expect([post.status, post.body]).toEqual([405, "'POST' method not allowed for browser traffic."]);
    const del = await raw(e.url, 'DELETE', '/api/jobs/x', { headers });
    expect([del.status, del.body]).toEqual([405, "'DELETE' method not allowed for browser traffic."]);
    expect((await raw(e.url, 'GET', '/api/version', { headers })).status).toBe(200);
  });

  it('catches Node\'s global fetch, which always sends sec-fetch-mode', async () => {
    const e = await emulator();
    const answer = await fetch(`${e.url}/api/jobs/`, { method: 'POST', body: '{"entrypoint":"true"}' });
    expect(answer.status).toBe(405);
  });
});

describe('token auth', () => {
  const token = 'emulator-test-token';
  it.each([
    [{}, 401, 'Unauthorized: Missing authentication token'],
    [{ authorization: 'Bearer wrong' }, 403, 'Forbidden: Invalid authentication token'],
    [{ 'x-ray-authorization': 'Bearer wrong' }, 403, 'Forbidden: Invalid authentication token'],
    [{ authorization: `Bearer ${token}` }, 200, undefined],
    [{ 'x-ray-authorization': `Bearer ${token}` }, 200, undefined],
    [{ cookie: `ray-authentication-token=${token}` }, 200, undefined],
    [{ 'x-ray-authorization': token }, 403, 'Forbidden: Invalid authentication token'],
    [{ authorization: 'Bearer wrong', 'x-ray-authorization': `Bearer ${token}` }, 403, 'Forbidden: Invalid authentication token'],
    [{ authorization: '', 'x-ray-authorization': `Bearer ${token}` }, 200, undefined],
  ])('GET /api/version with %j -> %i', async (headers, status, body) => {
    const e = await emulator({ authToken: token });
    const answer = await raw(e.url, 'GET', '/api/version', { headers });
    expect(answer.status).toBe(status);
    if (body) expect(answer.body).toBe(body);
  });

  it.each(['/api/gcs_healthz', '/api/authentication_mode', '/api/healthz', '/', '/static/x.js'])(
    'exempts %s', async (path) => {
      const e = await emulator({ authToken: token });
      expect([401, 403]).not.toContain((await raw(e.url, 'GET', path)).status);
    },
  );

  it.each(['/nodes?view=summary', '/api/jobs/'])('guards %s', async (path) => {
    const e = await emulator({ authToken: token });
    expect((await raw(e.url, 'GET', path)).status).toBe(401);
  });

  it('reports token mode and guards the WebSocket upgrade', async () => {
    const e = await emulator({ authToken: token });
    expect((await raw(e.url, 'GET', '/api/authentication_mode')).body).toBe('{"authentication_mode":"token"}');
    const headers = { 'x-ray-authorization': `Bearer ${token}` };
    await submit(e.url, { entrypoint: 'echo hi', submission_id: 'a' }, headers);
    expect(await tail(e.ws, 'a').ended).toMatchObject({ kind: 'refused', status: 401, body: 'Unauthorized: Missing authentication token' });
    expect(await tail(e.ws, 'a', { headers: { 'x-ray-authorization': 'Bearer no' } }).ended).toMatchObject({ kind: 'refused', status: 403 });
    const ok = tail(e.ws, 'a', { headers });
    expect(await ok.ended).toMatchObject({ kind: 'closed', code: 1000 });
    expect(ok.frames.join('')).toContain('hi\n');
  });
});
