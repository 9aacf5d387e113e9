/**
 * What a scenario gets: request helpers bound to one target, unique submission ids that
 * normalise back to stable placeholders, and bounded waits on job status.
 */
import { randomBytes } from 'node:crypto';
import { isTerminalRayJobStatus } from '@rayjob/kube-model';
import { pollUntil } from '../probe/deadline.ts';
import { httpRequest, type HttpRequest, type HttpResult } from '../probe/http.ts';
import { tailLogs, type TailOptions, type TailResult } from '../probe/ws-tail.ts';
import { normalizeText, observeHttp, type HttpObservation, type Substitutions } from './normalize.ts';
import type { Target } from './target.ts';

export type JobDetails = Record<string, unknown> & { status: string };

export type ScenarioContext = {
  target: Target;
  subs: Substitutions;
  /** A fresh submission id, unique per run, that observations show as `<sid:label>`. */
  sid(label: string): string;
  /** Auth headers for the target (empty when it has no token). */
  auth: Record<string, string>;
  http(path: string, request?: HttpRequest): Promise<HttpResult>;
  observe(path: string, request?: HttpRequest): Promise<HttpObservation>;
  tail(path: string, options: Omit<TailOptions, 'headers'> & { headers?: Record<string, string> }): Promise<TailResult>;
  submit(body: Record<string, unknown>): Promise<HttpResult>;
  job(sid: string): Promise<JobDetails | undefined>;
  waitForStatus(sid: string, accept: (status: string) => boolean, timeoutMs: number): Promise<JobDetails>;
  /** Log text split into Ray's own lines (racy order, so sorted) and the entrypoint's output. */
  logLines(text: string): { ray: string[]; output: string[] };
};

export function scenarioContext(target: Target): ScenarioContext {
  const subs: Substitutions = new Map();
  const auth: Record<string, string> = target.authToken ? { authorization: `Bearer ${target.authToken}` } : {};
  // A header given as '' is removed, which lets a scenario drop the auth header.
  const headers = (extra: Record<string, string> = {}) =>
    Object.fromEntries(Object.entries({ ...auth, ...extra }).filter(([, v]) => v !== ''));
  const http = (path: string, request: HttpRequest = {}) =>
    httpRequest(`${target.url}${path}`, { ...request, headers: headers(request.headers) });
  const job = async (sid: string): Promise<JobDetails | undefined> => {
    const res = await http(`/api/jobs/${sid}`);
    if (res.kind !== 'response' || res.status !== 200) return undefined;
    return JSON.parse(res.body) as JobDetails;
  };
  return {
    target,
    subs,
    auth,
    sid(label) {
      const id = `${label}-${randomBytes(4).toString('hex')}`;
      subs.set(id, `<sid:${label}>`);
      return id;
    },
    http,
    observe: async (path, request) => observeHttp(await http(path, request), subs),
    tail: (path, options) =>
      tailLogs(`${target.url.replace(/^http/, 'ws')}${path}`, { ...options, headers: headers(options.headers) }),
    submit: (body) => http('/api/jobs/', { method: 'POST', body }),
    job,
    waitForStatus: (sid, accept, timeoutMs) =>
      pollUntil(
        async () => {
          const details = await job(sid);
          return details && accept(details.status) ? details : undefined;
        },
        { what: `job ${sid} to reach the expected status on ${target.kind}`, timeoutMs, intervalMs: 250 },
      ),
    logLines(text) {
      const lines = normalizeText(text, subs).split('\n').filter((l) => l.length > 0);
      const isRay = (l: string) => l.startsWith('<log-time>') || l.startsWith('Running entrypoint for job ');
      return { ray: lines.filter(isRay).sort(), output: lines.filter((l) => !isRay(l)) };
    },
  };
}

export const isTerminalStatus = (s: string): boolean => isTerminalRayJobStatus(s);
