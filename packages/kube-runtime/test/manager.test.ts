import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, createManager, resources, type KubeClient, type KubeObject, type Manager, type ManagerExit } from '../src/index.ts';
import { eventually } from './support/eventually.ts';
import { configMap } from './support/sandbox.ts';
import { useClusterPerTest } from './support/cluster-per-test.ts';

const t = useClusterPerTest({ bookmarkIntervalMs: 100 });

const leaderElection = { id: 'ray-operator-leader', namespace: 'default', leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 200 };

interface Running {
  manager: Manager;
  stop: AbortController;
  exit: Promise<ManagerExit>;
  reconciled: string[];
}

function run(client: KubeClient, o: { identity?: string; election?: boolean; signals?: boolean; hold?: () => Promise<void>; logs?: PassThrough } = {}): Running {
  const reconciled: string[] = [];
  const manager = createManager({
    client,
    metricsBindAddress: '127.0.0.1:0',
    healthProbeBindAddress: '127.0.0.1:0',
    gracefulShutdownTimeoutMs: 5000,
    informerBackoff: { initialMs: 50, maxMs: 200 },
    ...(o.logs && { logger: createLogger({ destination: o.logs, level: 'debug' }) }),
    ...(o.election && { leaderElection: { ...leaderElection, identity: o.identity ?? 'm' } }),
    ...(o.signals && { handleSignals: true }),
  });
  const informer = manager.informer(resources.configmaps, { namespace: 'default' });
  const controller = manager.addController({
    name: 'configmap',
    concurrency: 2,
    reconcile: async (req, ctx) => {
      ctx.log.info('reconciling');
      reconciled.push(req.key);
      await o.hold?.();
    },
  });
  controller.watch(informer);
  const stop = t.newStop();
  return { manager, stop, exit: manager.start(stop.signal), reconciled };
}

const get = async (address: string | undefined, path: string) => {
  const res = await fetch(`http://${address}${path}`);
  return { status: res.status, text: await res.text() };
};

