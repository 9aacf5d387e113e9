// Bench-only child process (forked by scale.ts) so its RSS is the operator's alone:
//   operator-process.ts operator <kubeconfig> <dashboard-ip> [tail-bytes]  -> the operator (every controller), every
//       cluster name resolving to <dashboard-ip> (one Ray emulator answers for every cluster), /metrics served;
//       tail-bytes: the RayJob controller's log budget per job ('unbounded': follow the whole log, as before #27);
//   operator-process.ts informers <kubeconfig>                -> the anchor: a kube-runtime manager with the
//       operator's shared informers (same kinds, selectors and cache transforms), no controllers; once synced,
//       the heap a copy of each kind's cached objects takes (after a GC) over their count is that kind's bytes per
//       cached object (the cache's indexes not included);
//   operator-process.ts informers-whole <kubeconfig>          -> the same, caching whole objects (no transforms,
//       managedFields dropped, as before issue 27): the per-kind "before" in the same run.
// IPC: sends { type: 'ready', metrics? }; answers 'stats' with { rss, heapUsed, synced, cpuSeconds, dashboardBytesRead, kinds }
// (CPU: user + system of this process; dashboard bytes: read by its sockets to port 8265); exits on 'stop'.
import { subscribe } from 'node:diagnostics_channel';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Socket } from 'node:net';
import { createKubeClient, createLogger, createManager, resources, type ResourceType } from '@rayjob/kube-runtime';
import { loadConfig } from '../../src/config/config.ts';
import { controllers } from '../../src/controllers/index.ts';
import { rayJobController } from '../../src/controllers/rayjob/controller.ts';
import { startOperator } from '../../src/operator.ts';
import { cacheTransforms, CREATED_BY_SELECTOR, RAY_POD_SELECTOR, SUBMITTER_POD_SELECTOR } from '../../src/runtime/cached-fields.ts';
import { createSharedInformers } from '../../src/runtime/shared-informers.ts';

const [role, kubeconfig, dashboardIP = '127.0.0.1', tailBytes] = process.argv.slice(2);
if (!kubeconfig || (role !== 'operator' && role !== 'informers' && role !== 'informers-whole')) throw new Error('usage: operator-process.ts operator|informers|informers-whole <kubeconfig> [dashboard-ip]');
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
const kinds: Array<{ kind: string; count: number; bytes: number }> = [];
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
  const informers = createSharedInformers(manager, [], role === 'informers' ? cacheTransforms : {});
  const byKind: Array<[string, ResourceType, string | undefined]> = [
    ['RayJob', resources.rayJobs, undefined],
    ['RayCluster', resources.rayClusters, undefined],
    ['Pod (Ray)', resources.pods, RAY_POD_SELECTOR],
    ['Pod (submitter)', resources.pods, SUBMITTER_POD_SELECTOR],
    ['Job', resources.jobs, CREATED_BY_SELECTOR],
    ['Service', resources.services, undefined],
  ];
  const all = byKind.map(([kind, type, selector]) => [kind, informers.get(type, selector)] as const);
  void manager.start();
  await manager.started();
  stop = async () => {
    await manager.stop();
    await client.close();
  };
  synced = () => {
    const done = all.every(([, list]) => list.every((i) => i.hasSynced()));
    // Once: the heap a copy of each kind's cached objects takes, after a GC, over their count.
    if (done && kinds.length === 0) {
      for (const [kind, list] of all) {
        globalThis.gc?.();
        const before = process.memoryUsage().heapUsed;
        const copy = list.flatMap((i) => i.cache.list().map((o) => structuredClone(o)));
        globalThis.gc?.();
        const after = process.memoryUsage().heapUsed;
        kinds.push({ kind, count: copy.length, bytes: copy.length ? (after - before) / copy.length : 0 });
      }
    }
    return done;
  };
  send({ type: 'ready' });
}
// The bench died: never outlive it.
process.on('disconnect', () => process.exit(0));
process.on('message', (m: { type?: string }) => {
  if (m?.type === 'stats') {
    globalThis.gc?.();
    const mem = process.memoryUsage();
    const cpu = process.cpuUsage();
    send({ type: 'stats', rss: mem.rss, heapUsed: mem.heapUsed, synced: synced(), cpuSeconds: (cpu.user + cpu.system) / 1e6, dashboardBytesRead: dashboardBytesRead(), kinds });
  } else if (m?.type === 'stop') {
    void stop().finally(() => process.exit(0));
  }
});
