import type { RayCluster } from '@rayjob/core';
import type { DashboardClients } from './dashboards.ts';

/**
 * Follows the log tail of running Ray jobs, so the end of a job reaches a reconcile at once instead of at the
 * next poll: Ray closes the tail when the job ends. A close is not proof of the end (a JobHead restart closes
 * tails too): it only triggers a reconcile, which asks the dashboard; while the RayJob stays Running, the
 * reconcile asks to follow again and the tail is re-opened.
 *
 * Only a tail that is open (or being opened) counts as followed: the reconciler polls a followed job rarely, so a
 * tail the dashboard refuses, or one waiting out its pause before the next attempt, must leave the job on core's
 * short poll (a demo once saw a job's end 13 s late: the tail was refused and the pause counted as following).
 *
 * The bytes are discarded, but Ray sends them all, and replays the whole log on every new tail (ray-jobs-api.md
 * §3.8). So each job has a log budget (`maxBytesPerJob`, counted across its tails): a tail that would pass it is
 * closed (a frame longer than what is left is refused from its header), the job is no longer followed, and the
 * reconciler's ordinary poll finds its end. A job's cost to the operator is then bounded whatever it prints; the
 * budget is forgotten only with the job (stop, or another job id).
 */
export interface JobFollowers {
  follow(key: string, cluster: RayCluster, dashboardURL: string, jobId: string): void;
  stop(key: string): void;
  /** A tail is open or being opened for this key (not while waiting to try again). */
  isFollowing(key: string): boolean;
  /** This key's job printed more than its log budget: it is not followed again (its end is found otherwise). */
  budgetSpent(key: string): boolean;
  stopAll(): Promise<void>;
}

interface Follower {
  jobId: string;
  abort: AbortController;
  done: Promise<void>;
  /** Waiting out the pause after a tail that ended at once; no tail is open. */
  waiting: boolean;
}

/** A tail shorter than this counts as a failed attempt: the next one waits, the pause doubling up to the bound. */
const QUICK_END_MS = 5_000;
const FIRST_PAUSE_MS = 250;
const MAX_PAUSE_MS = 30_000;
/** Log bytes a job's tails may deliver in all, replays included (a quiet job's whole log fits many times). */
export const DEFAULT_TAIL_BYTES_PER_JOB = 256 * 1024;

export interface JobFollowerOptions {
  /** Log bytes a job's tails may deliver in all before the job falls back to polling. */
  maxBytesPerJob?: number;
}

/** The followers and what each RayJob's tails have cost so far; the functions below act on it. */
interface FollowersState {
  dashboards: DashboardClients;
  onEnd: (key: string) => void;
  log: (msg: string, fields: Record<string, unknown>) => void;
  followers: Map<string, Follower>;
  budget: number;
  /** Per key: log bytes the current job's tails delivered so far, and whether the budget ran out. */
  spent: Map<string, Spent>;
  /** Per key: the pause after a tail that ended at once (refused, 404, closed), doubling while it keeps happening. */
  pauses: Map<string, { jobId: string; ms: number; until: number }>;
}

interface Spent {
  jobId: string;
  bytes: number;
  exhausted: boolean;
}

export function createJobFollowers(
  dashboards: DashboardClients,
  onEnd: (key: string) => void,
  log: (msg: string, fields: Record<string, unknown>) => void,
  options: JobFollowerOptions = {},
): JobFollowers {
  const f: FollowersState = { dashboards, onEnd, log, followers: new Map(), budget: options.maxBytesPerJob ?? DEFAULT_TAIL_BYTES_PER_JOB, spent: new Map(), pauses: new Map() };
  const { followers, spent, pauses } = f;
  return {
    follow: (key, cluster, dashboardURL, jobId) => follow(f, key, cluster, dashboardURL, jobId),
    stop(key) {
      pauses.delete(key);
      spent.delete(key);
      const existing = followers.get(key);
      if (!existing) return;
      existing.abort.abort();
      followers.delete(key);
    },
    budgetSpent(key) {
      return spent.get(key)?.exhausted === true;
    },
    isFollowing(key) {
      const follower = followers.get(key);
      return follower !== undefined && !follower.waiting;
    },
    async stopAll() {
      const all = [...followers.values()];
      followers.clear();
      spent.clear();
      for (const follower of all) follower.abort.abort();
      await Promise.all(all.map((follower) => follower.done));
    },
  };
}

