import { describe, expect, it } from 'vitest';
import { createLeaderElector, resources, type KubeClient, type Lease, type LeaderElector } from '../src/index.ts';
import { eventually } from './support/eventually.ts';
import { useClusterPerTest } from './support/cluster-per-test.ts';

// controller-runtime's 15 s / 10 s / 2 s, scaled down 10x so a takeover fits in a fast test.
const timings = { leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 200 };
// The Lease holds whole seconds, so others judge it by 2 s: the bound that safety is about.
const leaseOnTheWireMs = 2000;

const t = useClusterPerTest({ bookmarkIntervalMs: 100 });

interface Candidate {
  elector: LeaderElector;
  stop: AbortController;
  done: Promise<string>;
  leading: AbortSignal | undefined;
  drainedBeforeRelease: boolean;
}

function candidate(client: KubeClient, identity: string, extra: { releaseOnCancel?: boolean; drain?: () => Promise<void> } = {}): Candidate {
  const stop = t.newStop();
  const c: Candidate = { stop, leading: undefined, drainedBeforeRelease: false } as Candidate;
  c.elector = createLeaderElector({
    client, namespace: 'default', name: 'ray-operator-leader', identity, ...timings,
    ...(extra.releaseOnCancel !== undefined && { releaseOnCancel: extra.releaseOnCancel }),
    onStartedLeading: (signal) => (c.leading = signal),
    onStoppedLeading: extra.drain,
  });
  c.done = c.elector.run(stop.signal);
  return c;
}

const lease = async (): Promise<Lease> => {
  const r = await t.cluster.direct.get<Lease>(resources.leases, { namespace: 'default', name: 'ray-operator-leader' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('Lease leader election with two managers', () => {
  it('elects exactly one leader and keeps renewing the Lease', async () => {
    const a = candidate(t.cluster.direct, 'a');
    await eventually(() => a.elector.isLeader());
    const b = candidate(t.cluster.direct, 'b');
    const first = await lease();
    expect(first.spec).toMatchObject({ holderIdentity: 'a', leaseDurationSeconds: 2, leaseTransitions: 0 });
    expect(first.spec?.renewTime).toMatch(/\.\d{6}Z$/);
    await eventually(async () => (await lease()).spec?.renewTime !== first.spec?.renewTime, 3000, 'a renewal');
    await new Promise((r) => setTimeout(r, 2 * timings.leaseDurationMs));
    expect([a.elector.isLeader(), b.elector.isLeader()]).toEqual([true, false]);
  });

  it('on shutdown drains first, then releases, and the other takes over well within the lease duration', async () => {
    let drained = false;
    const a = candidate(t.cluster.direct, 'a', { drain: async () => { await new Promise((r) => setTimeout(r, 300)); drained = true; } });
    await eventually(() => a.elector.isLeader());
    const b = candidate(t.cluster.direct, 'b');
    a.stop.abort();
    expect(a.leading?.aborted).toBe(true); // stops reconciling at once
    expect(await a.done).toBe('released');
    expect(drained).toBe(true);
    const released = Date.now();
    await eventually(() => b.elector.isLeader(), 5000);
    expect(Date.now() - released).toBeLessThan(leaseOnTheWireMs);
    expect((await lease()).spec).toMatchObject({ holderIdentity: 'b', leaseTransitions: 1 });
  });

  it('takes over from a leader that died without releasing after the lease expires', async () => {
    const a = candidate(t.cluster.direct, 'a', { releaseOnCancel: false });
    await eventually(() => a.elector.isLeader());
    const b = candidate(t.cluster.direct, 'b');
    a.stop.abort();
    expect(await a.done).toBe('stopped');
    const died = Date.now();
    await eventually(() => b.elector.isLeader(), 10_000);
    const took = Date.now() - died;
    // Not before the lease ran out (minus how stale b's last look was), and within a few retry periods after.
    expect(took).toBeGreaterThanOrEqual(leaseOnTheWireMs - 2.2 * timings.retryPeriodMs - 100);
    expect(took).toBeLessThan(2 * leaseOnTheWireMs + 1000);
  });

  it('stops leading at once when it cannot renew within the renew deadline', async () => {
    const a = candidate(t.cluster.client, 'a');
    await eventually(() => a.elector.isLeader());
    t.cluster.proxy.fail({ status: 503, count: 1000, match: /leases/ });
    const cut = Date.now();
    expect(await a.done).toBe('lost');
    expect(a.leading?.aborted).toBe(true);
    // Stops before anyone else may take the lease.
    expect(Date.now() - cut).toBeLessThan(leaseOnTheWireMs);
  });

  it('notices when another holder overwrote the Lease and stops leading', async () => {
    const a = candidate(t.cluster.direct, 'a');
    await eventually(() => a.elector.isLeader());
    // A newer holder (for example after a network partition) takes the lease.
    const current = await lease();
    const stolen = await t.cluster.direct.replace(resources.leases, { ...current, spec: { ...current.spec, holderIdentity: 'intruder', renewTime: new Date().toISOString().replace('Z', '000Z') } });
    expect(stolen.ok).toBe(true);
    expect(await a.done).toBe('lost');
  });
});
