import { describe, expect, it } from 'vitest';
import { createController, createInformer, generationChanged, itemExponentialLimiter, ownerKeys, terminalError, resources, type KubeObject, type Request } from '../src/index.ts';
import { eventually } from './support/eventually.ts';
import { configMap } from './support/sandbox.ts';
import { useClusterPerTest } from './support/cluster-per-test.ts';

const t = useClusterPerTest({ bookmarkIntervalMs: 100 });

const informerFor = (type = resources.configmaps) => createInformer<KubeObject>({ client: t.cluster.client, type, namespace: 'default', backoff: { initialMs: 10, maxMs: 100 } });

describe('controller loop', () => {
  it('reconciles each watched object by key once the cache has synced, and again on change', async () => {
    await t.cluster.direct.create(resources.configmaps, configMap('before'));
    const informer = informerFor();
    const calls: string[] = [];
    let syncedAtFirstCall: boolean | undefined;
    const controller = createController({
      name: 'configmap',
      reconcile: async (req) => {
        syncedAtFirstCall ??= informer.hasSynced();
        calls.push(req.key);
      },
    });
    controller.watch(informer);
    void informer.run(t.stop.signal);
    const done = controller.start(t.stop.signal);
    await eventually(() => calls.includes('default/before'));
    expect(syncedAtFirstCall).toBe(true);
    await t.cluster.direct.create(resources.configmaps, configMap('after'));
    await eventually(() => calls.includes('default/after'));
    await t.cluster.direct.patch(resources.configmaps, { namespace: 'default', name: 'after' }, { data: { x: '1' } });
    await eventually(() => calls.filter((c) => c === 'default/after').length === 2);
    t.stop.abort();
    await done;
  });

  it('with an update filter skips updates that do not change what the filter looks at', async () => {
    const informer = informerFor();
    const calls: string[] = [];
    const controller = createController({ name: 'filtered', reconcile: async (req) => void calls.push(req.key) });
    controller.watch(informer, undefined, { update: (old, obj) => old.metadata.labels?.tier !== obj.metadata.labels?.tier });
    void informer.run(t.stop.signal);
    void controller.start(t.stop.signal);
    await t.cluster.direct.create(resources.configmaps, configMap('f', {}, { tier: 'a' }));
    await eventually(() => calls.length === 1);
    await t.cluster.direct.patch(resources.configmaps, { namespace: 'default', name: 'f' }, { data: { noise: '1' } });
    await t.cluster.direct.patch(resources.configmaps, { namespace: 'default', name: 'f' }, { metadata: { labels: { tier: 'b' } } });
    await eventually(() => calls.length === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(calls).toEqual(['default/f', 'default/f']);
    expect(generationChanged({ metadata: { generation: 1 } }, { metadata: { generation: 1 } })).toBe(false);
    expect(generationChanged({ metadata: { generation: 1 } }, { metadata: { generation: 2 } })).toBe(true);
  });

  it('maps owned objects to their controller owner key', async () => {
    const owner = await t.cluster.direct.create<KubeObject>(resources.configmaps, configMap('owner'));
    if (!owner.ok) throw new Error(owner.error.message);
    const informer = informerFor(resources.secrets);
    const calls: string[] = [];
    const controller = createController({ name: 'owner', reconcile: async (req) => void calls.push(req.key) });
    controller.watch(informer, ownerKeys('ConfigMap'));
    void informer.run(t.stop.signal);
    void controller.start(t.stop.signal);
    await t.cluster.direct.create(resources.secrets, {
      apiVersion: 'v1', kind: 'Secret',
      metadata: { name: 'child', namespace: 'default', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.value.metadata.uid!, controller: true }] },
    });
    await t.cluster.direct.create(resources.secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'orphan', namespace: 'default' } });
    await eventually(() => calls.includes('default/owner'));
    expect(calls).not.toContain('default/orphan');
    expect(calls).not.toContain('default/child');
  });

  it('retries a failing reconcile with per-key backoff, honours requeueAfter, and forgets on success', async () => {
    const controller = createController({
      name: 'retry',
      rateLimiter: itemExponentialLimiter(5, 100),
      reconcile: async (req) => {
        attempts.push(req.key);
        if (attempts.length < 3) throw new Error('transient');
        if (attempts.length === 3) return { requeueAfterMs: 20 };
        return undefined;
      },
    });
    const attempts: string[] = [];
    const done = controller.start(t.stop.signal);
    controller.enqueue('default/flaky');
    await eventually(() => attempts.length === 4);
    expect(controller.queue.numRequeues('default/flaky')).toBe(0);
    t.stop.abort();
    await done;
  });

  it('an error returned as a value is retried with backoff and counted like a thrown one', async () => {
    const attempts: string[] = [];
    const counted: string[] = [];
    const controller = createController({
      name: 'error-value',
      rateLimiter: itemExponentialLimiter(5, 100),
      metrics: { reconciled: (o) => counted.push(o), reconcileTime: () => undefined, activeWorkers: () => undefined, terminalError: () => counted.push('terminal') },
      reconcile: async (req) => {
        attempts.push(req.key);
        return attempts.length < 3 ? { error: 'PUT /status: 500 InternalError' } : undefined;
      },
    });
    const done = controller.start(t.stop.signal);
    controller.enqueue('default/failing');
    await eventually(() => attempts.length === 3);
    expect(counted).toEqual(['error', 'error', 'success']);
    expect(controller.queue.numRequeues('default/failing')).toBe(0);
    t.stop.abort();
    await done;
  });

  it('does not re-queue a terminal error, and counts it', async () => {
    const attempts: string[] = [];
    const counted: string[] = [];
    const controller = createController({
      name: 'terminal',
      rateLimiter: itemExponentialLimiter(1, 10),
      metrics: { reconciled: (o) => counted.push(o), reconcileTime: () => undefined, activeWorkers: () => undefined, terminalError: () => counted.push('terminal') },
      reconcile: async (req) => {
        attempts.push(req.key);
        throw terminalError(new Error('spec.entrypoint is required'));
      },
    });
    const done = controller.start(t.stop.signal);
    controller.enqueue('default/invalid');
    await eventually(() => counted.length === 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(attempts).toEqual(['default/invalid']);
    expect(counted).toEqual(['error', 'terminal']);
    t.stop.abort();
    await done;
  });

  it('never runs two reconciles of one key at once, but runs different keys concurrently', async () => {
    let running = 0;
    let maxParallel = 0;
    const perKey = new Map<string, number>();
    let overlapSameKey = false;
    const gates: Array<() => void> = [];
    const controller = createController({
      name: 'parallel',
      concurrency: 3,
      reconcile: async (req: Request) => {
        running++;
        maxParallel = Math.max(maxParallel, running);
        if ((perKey.get(req.key) ?? 0) > 0) overlapSameKey = true;
        perKey.set(req.key, (perKey.get(req.key) ?? 0) + 1);
        await new Promise<void>((resolve) => gates.push(resolve));
        perKey.set(req.key, perKey.get(req.key)! - 1);
        running--;
      },
    });
    const done = controller.start(t.stop.signal);
    for (const k of ['a', 'b', 'c', 'a', 'a']) controller.enqueue(k);
    await eventually(() => gates.length === 3);
    controller.enqueue('a'); // while 'a' is in flight: runs again after, not beside
    for (let released = 0; released < 4; released++) {
      await eventually(() => gates.length > 0);
      gates.shift()!();
    }
    await eventually(() => controller.queue.processing() === 0 && controller.queue.len() === 0);
    expect(maxParallel).toBe(3);
    expect(overlapSameKey).toBe(false);
    t.stop.abort();
    await done;
  });

  it('on stop finishes the in-flight reconcile, aborts its signal and starts no new one', async () => {
    let release!: () => void;
    const started: string[] = [];
    let sawAbort = false;
    const controller = createController({
      name: 'shutdown',
      reconcile: async (req, ctx) => {
        started.push(req.key);
        await new Promise<void>((resolve) => (release = resolve));
        sawAbort = ctx.signal.aborted;
      },
    });
    const done = controller.start(t.stop.signal);
    controller.enqueue('one');
    controller.enqueue('two');
    await eventually(() => started.length === 1);
    t.stop.abort();
    let finished = false;
    void done.then(() => (finished = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(finished).toBe(false);
    release();
    await done;
    expect(sawAbort).toBe(true);
    expect(started).toEqual(['one']);
  });
});
