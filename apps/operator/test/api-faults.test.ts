// API errors on the operator's own calls (through a fault proxy): a 409, a 410 Gone watch, a 429 with
// Retry-After, 5xx, and writes the server applied whose answer was lost (504 Timeout, reset connection). Each
// RayJob still reaches its terminal state, with exactly one RayCluster and one submitter Job ever created, nothing
// left behind after shutdown, and a 429's Retry-After waited out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, type Json } from './support/api.ts';
import { createRayJob, rayJobManifest, startEnv, waitForDeployment, type Env } from './support/env.ts';
import type { FaultRule } from './support/fault-proxy.ts';

let env: Env;
beforeAll(async () => {
  env = await startEnv([], { faultProxy: true });
});
afterAll(async () => {
  await env?.stop();
});

const ns = '/namespaces/default';
const createsOf = (resource: string, rayJob: string): Json[] => env.audit.filter((e) =>
  e.userAgent?.startsWith('rayjob-operator') && e.verb === 'create' && e.objectRef?.resource === resource && !e.objectRef.subresource && e.responseStatus.code === 201
  && (e.requestObject as Json)?.metadata?.ownerReferences?.some((o: Json) => o.kind === 'RayJob' && o.name === rayJob));

const owned = async (path: string, rayJob: string): Promise<Json[]> =>
  ((await api(env.url, 'GET', path)).body.items as Json[]).filter((o) => o.metadata.ownerReferences?.some((r: Json) => r.kind === 'RayJob' && r.name === rayJob));

interface Case {
  name: string;
  what: string;
  rules: (rayJob: string) => FaultRule[];
  /** Runs after the rules are in place, before the RayJob is created. */
  before?: () => void;
}

const cases: Case[] = [
  { name: 'lost-cluster', what: 'a RayCluster create the server applied but whose answer was lost (504 Timeout)', rules: () => [{ method: 'POST', path: /\/rayclusters(\?|$)/, fault: { kind: 'lost-answer' } }] },
  { name: 'reset-job', what: 'a submitter Job create the server applied before the connection reset', rules: () => [{ method: 'POST', path: /\/apis\/batch\/v1\/namespaces\/default\/jobs(\?|$)/, fault: { kind: 'reset-after-apply' } }] },
  { name: 'conflict-status', what: 'status writes answered 409 Conflict twice', rules: (j) => [{ method: 'PUT', path: new RegExp(`/rayjobs/${j}/status`), fault: { kind: 'answer', status: 409 }, times: 2 }] },
  { name: 'server-errors', what: 'the submitter Job create answered 500, then 503', rules: () => [{ method: 'POST', path: /\/batch\/v1\/namespaces\/default\/jobs(\?|$)/, fault: { kind: 'answer', status: 500 } }, { method: 'POST', path: /\/batch\/v1\/namespaces\/default\/jobs(\?|$)/, fault: { kind: 'answer', status: 503 } }] },
  { name: 'failed-shutdown', what: 'the RayCluster delete at shutdown answered 503', rules: (j) => [{ method: 'DELETE', path: new RegExp(`/rayclusters/${j}-`), fault: { kind: 'answer', status: 503 } }] },
  {
    name: 'gone-watch',
    what: 'the RayJob watch answered 410 Gone when it resumed',
    rules: () => [{ method: 'GET', path: /\/apis\/ray\.io\/v1\/rayjobs\?.*watch=(true|1)/, fault: { kind: 'watch-gone' } }],
    // Every open watch ends with 410 Expired (compacted history): the operator relists, and its new watch meets the
    // proxy's 410 as well.
    before: () => env.sandbox.apiServer.expireWatches(),
  },
];

describe('API errors on the operator\'s calls', { timeout: 180_000 }, () => {
  it.each(cases)('$what: Complete, one RayCluster, one submission, nothing leaked', async ({ name, rules, before }) => {
    const injected = rules(name);
    const from = env.proxy?.seen.length ?? 0;
    for (const rule of injected) env.proxy?.inject(rule);
    before?.();
    await createRayJob(env.url, rayJobManifest(name, { shutdownAfterJobFinishes: true }));
    const done = await waitForDeployment(env.url, name, 'Complete', 150_000);
    expect(done.status.jobStatus).toBe('SUCCEEDED');
    expect(createsOf('rayclusters', name)).toHaveLength(1);
    expect(createsOf('jobs', name)).toHaveLength(1);
    // shutdownAfterJobFinishes: the cluster goes; the submitter Job stays (as KubeRay's); nothing else is owned.
    await eventually(`RayJob ${name}'s RayCluster to be deleted`, async () => (await owned(`/apis/ray.io/v1${ns}/rayclusters`, name)).length === 0, 60_000, 200);
    expect((await owned(`/apis/batch/v1${ns}/jobs`, name)).map((j) => j.metadata.name)).toEqual([name]);
    // Every fault was met (a rule not hit would make this case test nothing).
    const hits = env.proxy?.seen.slice(from).filter((s) => s.fault !== undefined) ?? [];
    expect(hits.length).toBe(injected.reduce((n, r) => n + (r.times ?? 1), 0));
  });

  it('a 429\'s Retry-After is waited out before the call is made again', async () => {
    const name = 'throttled';
    env.proxy?.inject({ method: 'POST', path: /\/rayclusters(\?|$)/, fault: { kind: 'answer', status: 429, retryAfterSeconds: 2 } });
    await createRayJob(env.url, rayJobManifest(name, { shutdownAfterJobFinishes: true }));
    await waitForDeployment(env.url, name, 'Complete', 150_000);
    const posts = env.proxy?.seen.filter((s) => s.method === 'POST' && /\/rayclusters(\?|$)/.test(s.url)) ?? [];
    const throttled = posts.findIndex((s) => s.fault === 'answer');
    expect(throttled).toBeGreaterThanOrEqual(0);
    const retry = posts[throttled + 1];
    expect(retry).toBeDefined();
    expect((retry?.at ?? 0) - (posts[throttled]?.at ?? 0)).toBeGreaterThanOrEqual(2_000 - 50);
    expect(createsOf('rayclusters', name)).toHaveLength(1);
  });
});
