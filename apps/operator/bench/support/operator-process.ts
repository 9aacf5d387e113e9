// Bench-only child process (forked by scale.ts) so its RSS is the operator's alone:
//   operator-process.ts operator <kubeconfig> <dashboard-ip> [tail-bytes]  -> the operator (every controller), every
//       cluster name resolving to <dashboard-ip> (one Ray emulator answers for every cluster), /metrics served;
//       tail-bytes: the RayJob controller's log budget per job ('unbounded': follow the whole log, as before #27);
//   operator-process.ts informers <kubeconfig>                -> the anchor: a kube-runtime manager with the
//       same shared informers (RayJobs, RayClusters, Jobs and pods created by KubeRay's label, Services), no controllers.
// IPC: sends { type: 'ready', metrics? }; answers 'stats' with { rss, heapUsed, synced, cpuSeconds, dashboardBytesRead }
// (CPU: user + system of this process; dashboard bytes: read by its sockets to port 8265); exits on 'stop'.
import { subscribe } from 'node:diagnostics_channel';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Socket } from 'node:net';
import { createKubeClient, createLogger, createManager, resources } from '@rayjob/kube-runtime';
import { loadConfig } from '../../src/config/config.ts';
import { controllers } from '../../src/controllers/index.ts';
import { CREATED_BY_SELECTOR, rayJobController } from '../../src/controllers/rayjob/controller.ts';
import { startOperator } from '../../src/operator.ts';

const [role, kubeconfig, dashboardIP = '127.0.0.1', tailBytes] = process.argv.slice(2);
if (!kubeconfig || (role !== 'operator' && role !== 'informers')) throw new Error('usage: operator-process.ts operator|informers <kubeconfig> [dashboard-ip]');
const send = (m: unknown): void => void process.send?.(m);
const logger = createLogger({ level: process.env.OPERATOR_BENCH_LOG ?? 'silent' });

type Callback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
const oneAddress = (_host: string, options: LookupOptions, cb: Callback): void =>
  options.all ? cb(null, [{ address: dashboardIP, family: 4 }]) : cb(null, dashboardIP, 4);

// Bytes this process read from dashboards: closed sockets' totals plus the open ones' so far.
const DASHBOARD_PORT = 8265;
const open = new Set<Socket>();
let closedBytes = 0;
subscribe('net.client.socket', (message) => {
  const socket = (message as { socket: Socket }).socket;
  socket.once('connect', () => {
    if (socket.remotePort !== DASHBOARD_PORT) return;
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      closedBytes += socket.bytesRead;
    });
  });
});
const dashboardBytesRead = (): number => [...open].reduce((n, s) => n + s.bytesRead, closedBytes);

let stop: () => Promise<void>;
let synced: () => boolean;
if (role === 'operator') {
  const loaded = loadConfig(['--enable-leader-election=false', '--metrics-addr=127.0.0.1:0', '--health-probe-bind-address=0', '--kubeconfig', kubeconfig], {});
  if (loaded.ok !== true) throw new Error(`bad operator flags: ${JSON.stringify(loaded)}`);
  const budget = tailBytes === undefined ? undefined : tailBytes === 'unbounded' ? Infinity : Number(tailBytes);
  const chosen = budget === undefined ? controllers : controllers.map((c) => (c.name === 'rayjob' ? rayJobController({ tailBytesPerJob: budget }) : c));
  const operator = await startOperator({ config: loaded.config, controllers: chosen, dashboardLookup: oneAddress as never, logger });
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
    const cpu = process.cpuUsage();
    send({ type: 'stats', rss: mem.rss, heapUsed: mem.heapUsed, synced: synced(), cpuSeconds: (cpu.user + cpu.system) / 1e6, dashboardBytesRead: dashboardBytesRead() });
  } else if (m?.type === 'stop') {
    void stop().finally(() => process.exit(0));
  }
});
