import type { RayCluster } from '@rayjob/core';
import type { DashboardClients } from './dashboards.ts';

/**
 * Follows the log tail of running Ray jobs that have no submitter (HTTPMode, InteractiveMode). Ray closes the
 * tail when the job ends, so the end reaches a reconcile at once instead of at the next 3 s poll. A close is not
 * proof of the end (a JobHead restart closes tails too): it only triggers a reconcile, which asks the dashboard;
 * while the RayJob stays Running, the reconcile asks to follow again and the tail is re-opened.
 */
export interface JobFollowers {
  follow(key: string, cluster: RayCluster, dashboardURL: string, jobId: string): void;
  stop(key: string): void;
  /** A tail is open (or being opened) for this key. */
  isFollowing(key: string): boolean;
  stopAll(): Promise<void>;
}

interface Follower {
  jobId: string;
  abort: AbortController;
  done: Promise<void>;
  connected: boolean;
}

/** After a tail that ended quickly (e.g. refused), wait before re-opening, doubling up to this bound. */
const MAX_BACKOFF_MS = 30_000;

export function createJobFollowers(dashboards: DashboardClients, onEnd: (key: string) => void, log: (msg: string, fields: Record<string, unknown>) => void): JobFollowers {
  const followers = new Map<string, Follower>();

  /** Per key: the pause before reporting a tail that ended at once (refused, 404), doubling while it keeps failing. */
  const pauses = new Map<string, { jobId: string; ms: number }>();

  /**
   * One tail per call: when it ends, the reconcile it triggers decides whether to follow again. A tail that
   * ended at once (the dashboard refused it) is reported only after a pause, so a failing tail never spins.
   */
  async function run(key: string, cluster: RayCluster, dashboardURL: string, follower: Follower): Promise<void> {
    const access = await dashboards.clientFor(cluster, dashboardURL);
    if (!access.ok) {
      log('Cannot follow the Ray job log tail', { RayJob: key, error: access.message });
    } else {
      const started = Date.now();
      follower.connected = true;
      const result = await access.client.tailLogs(follower.jobId, { onChunk: () => undefined, signal: follower.abort.signal, keepAliveMs: 15_000 });
      follower.connected = false;
      if (follower.abort.signal.aborted) return;
      const previous = pauses.get(key);
      if (Date.now() - started > 5_000) pauses.delete(key);
      else {
        const ms = previous?.jobId === follower.jobId ? Math.min(previous.ms * 2, MAX_BACKOFF_MS) : 250;
        pauses.set(key, { jobId: follower.jobId, ms });
        if (result.kind !== 'closed' && result.kind !== 'cut') log('The Ray job log tail could not be opened', { RayJob: key, result: result.kind });
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, ms);
          follower.abort.signal.addEventListener('abort', () => { clearTimeout(timer); resolve(); }, { once: true });
        });
        if (follower.abort.signal.aborted) return;
      }
    }
    if (followers.get(key) === follower) followers.delete(key);
    onEnd(key);
  }

  return {
    follow(key, cluster, dashboardURL, jobId) {
      const existing = followers.get(key);
      if (existing && existing.jobId === jobId && !existing.abort.signal.aborted) return;
      existing?.abort.abort();
      const follower: Follower = { jobId, abort: new AbortController(), done: Promise.resolve(), connected: false };
      followers.set(key, follower);
      follower.done = run(key, cluster, dashboardURL, follower);
    },
    stop(key) {
      pauses.delete(key);
      const existing = followers.get(key);
      if (!existing) return;
      existing.abort.abort();
      followers.delete(key);
    },
    isFollowing(key) {
      return followers.has(key);
    },
    async stopAll() {
      const all = [...followers.values()];
      followers.clear();
      for (const f of all) f.abort.abort();
      await Promise.all(all.map((f) => f.done));
    },
  };
}
