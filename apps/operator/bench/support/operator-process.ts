// Bench-only child process (forked by scale.ts) so its RSS is the operator's alone:
//   operator-process.ts operator <kubeconfig> <dashboard-ip>  -> the operator (every controller), every
//       cluster name resolving to <dashboard-ip> (one Ray emulator answers for every cluster), /metrics served;
//   operator-process.ts informers <kubeconfig>                -> the anchor: a kube-runtime manager with the
//       same shared informers (RayJobs, RayClusters, Jobs and pods created by KubeRay's label, Services), no controllers.
// IPC: sends { type: 'ready', metrics? }; answers 'stats' with { rss, heapUsed, synced }; exits on 'stop'.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { createKubeClient, createLogger, createManager, resources } from '@rayjob/kube-runtime';
import { loadConfig } from '../../src/config/config.ts';
import { CREATED_BY_SELECTOR } from '../../src/controllers/rayjob/controller.ts';
import { startOperator } from '../../src/operator.ts';

const [role, kubeconfig, dashboardIP = '127.0.0.1'] = process.argv.slice(2);
if (!kubeconfig || (role !== 'operator' && role !== 'informers')) throw new Error('usage: operator-process.ts operator|informers <kubeconfig> [dashboard-ip]');
const send = (m: unknown): void => void process.send?.(m);
const logger = createLogger({ level: process.env.OPERATOR_BENCH_LOG ?? 'silent' });

type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
const oneAddress = (_host: string, options: LookupOptions, cb: Callback): void =>
  options.all ? cb(null, [{ address: dashboardIP, family: 4 }]) : cb(null, dashboardIP, 4);

let stop: () => Promise<void>;
let synced: () => boolean;
if (role === 'operator') {
  const loaded = loadConfig(['--enable-leader-election=false', '--metrics-addr=127.0.0.1:0', '--health-probe-bind-address=0', '--kubeconfig', kubeconfig], {});
  if (loaded.ok !== true) throw new Error(`bad operator flags: ${JSON.stringify(loaded)}`);
  const operator = await startOperator({ config: loaded.config, dashboardLookup: oneAddress as never, logger });
  stop = () => operator.stop();
  synced = () => true;
  send({ type: 'ready', metrics: operator.addresses.metrics });
} else {
  const client = await createKubeClient({ kubeconfigPath: kubeconfig }, { userAgent: 'bench-informers' });
  const manager = createManager({ client, logger });
  const informers = [
    manager.informer(resources.rayJobs),
    manager.informer(resources.rayClusters),
    manager.informer(resources.jobs, { labelSelector: CREATED_BY_SELECTOR }),
    manager.informer(resources.pods, { labelSelector: CREATED_BY_SELECTOR }),
    manager.informer(resources.services),
  ];
  void manager.start();
  await manager.started();
  stop = async () => {
    await manager.stop();
    await client.close();
  };
  synced = () => informers.every((i) => i.hasSynced());
  send({ type: 'ready' });
}
// The bench died: never outlive it.
process.on('disconnect', () => process.exit(0));
process.on('message', (m: { type?: string }) => {
  if (m?.type === 'stats') {
    globalThis.gc?.();
    const mem = process.memoryUsage();
    send({ type: 'stats', rss: mem.rss, heapUsed: mem.heapUsed, synced: synced() });
  } else if (m?.type === 'stop') {
    void stop().finally(() => process.exit(0));
  }
});
