import { describe, expect, it } from 'vitest';
import { emulator } from './support/emulator.ts';
import { getJson, raw, submit, tail } from './support/raw-http.ts';
import { waitFor } from './support/wait-for.ts';

const logsOf = async (url: string, id: string) => JSON.parse((await raw(url, 'GET', `/api/jobs/${id}/logs`)).body).logs as string;

describe('log tail', () => {
  it('replays from the start in chunks of at most 10 lines and closes 1000 after the job ends', async () => {
    const e = await emulator();
    await submit(e.url, { entrypoint: 'for i in $(seq 1 35); do echo l$i; done; sleep 0.2; echo end', submission_id: 't1' });
    const first = tail(e.ws, 't1');
    expect(await first.ended).toMatchObject({ kind: 'closed', code: 1000 });
    expect((await getJson(e.url, '/api/jobs/t1')).json?.status).toBe('SUCCEEDED');
    for (const frame of first.frames) expect(frame.split('\n').filter(Boolean).length).toBeLessThanOrEqual(10);
    expect(first.frames.join('')).toBe(await logsOf(e.url, 't1'));
    // A second tail after the end replays everything again, then closes.
    const again = tail(e.ws, 't1');
    expect(await again.ended).toMatchObject({ kind: 'closed', code: 1000 });
    expect(again.frames.join('')).toBe(first.frames.join(''));
  });

  it('pushes new output at the tailer cadence while the job runs', async () => {
    const e = await emulator({ timing: { logPollMs: 50 } });
    await submit(e.url, { entrypoint: 'echo a$((1)); sleep 0.4; echo b$((2))', submission_id: 't2' });
    const t = tail(e.ws, 't2');
    await waitFor(() => t.frames.join('').includes('a1\n'), { what: 'the first line' });
    expect(t.frames.join('')).not.toContain('b2\n');
    expect(await t.ended).toMatchObject({ kind: 'closed', code: 1000 });
    expect(t.frames.join('')).toContain('b2\n');
  });

  it('stays silent while PENDING (no frames, no pings)', async () => {
    const e = await emulator({ timing: { pendingToRunningMs: 3000 } });
    await submit(e.url, { entrypoint: 'echo late', submission_id: 't3' });
    const t = tail(e.ws, 't3');
    let pings = 0;
    t.socket.on('ping', () => (pings += 1));
    await new Promise((r) => setTimeout(r, 250));
    // What arrived so far, then the status: a PENDING answer after the snapshot proves the snapshot was taken while
    // PENDING, however slowly a loaded machine got here.
    const sofar = [t.frames.length, pings];
    expect((await getJson(e.url, '/api/jobs/t3')).json?.status).toBe('PENDING');
    expect(sofar).toEqual([0, 0]);
    expect(await t.ended).toMatchObject({ kind: 'closed', code: 1000 });
    expect(t.frames.join('')).toContain('late\n');
  });

  it('closes 1000 at once, with no frame, for a job that failed before starting', async () => {
    const e = await emulator();
    await submit(e.url, { entrypoint: 'true', submission_id: 't4', entrypoint_resources: { GPU: 1 } });
    await waitFor(async () => (await getJson(e.url, '/api/jobs/t4')).json?.status === 'FAILED', { what: 'FAILED' });
    const t = tail(e.ws, 't4');
    expect(await t.ended).toMatchObject({ kind: 'closed', code: 1000 });
    expect(t.frames).toEqual([]);
  });

  it('refuses the upgrade for an unknown id with a plain 404', async () => {
    const e = await emulator();
    expect(await tail(e.ws, 'ghost').ended).toEqual({ kind: 'refused', status: 404, body: 'Job ghost does not exist' });
  });

  it('splits a long line stream into frames of just over 20 000 characters', async () => {
    const e = await emulator();
    await submit(e.url, { entrypoint: 'for i in 1 2 3 4 5; do head -c 9000 /dev/zero | tr "\\0" x; echo; done', submission_id: 't5' });
    // Tail once the job has ended, so the whole log is there to chunk: a tail that joins mid-output sees what a
    // loaded machine happened to have written by each poll.
    await waitFor(async () => (await getJson(e.url, '/api/jobs/t5')).json?.status === 'SUCCEEDED', { what: 'SUCCEEDED' });
    const t = tail(e.ws, 't5');
    await t.ended;
    const joined = t.frames.join('');
    expect(joined).toBe(await logsOf(e.url, 't5'));
    const big = t.frames.filter((f) => f.length > 9000);
    expect(big.length).toBeGreaterThanOrEqual(2);
    for (const frame of big) expect(frame.length).toBeLessThanOrEqual(20_000 + 9_001 + 200);
  });

  it('sends no log frame and closes 1000 mid-job when permessage-deflate was negotiated (as Ray 2.58)', async () => {
    const e = await emulator({ timing: { deflateTailCloseMs: 150 } });
    await submit(e.url, { entrypoint: 'while true; do echo tick; sleep 0.02; done', submission_id: 't6' });
    await waitFor(async () => (await logsOf(e.url, 't6')).includes('tick'), { what: 'output' });
    const t = tail(e.ws, 't6', { perMessageDeflate: true });
    expect(await t.ended).toMatchObject({ kind: 'closed', code: 1000 });
    expect(t.frames).toEqual([]);
    expect((await getJson(e.url, '/api/jobs/t6')).json?.status).toBe('RUNNING');
    const upgrade = e.requests().filter((r) => r.upgrade).at(-1);
    expect(String(upgrade?.headers['sec-websocket-extensions'])).toContain('permessage-deflate');
  });
});
