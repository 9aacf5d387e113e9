// Two replicas with leader election: exactly one reconciles; when the leader is killed (its lease left behind),
// the other takes over within the lease duration and carries on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually } from './support/api.ts';
import { operatorNamespace } from './support/least-privilege.ts';
import { createRayJob, rayJobManifest, startEnv, waitForDeployment, type Env } from './support/env.ts';

const LEASE_MS = 4_000;
const RETRY_MS = 500;
let env: Env;
beforeAll(async () => {
  env = await startEnv(['--enable-leader-election=true', `--leader-election-namespace=${operatorNamespace}`], {
    identity: 'replica-a',
    leaderElection: { leaseDurationMs: LEASE_MS, renewDeadlineMs: 3_000, retryPeriodMs: RETRY_MS },
  });
});
afterAll(async () => {
  await env?.stop();
});

describe('leader election', { timeout: 120_000 }, () => {
  it('one replica reconciles; a killed leader is replaced within the lease duration', async () => {
    await eventually('replica-a to lead', () => env.operator.isLeader());
    const b = await env.startOperator(undefined, 'replica-b');
    const lease = (await api(env.url, 'GET', `/apis/coordination.k8s.io/v1/namespaces/${operatorNamespace}/leases/ray-operator-leader`)).body;
    expect(lease.spec.holderIdentity).toBe('replica-a');

    await createRayJob(env.url, rayJobManifest('le-one', { submissionMode: 'HTTPMode', entrypoint: 'echo one' }));
    await waitForDeployment(env.url, 'le-one', 'Complete', 60_000);
    expect(env.rayjob.state.memories.size).toBeGreaterThan(0);
    expect(b.operator.isLeader()).toBe(false);
    expect(b.rayjob.state.memories.size).toBe(0);

    const killedAt = Date.now();
    await env.operator.kill();
    await eventually('replica-b to lead', () => b.operator.isLeader(), LEASE_MS + 4 * RETRY_MS + 2_000, 20);
    const takeover = Date.now() - killedAt;
    // The lease was not released: B waits it out (observed from its own clock), then acquires on its next retry.
    expect(takeover).toBeLessThanOrEqual(LEASE_MS + 3 * RETRY_MS + 1_000);

    await createRayJob(env.url, rayJobManifest('le-two', { submissionMode: 'HTTPMode', entrypoint: 'echo two' }));
    await waitForDeployment(env.url, 'le-two', 'Complete', 60_000);
    expect(b.rayjob.state.memories.size).toBeGreaterThan(0);
  });
});
