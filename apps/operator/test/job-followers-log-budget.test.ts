// What following a job's log tail costs the operator, against a real Ray emulator over real WebSockets: Ray replays
// the whole log on every tail (ray-jobs-api.md §3.8), so the operator's bytes are bounded per job, not per tail.
// Bytes are counted on the operator's own sockets (bytesRead of every connection it opens to the dashboard), so
// what the kernel buffered but the operator never read does not count, and what it read and discarded does.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type { RayCluster } from '@rayjob/core';
import { createRayClient, type RayClient } from '@rayjob/ray-client';
import { fastTiming, startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardClients } from '../src/controllers/rayjob/dashboards.ts';
import { createJobFollowers } from '../src/controllers/rayjob/job-followers.ts';
import { eventually } from './support/api.ts';

const BUDGET = 64 * 1024;
/** Frame and HTTP headers, and the part of a refused frame read before its header could be judged (one read). */
const SLACK = 96 * 1024;
const cluster = { metadata: { name: 'c', namespace: 'default', uid: 'u' } } as unknown as RayCluster;

let emulator: RayEmulator;
let ray: RayClient;
/** Sockets opened to the emulator's port by anyone in this process (the test's own client uses plain GETs). */
const sockets: Socket[] = [];
const onSocket = (message: unknown): void => {
  const socket = (message as { socket: Socket }).socket;
  socket.once('connect', () => { if (socket.remotePort === emulator.port) sockets.push(socket); });
};

beforeAll(async () => {
  emulator = await startRayEmulator({ timing: fastTiming });
  ray = createRayClient({ address: emulator.url });
  subscribe('net.client.socket', onSocket);
});
afterAll(async () => {
  unsubscribe('net.client.socket', onSocket);
  await ray?.close();
  await emulator?.stop();
});

async function running(jobId: string, entrypoint: string): Promise<void> {
  const submitted = await ray.submit({ entrypoint, submission_id: jobId });
  if (submitted.kind !== 'ok') throw new Error(`submit: ${submitted.kind}`);
  await eventually(`${jobId} to run`, async () => {
    const j = await ray.getJob(jobId);
    return j.kind === 'ok' && j.value.status === 'RUNNING';
  }, 20_000);
}

/** Followers of one job with the byte budget; the log bytes their sockets read is `read()`. */
function follow(jobId: string) {
  const ends: string[] = [];
  const logged: string[] = [];
  const mark = sockets.length;
  const dashboards = createDashboardClients({ useKubernetesProxy: false }, () => Promise.resolve(undefined));
  const followers = createJobFollowers(dashboards, (key) => ends.push(key), (msg) => logged.push(msg), { maxBytesPerJob: BUDGET });
  followers.follow(`default/${jobId}`, cluster, emulator.url, jobId);
  return {
    followers,
    ends,
    logged,
    read: () => sockets.slice(mark).reduce((n, s) => n + s.bytesRead, 0),
    close: async () => {
      await followers.stopAll();
      await dashboards.close();
    },
  };
}

describe('log bytes the operator reads per job', { timeout: 60_000 }, () => {
  it.each([
    ['many lines (2 MB)', 'yes 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef | head -c 2000000; sleep 100000'],
    ['one 2 MB line (a single frame, refused from its header)', "head -c 2000000 /dev/zero | tr '\\0' x; sleep 100000"],
  ])('a job printing %s costs at most the budget, and it then falls back to polling without another tail', async (_what, entrypoint) => {
    const jobId = `loud-${sockets.length}`;
    await running(jobId, entrypoint);
    const f = follow(jobId);
    await eventually('the tail to reach the budget', () => f.ends.length > 0, 20_000);
    expect(f.followers.isFollowing(`default/${jobId}`)).toBe(false);
    expect(f.logged.some((m) => /log tail budget/.test(m))).toBe(true);
    // The reconcile the end triggered asks to follow again: no tail is opened, so no byte is replayed.
    const opened = sockets.length;
    f.followers.follow(`default/${jobId}`, cluster, emulator.url, jobId);
    expect(f.followers.isFollowing(`default/${jobId}`)).toBe(false);
    expect(sockets.length).toBe(opened);
    expect(f.read()).toBeLessThan(BUDGET + SLACK);
    await f.close();
    await ray.stopJob(jobId);
  });

  it('a quiet job is followed until it ends, and its end is reported by the tail (the budget is not touched)', async () => {
    const jobId = `quiet-${sockets.length}`;
    await running(jobId, 'echo hello; sleep 2');
    const f = follow(jobId);
    await eventually('the tail to open', () => f.read() > 0, 20_000);
    expect(f.followers.isFollowing(`default/${jobId}`)).toBe(true);
    await eventually('the end to be reported', () => f.ends.length > 0, 20_000);
    expect(f.logged).toEqual([]);
    const job = await ray.getJob(jobId);
    expect(job.kind === 'ok' && job.value.status).toBe('SUCCEEDED');
    await f.close();
  });
});
