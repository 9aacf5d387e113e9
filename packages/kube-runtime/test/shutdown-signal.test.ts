import { fork } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources, type Lease } from '../src/index.ts';
import { eventually } from './support/eventually.ts';
import { configMap, startTestCluster, type TestCluster } from './support/sandbox.ts';

let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster();
});
afterAll(async () => {
  await cluster.stop();
});

describe('an operator-shaped process and real signals', () => {
  // Generous: the child loads the runtime and client-node from TypeScript sources, seconds on a loaded machine.
  it('on SIGTERM finishes the in-flight reconcile, releases the lease and exits 0', { timeout: 60_000 }, async () => {
    await cluster.direct.create(resources.configmaps, configMap('in-flight'));
    const child = fork(new URL('./support/manager-process.ts', import.meta.url), [JSON.stringify({ kubeconfigPath: cluster.server.kubeconfigPath, identity: 'op-0', holdMs: 800 })], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const messages: string[] = [];
    child.on('message', (m) => messages.push(String(m)));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await eventually(() => messages.includes('started default/in-flight'), 45_000, 'the reconcile to start');
    child.kill('SIGTERM');
    const code = await exited;
    expect(code).toBe(0);
    expect(messages).toEqual(['started default/in-flight', 'finished default/in-flight', 'exit stopped']);
    const lease = await cluster.direct.get<Lease>(resources.leases, { namespace: 'default', name: 'ray-operator-leader' });
    expect(lease.ok && lease.value.spec).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });

  it('a second SIGTERM during the drain exits 1 at once, without waiting for the reconcile (the operator\'s main uses the same handler)', { timeout: 60_000 }, async () => {
    await cluster.direct.create(resources.configmaps, configMap('long-drain'));
    const child = fork(new URL('./support/manager-process.ts', import.meta.url), [JSON.stringify({ kubeconfigPath: cluster.server.kubeconfigPath, identity: 'op-1', holdMs: 120_000 })], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    const messages: string[] = [];
    let stderr = '';
    child.on('message', (m) => messages.push(String(m)));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // One worker: whichever map it takes first (the other test's is there too) holds it for two minutes.
    await eventually(() => messages.some((m) => m.startsWith('started ')), 45_000, 'a reconcile to start');
    child.kill('SIGTERM');
    // The first signal is being handled: the drain waits for the two-minute reconcile.
    await new Promise((r) => setTimeout(r, 500));
    const second = Date.now();
    child.kill('SIGTERM');
    expect(await exited).toBe(1);
    expect(Date.now() - second).toBeLessThan(5_000);
    expect(messages.filter((m) => m.startsWith('finished '))).toEqual([]);
  });
});
