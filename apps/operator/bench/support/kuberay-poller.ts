// Bench-only anchor: KubeRay's way of finding a job's end, simulated on the same jobs in the same run. KubeRay
// requeues a Running RayJob every 3 s and asks the dashboard for the job's info each time; this poller does
// exactly that (GET /api/jobs/<id> every 3 s, first poll at a random phase) straight to the head pod, and
// records when it first saw a terminal status, Ray's end_time, and how many requests it sent.
import { request } from 'node:http';
import type { LookupFunction } from 'node:net';
import { isTerminalRayJobStatus } from '@rayjob/kube-model';

export const KUBERAY_POLL_MS = 3_000;

export interface PollerResult {
  /** Epoch ms when a poll first answered a terminal status. */
  seenAt?: number;
  /** Ray's end_time (epoch ms) from that answer. */
  endTime?: number;
  requests: number;
}

export interface Poller {
  readonly result: PollerResult;
  /** Resolves when a terminal status was seen (or the poller was stopped). */
  done: Promise<PollerResult>;
  stop(): void;
}

function getJson(base: string, path: string, lookup: LookupFunction): Promise<{ status: number; body: { status?: string; end_time?: number } }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { lookup, headers: { 'user-agent': 'bench-kuberay-3s-poller' }, timeout: 2_000 }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
        } catch {
          resolve({ status: res.statusCode ?? 0, body: {} });
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

export function startKubeRayPoller(dashboardURL: string, jobId: string, lookup: LookupFunction, random: () => number = Math.random): Poller {
  const base = /^https?:\/\//.test(dashboardURL) ? dashboardURL : `http://${dashboardURL}`;
  const result: PollerResult = { requests: 0 };
  let timer: NodeJS.Timeout | undefined;
  let finish: (r: PollerResult) => void = () => undefined;
  const done = new Promise<PollerResult>((resolve) => (finish = resolve));
  let stopped = false;
  const poll = async (): Promise<void> => {
    if (stopped) return;
    result.requests++;
    try {
      const r = await getJson(base, `/api/jobs/${encodeURIComponent(jobId)}`, lookup);
      if (r.status === 200 && isTerminalRayJobStatus(r.body.status)) {
        result.seenAt = Date.now();
        if (typeof r.body.end_time === 'number') result.endTime = r.body.end_time;
        stopped = true;
        finish(result);
        return;
      }
    } catch {
      // an unreachable dashboard is polled again next period, as KubeRay does
    }
    if (!stopped) timer = setTimeout(() => void poll(), KUBERAY_POLL_MS);
  };
  timer = setTimeout(() => void poll(), random() * KUBERAY_POLL_MS);
  return {
    result,
    done,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      finish(result);
    },
  };
}