function follow(f: FollowersState, key: string, cluster: RayCluster, dashboardURL: string, jobId: string): void {
  if (spentOn(f, key, jobId).exhausted) return;
  const existing = f.followers.get(key);
  if (existing && existing.jobId === jobId && !existing.abort.signal.aborted) return;
  existing?.abort.abort();
  const held = f.pauses.get(key);
  const waitMs = held?.jobId === jobId ? Math.max(0, held.until - Date.now()) : 0;
  const follower: Follower = { jobId, abort: new AbortController(), done: Promise.resolve(), waiting: waitMs > 0 };
  f.followers.set(key, follower);
  follower.done = run(f, key, cluster, dashboardURL, follower, waitMs);
}

/** Resolves after `ms`, or at once when the follower is stopped. */
const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
  });

/**
 * One tail per call. Its end is reported at once (the reconcile asks the dashboard what it means); a tail that
 * ended quickly only delays the next attempt, so a failing tail never spins and never hides the job's end.
 */
async function run(f: FollowersState, key: string, cluster: RayCluster, dashboardURL: string, follower: Follower, waitMs: number): Promise<void> {
  if (waitMs > 0) {
    await pause(waitMs, follower.abort.signal);
    if (follower.abort.signal.aborted) return;
    follower.waiting = false;
  }
  const started = Date.now();
  const ended = await tailOnce(f, key, cluster, dashboardURL, follower);
  if (ended === undefined) return;
  if (ended !== 'limit') holdAfterQuickEnd(f, key, follower.jobId, Date.now() - started, ended);
  if (f.followers.get(key) === follower) f.followers.delete(key);
  f.onEnd(key);
}

/** How the tail ended ('no client' when none could be opened); undefined once the follower was stopped. */
async function tailOnce(f: FollowersState, key: string, cluster: RayCluster, dashboardURL: string, follower: Follower): Promise<string | undefined> {
  const access = await f.dashboards.clientFor(cluster, dashboardURL);
  if (!access.ok) {
    f.log('Cannot follow the Ray job log tail', { RayJob: key, error: access.message });
    return 'no client';
  }
  const used = spentOn(f, key, follower.jobId);
  const result = await access.client.tailLogs(follower.jobId, {
    onChunk: (chunk) => { used.bytes += Buffer.byteLength(chunk); },
    signal: follower.abort.signal,
    keepAliveMs: 15_000,
    ...(Number.isFinite(f.budget) && { maxBytes: Math.max(0, f.budget - used.bytes) }),
  });
  if (follower.abort.signal.aborted) return undefined;
  if (result.kind === 'limit') {
    used.exhausted = true;
    f.log('The Ray job printed more than the log tail budget: its end is found by polling from now on', { RayJob: key, bytes: used.bytes, budget: f.budget });
  }
  return result.kind;
}

/** A tail that ended quickly delays the next one, doubling while it keeps happening; a long one clears the pause. */
function holdAfterQuickEnd(f: FollowersState, key: string, jobId: string, took: number, ended: string): void {
  if (took > QUICK_END_MS) {
    f.pauses.delete(key);
    return;
  }
  const previous = f.pauses.get(key);
  const ms = previous?.jobId === jobId ? Math.min(previous.ms * 2, MAX_PAUSE_MS) : FIRST_PAUSE_MS;
  f.pauses.set(key, { jobId, ms, until: Date.now() + ms });
  if (ended !== 'closed' && ended !== 'cut' && ended !== 'no client') f.log('The Ray job log tail could not be opened', { RayJob: key, result: ended });
}

function spentOn(f: FollowersState, key: string, jobId: string): Spent {
  let used = f.spent.get(key);
  if (used?.jobId !== jobId) {
    used = { jobId, bytes: 0, exhausted: false };
    f.spent.set(key, used);
  }
  return used;
}