describe('manager', () => {
  it('serves controller-runtime metrics, /healthz, and /readyz only after the caches synced', async () => {
    t.cluster.proxy.fail({ status: 503, count: 3, match: /configmaps\?limit/ });
    await t.cluster.direct.create(resources.configmaps, configMap('one'));
    const m = run(t.cluster.client);
    const probes = await eventually(() => m.manager.addresses().probes);
    expect((await get(probes, '/healthz')).status).toBe(200);
    const notReady = await get(probes, '/readyz?verbose');
    expect(notReady.status).toBe(500);
    expect(notReady.text).toContain('[-]informers-synced failed');
    await eventually(async () => (await get(probes, '/readyz')).status === 200, 10_000);
    await eventually(() => m.reconciled.includes('default/one'));
    const { text } = await get(m.manager.addresses().metrics, '/metrics');
    for (const line of [
      'controller_runtime_reconcile_total{controller="configmap",result="success"} 1',
      'controller_runtime_reconcile_errors_total{controller="configmap"} 0',
      'controller_runtime_terminal_reconcile_errors_total{controller="configmap"} 0',
      'controller_runtime_max_concurrent_reconciles{controller="configmap"} 2',
      'controller_runtime_active_workers{controller="configmap"} 0',
      'workqueue_adds_total{controller="configmap",name="configmap"} 1',
      'workqueue_depth{controller="configmap",name="configmap"} 0',
      'workqueue_retries_total{controller="configmap",name="configmap"} 0',
      'workqueue_unfinished_work_seconds{controller="configmap",name="configmap"} 0',
      'workqueue_longest_running_processor_seconds{controller="configmap",name="configmap"} 0',
    ]) expect(text).toContain(line);
    expect(text).toMatch(/controller_runtime_reconcile_time_seconds_count\{controller="configmap"\} 1/);
    expect(text).toMatch(/workqueue_queue_duration_seconds_bucket\{le="1e-8",controller="configmap",name="configmap"\}/);
    expect(text).toMatch(/workqueue_work_duration_seconds_count\{controller="configmap",name="configmap"\} 1/);
    m.stop.abort();
    expect(await m.exit).toBe('stopped');
  });

  it('without controllers runs until stopped, its informers following the cluster and its probes served', async () => {
    // controller-runtime's manager runs until cancelled whatever it holds: an informers-only process (a cache, a
    // metrics endpoint) is a manager too.
    const manager = createManager({ client: t.cluster.client, healthProbeBindAddress: '127.0.0.1:0', informerBackoff: { initialMs: 50, maxMs: 200 } });
    const informer = manager.informer(resources.configmaps, { namespace: 'default' });
    const stop = t.newStop();
    let exited = false;
    const exit = manager.start(stop.signal).finally(() => (exited = true));
    await manager.started();
    await eventually(() => informer.hasSynced());
    await t.cluster.direct.create(resources.configmaps, configMap('after-sync'));
    await eventually(() => informer.cache.get('default/after-sync'), 10_000, 'the object created after the sync in the cache');
    expect((await get(manager.addresses().probes, '/readyz')).status).toBe(200);
    expect(exited).toBe(false);
    stop.abort();
    expect(await exit).toBe('stopped');
  });

  it('logs each reconcile as JSON with controller, namespace, name and reconcileID', async () => {
    const logs = new PassThrough();
    const lines: Array<Record<string, unknown>> = [];
    logs.on('data', (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean).forEach((l) => lines.push(JSON.parse(l))));
    await t.cluster.direct.create(resources.configmaps, configMap('logged'));
    const m = run(t.cluster.direct, { logs });
    await eventually(() => lines.find((l) => l.msg === 'reconciling'));
    const line = lines.find((l) => l.msg === 'reconciling')!;
    expect(line).toMatchObject({ level: 'info', controller: 'configmap', namespace: 'default', name: 'logged' });
    expect(line.reconcileID).toMatch(/^[0-9a-f-]{36}$/);
    m.stop.abort();
    await m.exit;
  });

  it('with two replicas only the leader reconciles; the other takes over when the leader stops', async () => {
    await t.cluster.direct.create(resources.configmaps, configMap('shared'));
    const a = run(t.cluster.direct, { election: true, identity: 'a' });
    await eventually(() => a.reconciled.includes('default/shared'));
    const b = run(t.cluster.direct, { election: true, identity: 'b' });
    await eventually(async () => (await get(b.manager.addresses().probes, '/readyz')).status === 200);
    await t.cluster.direct.create(resources.configmaps, configMap('second'));
    await eventually(() => a.reconciled.includes('default/second'));
    expect(b.reconciled).toEqual([]);
    expect((await get(a.manager.addresses().metrics, '/metrics')).text).toContain('leader_election_master_status{name="ray-operator-leader"} 1');
    expect((await get(b.manager.addresses().metrics, '/metrics')).text).toContain('leader_election_master_status{name="ray-operator-leader"} 0');
    a.stop.abort();
    expect(await a.exit).toBe('stopped');
    await eventually(() => b.reconciled.includes('default/second'), 5000, 'b to take over');
    expect(b.manager.isLeader()).toBe(true);
  });

  it('kill() stops at once and leaves the lease held: the other replica leads only after the lease duration', async () => {
    await t.cluster.direct.create(resources.configmaps, configMap('crash'));
    const a = run(t.cluster.direct, { election: true, identity: 'a' });
    await eventually(() => a.reconciled.includes('default/crash'));
    const b = run(t.cluster.direct, { election: true, identity: 'b' });
    await b.manager.started();
    const killedAt = Date.now();
    await a.manager.kill();
    expect(await a.exit).toBe('stopped');
    const lease = await t.cluster.direct.get<KubeObject & { spec: { holderIdentity?: string } }>(resources.leases, { namespace: 'default', name: 'ray-operator-leader' });
    expect(lease.ok && lease.value.spec.holderIdentity).toBe('a'); // not released
    await eventually(() => b.reconciled.includes('default/crash'), 10_000, 'b to take over');
    // b waits out the lease from when it last saw a renewal (up to a renew deadline before the kill, under load),
    // where a released lease is taken on b's next retry: a lower bound only, so a slow machine cannot fail it.
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(leaderElection.leaseDurationMs / 2);
  });

  it('stop() releases the lease: the other replica leads without waiting out the duration', async () => {
    await t.cluster.direct.create(resources.configmaps, configMap('handover'));
    const a = run(t.cluster.direct, { election: true, identity: 'a' });
    await eventually(() => a.reconciled.includes('default/handover'));
    await a.manager.stop();
    expect(await a.exit).toBe('stopped');
    const lease = await t.cluster.direct.get<KubeObject & { spec: { holderIdentity?: string } }>(resources.leases, { namespace: 'default', name: 'ray-operator-leader' });
    expect(lease.ok && lease.value.spec.holderIdentity).toBe('');
  });

  it('on SIGTERM finishes the in-flight reconcile, then releases the lease', async () => {
    let release!: () => void;
    let finished = false;
    await t.cluster.direct.create(resources.configmaps, configMap('slow'));
    const m = run(t.cluster.direct, { election: true, identity: 'a', signals: true, hold: async () => { await new Promise<void>((r) => (release = r)); finished = true; } });
    await eventually(() => m.reconciled.includes('default/slow'));
    process.emit('SIGTERM', 'SIGTERM');
    await new Promise((r) => setTimeout(r, 100));
    const lease = await t.cluster.direct.get<KubeObject & { spec: { holderIdentity?: string } }>(resources.leases, { namespace: 'default', name: 'ray-operator-leader' });
    expect(lease.ok && lease.value.spec.holderIdentity).toBe('a'); // still held while draining
    release();
    expect(await m.exit).toBe('stopped');
    expect(finished).toBe(true);
    const after = await t.cluster.direct.get<KubeObject & { spec: { holderIdentity?: string } }>(resources.leases, { namespace: 'default', name: 'ray-operator-leader' });
    expect(after.ok && after.value.spec.holderIdentity).toBe('');
  });

  it('stops reconciling and exits with leader-election-lost when the lease cannot be renewed', async () => {
    await t.cluster.direct.create(resources.configmaps, configMap('before-loss'));
    const m = run(t.cluster.client, { election: true, identity: 'a' });
    await eventually(() => m.reconciled.includes('default/before-loss'));
    t.cluster.proxy.fail({ status: 500, count: 10_000, match: /leases/ });
    expect(await m.exit).toBe('leader-election-lost');
    const count = m.reconciled.length;
    await t.cluster.direct.create(resources.configmaps, configMap('after-loss'));
    await new Promise((r) => setTimeout(r, 300));
    expect(m.reconciled).toHaveLength(count);
  });

  it('a lost lease cancels the in-flight reconcile\'s API calls, and nothing it writes afterwards reaches the server', async () => {
    await t.cluster.direct.create(resources.configmaps, configMap('fenced'));
    const manager = createManager({ client: t.cluster.client, gracefulShutdownTimeoutMs: 5000, informerBackoff: { initialMs: 50, maxMs: 200 }, leaderElection: { ...leaderElection, identity: 'fenced' } });
    const lost = { at: 0 };
    const seen: { watch?: string; write?: string } = {};
    const controller = manager.addController({
      name: 'configmap',
      reconcile: async (req) => {
        if (req.key !== 'default/fenced') return;
        // A call still in flight when the lease goes (a watch here: it lasts until cancelled).
        const inFlight = manager.workClient.watch(resources.configmaps, { namespace: 'default', signal: new AbortController().signal, onEvent: () => undefined });
        t.cluster.proxy.fail({ status: 500, count: 10_000, match: /leases/ });
        const ended = await inFlight;
        lost.at = t.cluster.proxy.requests.length;
        seen.watch = ended.ok ? ended.value : ended.error.reason;
        const write = await manager.workClient.patch(resources.configmaps, { namespace: 'default', name: 'fenced' }, { data: { written: 'after the loss' } });
        seen.write = write.ok ? 'written' : write.error.reason;
      },
    });
    controller.watch(manager.informer(resources.configmaps, { namespace: 'default' }));
    const stop = t.newStop();
    expect(await manager.start(stop.signal)).toBe('leader-election-lost');
    expect(seen).toEqual({ watch: 'ended', write: 'Aborted' });
    expect(t.cluster.proxy.requests.slice(lost.at).filter((r) => r.startsWith('PATCH'))).toEqual([]);
    const after = await t.cluster.direct.get<KubeObject & { data?: Record<string, string> }>(resources.configmaps, { namespace: 'default', name: 'fenced' });
    expect(after.ok && after.value.data?.written).toBeUndefined();
  });
});
