// The log-tail followers on a fake clock: what counts as following (the reconciler polls a followed job only every
// 60 s), and when a tail's end reaches a reconcile. A demo once saw a job's end 13 s late: its tails were refused,
// and the pause before each new attempt counted as following, so the job was polled only when the pause ended.
import type { RayCluster } from '@rayjob/core';
import type { RayClient, TailResult } from '@rayjob/ray-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DashboardClients } from '../src/controllers/rayjob/dashboards.ts';
import { createJobFollowers } from '../src/controllers/rayjob/job-followers.ts';

const cluster = { metadata: { name: 'c', namespace: 'default', uid: 'u' } } as unknown as RayCluster;
const refused: TailResult = { kind: 'rejected', status: 400, message: 'a proxy that does not pass WebSocket upgrades' };
const closed: TailResult = { kind: 'closed', code: 1000, reason: '', chunks: 3 };

/** Followers whose dashboard answers each tail with the next of `answers` (the last one repeats). */
function followersAnswering(answers: TailResult[]) {
  const ends: string[] = [];
  let opened = 0;
  const client = {
    tailLogs: () => Promise.resolve(answers[Math.min(opened++, answers.length - 1)] as TailResult),
  } as unknown as RayClient;
  const dashboards: DashboardClients = { clientFor: () => Promise.resolve({ ok: true, client }), close: () => Promise.resolve() };
  const followers = createJobFollowers(dashboards, (key) => ends.push(key), () => undefined);
  return { followers, ends, opened: () => opened };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('job log-tail followers', () => {
  it('a refused tail is reported at once, and the pause before the next attempt does not count as following', async () => {
    const { followers, ends, opened } = followersAnswering([refused]);
    followers.follow('ns/j', cluster, 'head:8265', 'job-1');
    await vi.advanceTimersByTimeAsync(0);
    expect(ends).toEqual(['ns/j']);
    expect(followers.isFollowing('ns/j')).toBe(false);
    // The reconcile that the end triggered follows again: the attempt waits out its pause, unfollowed meanwhile.
    followers.follow('ns/j', cluster, 'head:8265', 'job-1');
    expect(followers.isFollowing('ns/j')).toBe(false);
    await vi.advanceTimersByTimeAsync(200);
    expect(opened()).toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(opened()).toBe(2);
    expect(ends).toEqual(['ns/j', 'ns/j']);
    // Each refusal doubles the pause (no spinning against a dashboard that refuses tails).
    followers.follow('ns/j', cluster, 'head:8265', 'job-1');
    await vi.advanceTimersByTimeAsync(400);
    expect(opened()).toBe(2);
    await vi.advanceTimersByTimeAsync(150);
    expect(opened()).toBe(3);
    await followers.stopAll();
  });

  it('a tail that closes soon after opening (the job ended) reaches a reconcile at once, even after a refusal', async () => {
    const { followers, ends } = followersAnswering([refused, closed]);
    followers.follow('ns/j', cluster, 'head:8265', 'job-1');
    await vi.advanceTimersByTimeAsync(0);
    followers.follow('ns/j', cluster, 'head:8265', 'job-1');
    await vi.advanceTimersByTimeAsync(250);
    expect(ends).toEqual(['ns/j', 'ns/j']);
    await followers.stopAll();
  });

  it('an open tail counts as following until stopped', async () => {
    let release: (r: TailResult) => void = () => undefined;
    const client = { tailLogs: () => new Promise<TailResult>((resolve) => { release = resolve; }) } as unknown as RayClient;
    const ends: string[] = [];
    const followers = createJobFollowers({ clientFor: () => Promise.resolve({ ok: true, client }), close: () => Promise.resolve() }, (k) => ends.push(k), () => undefined);
    followers.follow('ns/j', cluster, 'head:8265', 'job-1');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(followers.isFollowing('ns/j')).toBe(true);
    release({ kind: 'aborted', chunks: 0 });
    followers.stop('ns/j');
    await vi.advanceTimersByTimeAsync(0);
    expect(followers.isFollowing('ns/j')).toBe(false);
    expect(ends).toEqual([]);
  });
});
