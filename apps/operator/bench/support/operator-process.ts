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
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { getHeapSpaceStatistics, getHeapStatistics, writeHeapSnapshot } from 'node:v8';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { Socket } from 'node:net';
import { createKubeClient, createLogger, createManager, resources, type ResourceType, type ServerOptions } from '@rayjob/kube-runtime';
import { parse } from 'yaml';
import { loadConfig } from '../../src/config/config.ts';
import { controllers } from '../../src/controllers/index.ts';
import { rayJobController } from '../../src/controllers/rayjob/controller.ts';
import { startOperator } from '../../src/operator.ts';
import { cacheTransforms, CREATED_BY_SELECTOR, RAY_POD_SELECTOR, SUBMITTER_POD_SELECTOR } from '../../src/runtime/cached-fields.ts';
import { createSharedInformers } from '../../src/runtime/shared-informers.ts';
import { applyV8Flags } from '../../src/runtime/v8-flags.ts';

// The chart's v8Flags, applied as the operator's main applies them (before any work), in every role.
const v8Flags = applyV8Flags(process.env);
if (!v8Flags.ok) throw new Error(v8Flags.message);
const { values: flags, positionals } = parseArgs({ allowPositionals: true, options: { qps: { type: 'string' } } });
const [role, kubeconfig, dashboardIP = '127.0.0.1', tailBytes] = positionals;
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

// The API server as an operator pod reaches it (in-cluster: server, CA, token; no kubeconfig machinery, so
// @kubernetes/client-node is not loaded, as in the image), read from the sandbox's kubeconfig.
const kc = parse(readFileSync(kubeconfig, 'utf8')) as { clusters: Array<{ cluster: { server: string } }>; users: Array<{ user: { token?: string } }> };
const server: ServerOptions = { server: kc.clusters[0]!.cluster.server, insecureSkipTlsVerify: true, ...(kc.users[0]?.user.token !== undefined && { token: kc.users[0].user.token }) };
let stop: () => Promise<void>;
/** An informers child's memory once synced, before it measured anything. */
let atSync: { rss: number; heapUsed: number; memory: Record<string, number> } | undefined;
let synced: () => boolean;
const kinds: Array<{ kind: string; count: number; bytes: number }> = [];
if (role === 'operator') {
  // --qps: the client's token bucket (the chart's 100 by default; 'unlimited': none, as the anchor was measured).
  const qps = flags.qps === 'unlimited' ? ['--qps', '1000000', '--burst', '1000000'] : flags.qps ? ['--qps', flags.qps, '--burst', String(2 * Number(flags.qps))] : [];
  const loaded = loadConfig(['--enable-leader-election=false', '--metrics-addr=127.0.0.1:0', '--health-probe-bind-address=0', '--kubeconfig', kubeconfig, ...qps], {});
  if (loaded.ok !== true) throw new Error(`bad operator flags: ${JSON.stringify(loaded)}`);
  const budget = tailBytes === undefined ? undefined : tailBytes === 'unbounded' ? Infinity : Number(tailBytes);
  const chosen = budget === undefined ? controllers : controllers.map((c) => (c.name === 'rayjob' ? rayJobController({ tailBytesPerJob: budget }) : c));
  const operator = await startOperator({ config: loaded.config, controllers: chosen, dashboardLookup: oneAddress as never, logger, connection: server });
  stop = () => operator.stop();
  synced = () => true;
  send({ type: 'ready', metrics: operator.addresses.metrics });
} else {
  const client = await createKubeClient(server, { userAgent: 'bench-informers' });
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
  // The manager runs its informers until stopped, as the operator's does (no controllers: nothing else to run).
  const running = new AbortController();
  const exit = manager.start(running.signal);
  await manager.started();
  stop = async () => {
    running.abort();
    await exit;
    await client.close();
  };
  synced = () => {
    const done = all.every(([, list]) => list.every((i) => i.hasSynced()));
    // Once: the heap a copy of each kind's cached objects takes (see bytesPerObject).
    if (done && kinds.length === 0) {
      // The informers' own memory first: the copies below are garbage afterwards, but the heap they grew stays.
      atSync = snapshotMemory();
      for (const [kind, list] of all) {
        const objects = list.flatMap((i) => i.cache.list());
        kinds.push({ kind, count: objects.length, bytes: bytesPerObject(objects) });
      }
    }
    return done;
  };
  send({ type: 'ready' });
}
/** At least this many copies are measured per kind, so the GC's noise (~1 MB) is a few bytes per object. */
const MEASURED_COPIES = 4_000;
/** Settled heap: two full GCs (the first may leave garbage only the second frees) and what is used after. */
const settledHeap = (): number => {
  globalThis.gc?.();
  globalThis.gc?.();
  return getHeapStatistics().used_heap_size;
};
/**
 * The heap one cached object of a kind takes: the objects are copied (structuredClone: fresh strings, as JSON.parse
 * makes them) until MEASURED_COPIES copies exist, into an array allocated before the first reading, and the settled
 * heap's growth is divided by the copies. The cache's indexes are not in it. A few hundred objects'
 * worth of heap is within one GC's noise, which made this negative when it copied each object once.
 */
