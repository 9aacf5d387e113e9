// A lost lease aborts the dashboard call in flight (issue 23). The replica reaches Ray through the API server's
// service proxy (--use-kubernetes-proxy), so the fault proxy in front of the API server can hold the Ray job
// submission open on the way. The lease is then lost while the submission waits: the operator must drop it at
// once (not when its 10 s request timeout ends), so the held submission never reaches Ray, and nothing is written
// after the loss.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/api.ts';
import { createRayJob, rayJobManifest, startEnv, type Env } from './support/env.ts';
import { operatorNamespace } from './support/least-privilege.ts';
import { isOperatorCall } from './support/operator-calls.ts';

let env: Env;
beforeAll(async () => {
  env = await startEnv(['--enable-leader-election=true', `--leader-election-namespace=${operatorNamespace}`, '--use-kubernetes-proxy'], {
    faultProxy: true,
    identity: 'fenced-dashboard',
    // The loss comes within the renew deadline (6 s) of the held submission, well before the operator's own
    // 10 s timeout for a call through the proxy would end it.
    leaderElection: { leaseDurationMs: 9_000, renewDeadlineMs: 6_000, retryPeriodMs: 1_500 },
  });
}, 120_000);
afterAll(async () => {
  await env?.stop();
});

const writeVerbs = ['create', 'update', 'patch', 'delete'];
const submission = /\/services\/[^/]+:dashboard\/proxy\/api\/jobs\/?$/;

describe('lease fencing of dashboard calls', { timeout: 200_000 }, () => {
  it('a lease lost while a Ray job submission is in flight: the submission is aborted at once and never reaches Ray', async () => {
    const proxy = env.proxy!;
    await eventually('the replica to lead', () => env.operator.isLeader());
    proxy.inject({ method: 'POST', path: submission, fault: { kind: 'hold' }, times: 100 });
    await createRayJob(env.url, rayJobManifest('fenced-submit', { submissionMode: 'HTTPMode', entrypoint: 'echo fenced' }));
    await eventually('the Ray job submission to be held', () => {
      if (!env.operator.isLeader()) throw new Error('the replica lost its lease by itself (a machine too loaded for the lease timings)');
      return proxy.seen.some((s) => s.fault === 'hold');
    }, 120_000, 50); // a fixed pause: the faults go in right after the hold is seen, well before its call times out
    const heldAt = Date.now();
    for (const method of ['GET', 'PUT']) proxy.inject({ method, path: /\/leases\//, fault: { kind: 'answer', status: 503 }, times: 100_000 });
    // The submission's client still waits at the last look before the loss (the abort may close it before the next).
    let wantedWhileLeading = 0;
    await eventually('the lease to be lost', () => {
      if (!env.operator.isLeader()) return true;
      wantedWhileLeading = proxy.heldWanted();
      return false;
    }, 30_000, 20);
    const lostAt = Date.now();
    // Still within the call's own timeout: only the loss can have ended it.
    expect(lostAt - heldAt).toBeLessThan(9_000);
    expect(wantedWhileLeading).toBe(1);
    await eventually('the held submission to be dropped by the operator', () => proxy.heldWanted() === 0, 2_000, 20);
    expect(Date.now() - heldAt).toBeLessThan(10_000);
    // Let go, the held submission is not forwarded: its client is gone, so Ray never receives the job.
    expect(proxy.release()).toBe(0);
    await new Promise((r) => setTimeout(r, 2_000));
    const writesAfter = env.audit.filter((e) => isOperatorCall(e) && writeVerbs.includes(e.verb) && e.objectRef?.resource !== 'leases' && Date.parse(e.requestReceivedTimestamp) >= lostAt);
    expect(writesAfter.map((e) => `${e.verb} ${e.requestURI}`)).toEqual([]);
    expect(env.audit.filter((e) => submission.test(e.requestURI))).toEqual([]);
  });
});
