// Child process: a manager with leader election and signal handling, whose reconcile takes `holdMs`.
// It reports "started <key>" / "finished <key>" over IPC and exits 0 after a clean stop, 1 when it lost
// the lease: the shape of an operator binary, for tests that send it real signals.
import { createKubeClient, createManager, resources } from '../../src/index.ts';

const { kubeconfigPath, identity, holdMs } = JSON.parse(process.argv[2] ?? '{}') as { kubeconfigPath: string; identity: string; holdMs: number };
const client = await createKubeClient({ kubeconfigPath });
const manager = createManager({
  client,
  handleSignals: true,
  leaderElection: { id: 'ray-operator-leader', namespace: 'default', identity, leaseDurationMs: 1500, renewDeadlineMs: 1000, retryPeriodMs: 200 },
});
const controller = manager.addController({
  name: 'configmap',
  reconcile: async (req) => {
    process.send?.(`started ${req.key}`);
    await new Promise((r) => setTimeout(r, holdMs));
    process.send?.(`finished ${req.key}`);
  },
});
controller.watch(manager.informer(resources.configmaps, { namespace: 'default' }));
const exit = await manager.start();
await client.close();
process.send?.(`exit ${exit}`);
process.exitCode = exit === 'stopped' ? 0 : 1;
process.disconnect?.();