function bytesPerObject(objects: readonly object[]): number {
  if (objects.length === 0) return 0;
  const copies: object[] = new Array<object>(Math.max(objects.length, MEASURED_COPIES));
  const before = settledHeap();
  for (let i = 0; i < copies.length; i++) copies[i] = structuredClone(objects[i % objects.length] as object);
  const after = settledHeap();
  return (after - before) / copies.length;
}

function snapshotMemory(): { rss: number; heapUsed: number; memory: Record<string, number> } {
  globalThis.gc?.();
  const mem = process.memoryUsage();
  return { rss: mem.rss, heapUsed: mem.heapUsed, memory: memoryParts(mem) };
}

/** Where the RSS is: V8's heap (committed, by space), buffers outside it, and the kernel's anonymous/file split. */
function memoryParts(mem: NodeJS.MemoryUsage): Record<string, number> {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  const spaces = Object.fromEntries(getHeapSpaceStatistics().map((s) => [`committed ${s.space_name}`, s.physical_space_size]));
  return { heapTotal: mem.heapTotal, heapUsed: mem.heapUsed, external: mem.external, arrayBuffers: mem.arrayBuffers, rssAnon: kb('RssAnon'), rssFile: kb('RssFile'), ...anonymousMappings(), ...spaces };
}

/** V8 reserves its heap in pages of this size (one mapping each); malloc's main heap is the `[heap]` mapping. */
const V8_PAGE_BYTES = 256 * 1024;
/**
 * The anonymous RSS by mapping (/proc/self/smaps): V8's heap pages (256 KB mappings: committed pages, in use or
 * pooled), malloc's main arena ([heap]), and the other anonymous mappings (malloc's other arenas and big blocks,
 * V8's large objects, code range, wasm memory), so a bench can tell the JavaScript heap from the C heap.
 */
function anonymousMappings(): Record<string, number> {
  const out = { 'rss v8 pages': 0, 'rss malloc [heap]': 0, 'rss other anon': 0 };
  let bucket: keyof typeof out | undefined;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const map = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (map) {
      const [, from, to, inode, name] = map;
      const size = Number.parseInt(to!, 16) - Number.parseInt(from!, 16);
      bucket = name === '[heap]' ? 'rss malloc [heap]' : inode !== '0' || name !== '' ? undefined : size === V8_PAGE_BYTES ? 'rss v8 pages' : 'rss other anon';
    } else if (bucket && line.startsWith('Rss:')) out[bucket] += Number(/(\d+)/.exec(line)?.[1] ?? 0) * 1024;
  }
  return out;
}
// The bench died: never outlive it.
process.on('disconnect', () => process.exit(0));
process.on('message', (m: { type?: string; path?: string }) => {
  if (m?.type === 'snapshot' && m.path) {
    send({ type: 'snapshot', path: writeHeapSnapshot(m.path) });
  } else if (m?.type === 'stats') {
    const isSynced = synced();
    const now = atSync ?? snapshotMemory();
    const cpu = process.cpuUsage();
    send({ type: 'stats', ...now, synced: isSynced, cpuSeconds: (cpu.user + cpu.system) / 1e6, dashboardBytesRead: dashboardBytesRead(), kinds });
  } else if (m?.type === 'stop') {
    void stop().finally(() => process.exit(0));
  }
});
