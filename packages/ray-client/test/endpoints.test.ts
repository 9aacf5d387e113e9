import { describe, expect, it } from 'vitest';
import { client, emulator, rawServer, untilStatus } from './support/fixtures.ts';
import { waitFor } from './support/wait-for.ts';

describe('every endpoint against the emulator', () => {
  it('submits with every field, then reads, lists, logs, tails, and deletes', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    const submitted = await c.submit({
      entrypoint: 'echo "$RAY_X" hello; echo second',
      submission_id: 'all1',
      runtime_env: { env_vars: { A: '1' } },
      metadata: { owner: 'me' },
      entrypoint_num_cpus: 1,
      entrypoint_num_gpus: 0,
      entrypoint_memory: 1024,
      entrypoint_resources: {},
    });
    expect(submitted).toEqual({ kind: 'ok', value: { submissionId: 'all1', droppedFields: [] } });
    await untilStatus(c, 'all1', 'SUCCEEDED');
    const job = await c.getJob('all1');
    expect(job.kind === 'ok' && job.value).toMatchObject({
      submission_id: 'all1', status: 'SUCCEEDED', driver_exit_code: 0, metadata: { owner: 'me' }, runtime_env: { env_vars: { A: '1' } },
    });
    const list = await c.listJobs();
    expect(list.kind === 'ok' && list.value.map((j) => j.submission_id)).toEqual(['all1']);
    const logs = await c.getLogs('all1');
    expect(logs.kind === 'ok' && logs.value).toContain(' hello\nsecond\n');
    const chunks: string[] = [];
    const end = await c.tailLogs('all1', { onChunk: (chunk) => chunks.push(chunk) });
    expect(end).toMatchObject({ kind: 'closed', code: 1000 });
    expect(chunks.join('')).toBe(logs.kind === 'ok' ? logs.value : '');
    expect(await c.deleteJob('all1')).toEqual({ kind: 'ok', value: { deleted: true } });
    expect((await c.getJob('all1')).kind).toBe('not-found');
  });

  it('generates a submission id when none is given', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    const submitted = await c.submit({ entrypoint: 'true' });
    expect(submitted.kind === 'ok' && submitted.value.submissionId).toMatch(/^raysubmit_/);
  });

  it('stops a running job', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'while true; do sleep 0.05; done', submission_id: 'st1' });
    await untilStatus(c, 'st1', 'RUNNING');
    expect(await c.stopJob('st1')).toEqual({ kind: 'ok', value: { stopped: true } });
    await untilStatus(c, 'st1', 'STOPPED');
    expect(await c.stopJob('st1')).toEqual({ kind: 'ok', value: { stopped: false } });
  });

  it('reads the version once and caches it', async () => {
    const e = await emulator({ rayVersion: '2.55.1' });
    const c = client({ address: e.url });
    for (let i = 0; i < 3; i += 1) expect(await c.getVersion()).toMatchObject({ kind: 'ok', value: { version: '4', ray_version: '2.55.1' } });
    await c.submit({ entrypoint: 'true' });
    await c.submit({ entrypoint: 'true' });
    expect(e.requests().filter((r) => r.path === '/api/version')).toHaveLength(1);
  });

  it('reports GCS health', async () => {
    const e = await emulator();
    expect(await client({ address: e.url }).gcsHealth()).toEqual({ kind: 'ok', value: { healthy: true } });
  });

  it('sends no browser-like header and a non-Mozilla user agent on POST and DELETE', async () => {
    const e = await emulator();
    const c = client({ address: e.url });
    await c.submit({ entrypoint: 'true', submission_id: 'h1' });
    await untilStatus(c, 'h1', 'SUCCEEDED');
    await c.deleteJob('h1');
    for (const r of e.requests().filter((x) => x.method !== 'GET')) {
      expect(Object.keys(r.headers).filter((h) => h.startsWith('sec-fetch') || h === 'origin' || h === 'referer')).toEqual([]);
      expect(String(r.headers['user-agent'])).not.toMatch(/^Mozilla/);
    }
  });

  it('reuses pooled connections for consecutive requests', async () => {
    const s = await rawServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"version":"4","ray_version":"2.58.0"}');
    });
    const c = client({ address: s.url });
    for (let i = 0; i < 10; i += 1) await c.gcsHealth();
    // undici may open a second socket while the first is being released; never one per request.
    expect(s.connections()).toBeLessThanOrEqual(2);
  });

  it('sends extra headers on HTTP and on the WebSocket upgrade', async () => {
    const e = await emulator();
    const c = client({ address: e.url, headers: { 'X-Team': 'blue' } });
    await c.submit({ entrypoint: 'true', submission_id: 'x1' });
    await c.tailLogs('x1', { onChunk: () => undefined });
    await waitFor(() => e.requests().some((r) => r.upgrade), { what: 'the upgrade' });
    for (const r of e.requests()) expect(r.headers['x-team']).toBe('blue');
  });
});
