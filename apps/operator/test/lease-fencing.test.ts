// Work is fenced by the lease (issue 23): a replica whose lease is lost mid-reconcile makes no write after it. The
// reconcile's RayCluster create is held by the proxy in front of the API server while the lease's renewals fail;
// once the renew deadline passed, the held create is let go: it must no longer be wanted (the operator cancelled
// it), and no write of the operator reaches the API server from the moment of the loss on. The same replica runs
// with --qps 2 --burst 1: every API call it makes (the Lease's aside, which has its own bucket) keeps to them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually } from './support/api.ts';
import { createRayJob, rayJobManifest, startEnv, type Env } from './support/env.ts';
import { operatorNamespace } from './support/least-privilege.ts';
import { isOperatorCall } from './support/operator-calls.ts';
import type { RayCluster } from '@rayjob/core';
import { createDashboardClients } from '../src/controllers/rayjob/dashboards.ts';

const QPS = 2;
const BURST = 1;
let env: Env;
beforeAll(async () => {
  env = await startEnv(['--enable-leader-election=true', `--leader-election-namespace=${operatorNamespace}`, `--qps=${QPS}`, `--burst=${BURST}`], {
    faultProxy: true,
    identity: 'fenced',
    // Roomy: each lease call may take up to one retry period, and a loaded machine must not lose the lease by itself.
    leaderElection: { leaseDurationMs: 12_000, renewDeadlineMs: 8_000, retryPeriodMs: 2_000 },
  });
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

const writeVerbs = ['create', 'update', 'patch', 'delete'];

describe('lease fencing', { timeout: 200_000 }, () => {
  it('a lease lost mid-reconcile: the write in flight is cancelled and nothing is written after the loss', async () => {
    const proxy = env.proxy!;
    await eventually('the replica to lead', () => env.operator.isLeader());
    proxy.inject({ method: 'POST', path: /\/rayclusters(\?|$)/, fault: { kind: 'hold' } });
    await createRayJob(env.url, rayJobManifest('fenced', { submissionMode: 'HTTPMode', entrypoint: 'echo fenced' }));
    await eventually('the RayCluster create to be held', () => {
      if (!env.operator.isLeader()) throw new Error('the replica lost its lease by itself (a machine too loaded for the lease timings)');
      return proxy.seen.some((s) => s.fault === 'hold');
    }, 120_000, 50); // a fixed pause: the faults go in right after the hold is seen, well before its call times out
    // From now on the lease cannot be renewed: the renew deadline passes while the create is in flight.
    for (const method of ['GET', 'PUT']) proxy.inject({ method, path: /\/leases\//, fault: { kind: 'answer', status: 503 }, times: 100_000 });
    await eventually('the lease to be lost', () => !env.operator.isLeader(), 30_000, 20);
    const lostAt = Date.now();
    // The cancelled request's connection closes a moment later; then the held create is let go.
    await eventually('the held create to be given up by the operator', () => proxy.heldWanted() === 0, 5_000, 50).catch(() => undefined);
    expect(proxy.release()).toBe(0);
    // Give anything still queued in the operator the chance to show itself.
    await new Promise((r) => setTimeout(r, 2_000));
    const writesAfter = env.audit.filter((e) => isOperatorCall(e) && writeVerbs.includes(e.verb) && e.objectRef?.resource !== 'leases' && Date.parse(e.requestReceivedTimestamp) >= lostAt);
    expect(writesAfter.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
    const clusters = (await api(env.url, 'GET', '/apis/ray.io/v1/namespaces/default/rayclusters')).body.items;
    expect(clusters).toEqual([]);
  });

  it('a fenced replica starts no dashboard call either (no Ray job submitted, stopped or deleted after the loss)', async () => {
    const fence = new AbortController();
    const dashboards = createDashboardClients({ useKubernetesProxy: false, fence: fence.signal }, () => Promise.resolve(undefined));
    const cluster = { apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata: { name: 'c', namespace: 'default', uid: 'u' }, spec: { headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [] } } } } } as unknown as RayCluster;
    expect((await dashboards.clientFor(cluster, '127.0.0.1:8265')).ok).toBe(true);
    fence.abort();
    expect(await dashboards.clientFor(cluster, '127.0.0.1:8265')).toEqual({ ok: false, message: 'this operator replica no longer holds the leader lease' });
    await dashboards.close();
  });

  it('--qps/--burst: no window of the operator\'s API calls holds more than burst + qps x its length (client-go\'s token bucket)', () => {
    // As the proxy received them (the audit's times are the server's): start-up lists and watches, the reconcile's calls.
    const sent = env.proxy!.seen.filter((s) => !/\/leases/.test(s.url)).map((s) => s.at).sort((a, b) => a - b);
    expect(sent.length).toBeGreaterThan(10);
    let worst = 0;
    for (let i = 0; i < sent.length; i++) {
      for (let j = i; j < sent.length; j++) {
        const allowed = BURST + (QPS * (sent[j]! - sent[i]!)) / 1000;
        worst = Math.max(worst, j - i + 1 - allowed);
      }
    }
    // Slack for a loaded machine (a call whose token was due but whose timer ran late arrives with the next one).
    // Measured at load ~28: 0.9 over with the limit, 9.1 over without it (the start-up's lists and watches at once).
    expect(worst).toBeLessThanOrEqual(3);
  });
});
