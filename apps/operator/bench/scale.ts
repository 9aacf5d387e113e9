// Benchmark (not a test): operator RSS and reconcile throughput with 1,000 and 10,000 live RayJobs, in a
// SYNTHETIC mode, each number beside anchors measured in the same run.
// Synthetic mode, exactly:
//   - the sandbox's API server only: no kubelet (pods never run a process), no Job controller (submitter Jobs
//     never get pods); a bench-only "synthetic node" (support/synthetic-node.ts) marks every head pod Running
//     and Ready at once with pod IP 127.253.0.1. Our RayCluster controller then marks the clusters ready itself.
//   - ONE Ray emulator, in this process, on 127.253.0.1:8265, answers for every cluster: the operator (a child
//     process, so its RSS is its own) resolves every cluster DNS name to 127.253.0.1 (its dashboardLookup).
//   - for each size N (ascending; `--sizes 1000,10000`), over the RayJobs of the sizes before it:
//       A. create -> Running: the operator is started (it first resyncs the RayJobs already there), the missing
//          K8sJobMode RayJobs are created over HTTP (16 at a time), and the phase ends when all N are Running
//          (cluster created, head "running", cluster ready, submitter Job created). Their submitters never run,
//          so the jobs stay Running and the operator asks the emulator every 3 s (core's interval for a job not
//          yet submitted: KubeRay's polling load, the heaviest steady state there is). RSS is read at the end.
//       B. restart: the operator is restarted over the N live RayJobs and their objects; measured until it
//          reconciled N times (controller_runtime_reconcile_total{controller="rayjob"} >= N), counted from the
//          child's "ready" (operator started, informers listing), so module loading is not in it.
// Anchors: RSS of an idle `node -e` process; RSS of a child running only the same shared informers over the
// same objects (what caching them costs, with no controller); structuredClone of a RayJob per second in this
// process (the least any per-object work costs, to compare machines).
// Memory (issue 27): bytes per cached object by kind (the settled heap a kind's cached objects take when copied
// until there are at least 4,000 copies, over the copies: support/operator-process.ts bytesPerObject), with the
// operator's cache transforms and with whole objects (as before issue 27) in the same run; RSS per RayJob; where the
// RSS is (V8's committed spaces, buffers outside the heap, anonymous vs file-backed pages); RSS beside the goal
// (<= 400 MB at 10,000) and the RSS measured before issue 27. The operator child connects as a pod does (server, CA,
// token; no kubeconfig machinery) and runs with the chart's NODE_OPTIONS.
// Throughput: the operator's client rate limit is the chart's --qps 100 / --burst 200 unless `--qps N` or
// `--qps unlimited` (the figures before issue 27 were measured without one); each figure is printed beside them.
//   node apps/operator/bench/scale.ts [--sizes 1000,10000] [--qps 100|unlimited]
//   SCALE_BENCH_SNAPSHOT_DIR=dir: a heap snapshot of the operator at the end of each A phase.
//   SCALE_BENCH_CPU_PROF_DIR=dir: a V8 CPU profile of every child (node --cpu-prof), written when it stops, named
//       <role>-<n>.<pid>.cpuprofile (n counts the children forked; B's operator is the resync alone: it is stopped once
//       its initial resync is done). Open it in Chrome DevTools or summarize it with `node --cpu-prof` tooling.
import { fork, execFileSync, type ChildProcess } from 'node:child_process';
import { loadavg } from 'node:os';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { startRayEmulator } from '@rayjob/ray-emulator';
import { kubeconfigYaml, startSandbox } from '@rayjob/sandbox';
import { RAY_CRDS } from '../test/support/sandbox-images.ts';
import { startSyntheticNode } from './support/synthetic-node.ts';
import { watchRayJobs, type Json } from './support/rayjob-watch.ts';
import { mb, ratio, table } from './support/stats.ts';
import { eventually } from '@rayjob/test-support';

const { values: opts } = parseArgs({ options: { sizes: { type: 'string', default: '1000,10000' }, qps: { type: 'string', default: '100' } } });
// The operator's client token bucket: the chart's --qps 100 (burst 200) by default; 'unlimited' as the anchor was measured.
const QPS = opts.qps ?? '100';
if (QPS !== 'unlimited' && !(Number(QPS) > 0)) throw new Error(`--qps: a positive number of requests per second or 'unlimited', not ${QPS}`);
const SIZES = (opts.sizes ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0).sort((a, b) => a - b);
if (!SIZES.length) throw new Error('--sizes: a comma-separated list of RayJob counts, e.g. --sizes 1000,10000');
const DASHBOARD_IP = '127.253.0.1';
/** Issue 27's goal, and the operator's RSS this bench measured before it (2 cores, loaded; whole objects cached). */
const RSS_GOAL = 400 * 1024 * 1024;
const RSS_BEFORE: Record<number, number> = { 1000: 448 * 1024 * 1024, 10000: 1184 * 1024 * 1024 };
/** Throughput and resync before issue 27 (same bench, no client rate limit): 26 RayJobs/s create -> Running at 1k and 10k; 10k resynced in 45 s. */
const CREATE_RATE_BEFORE = 26;
const RESYNC_SECONDS_BEFORE: Record<number, number> = { 10000: 45 };
const child = join(import.meta.dirname, 'support', 'operator-process.ts');
/** The operator pod's runtime settings from the chart's defaults (values.yaml nodeOptions, mallocArenaMax). */
const CHART_RUNTIME = chartRuntime();
const started = Date.now();

const rayJob = (name: string): Json => ({
  apiVersion: 'ray.io/v1',
  kind: 'RayJob',
  metadata: { name, namespace: 'default' },
  spec: {
    submissionMode: 'K8sJobMode',
    entrypoint: 'python -c "print(1)"',
    rayClusterSpec: {
      rayVersion: '2.58.0',
      headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: 'rayproject/ray:2.58.0', ports: [{ name: 'dashboard', containerPort: 8265 }] }] } } },
    },
  },
});

// Anchors measured in this process first (nothing else running yet).
const idleRss = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.memoryUsage().rss))']).toString());
const cloneRate = (() => {
  const obj = { ...rayJob('clone-me'), status: { jobDeploymentStatus: 'Running', jobStatus: 'RUNNING', rayClusterName: 'clone-me-abcde', jobId: 'clone-me-xyz12', dashboardURL: 'clone-me-head-svc.default.svc.cluster.local:8265' } };
  let n = 0;
  const t0 = performance.now();
  while (performance.now() - t0 < 1000) {
    for (let i = 0; i < 100; i++) structuredClone(obj);
    n += 100;
  }
  return n / ((performance.now() - t0) / 1000);
})();

const emulator = await startRayEmulator({ host: DASHBOARD_IP, port: 8265 });
const sandbox = await startSandbox({ crds: RAY_CRDS, kubelet: false, jobController: false });
const kubeconfig = join(sandbox.dir, 'bench-kubeconfig');
await writeFile(kubeconfig, kubeconfigYaml(sandbox.url), { mode: 0o600 });
const node = startSyntheticNode(sandbox.url, DASHBOARD_IP);
const watch = watchRayJobs(sandbox.url);

interface KindBytes { kind: string; count: number; bytes: number }
interface Stats { rss: number; heapUsed: number; cpuSeconds: number; synced: boolean; kinds: KindBytes[]; memory: Record<string, number> }
interface Child { proc: ChildProcess; metrics?: string; stats(): Promise<Stats>; stop(): Promise<void> }

let forked = 0;
/** --cpu-prof for each child when SCALE_BENCH_CPU_PROF_DIR is set (see the header). */
const cpuProfile = (role: string): string[] => {
  const dir = process.env.SCALE_BENCH_CPU_PROF_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${role}-${forked}.\${pid}.cpuprofile`] : [];
};

async function forkChild(role: 'operator' | 'informers' | 'informers-whole'): Promise<Child> {
  forked++;
  const proc = fork(child, [role, kubeconfig, DASHBOARD_IP, '--qps', QPS], { execArgv: ['--expose-gc', ...CHART_RUNTIME.nodeFlags, ...cpuProfile(role)], env: { ...process.env, ...CHART_RUNTIME.env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ready = await new Promise<{ metrics?: string }>((resolve, reject) => {
    proc.once('message', (m) => resolve(m as { metrics?: string }));
    proc.once('exit', (code) => reject(new Error(`${role} child exited ${code} before it was ready`)));
  });
  return {
    proc,
    ...(ready.metrics && { metrics: ready.metrics }),
    stats: () =>
      new Promise((resolve) => {
        proc.once('message', (m) => resolve(m as Stats));
        proc.send({ type: 'stats' });
      }),
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => resolve());
        proc.send({ type: 'stop' });
      }),
  };
}

async function metric(c: Child, name: string, controller: string): Promise<number> {
  const text = await (await retrying(`http://${c.metrics}/metrics`)).text();
  let sum = 0;
  for (const line of text.split('\n')) if (line.startsWith(`${name}{`) && line.includes(`controller="${controller}"`)) sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}

const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> => {
  await eventually(check, { what, withinMs: timeoutMs, everyMs: 250, retryErrors: false });
};

/** The operator's API requests so far by method and code (client-go's rest_client_requests_total), e.g. "GET 200: 12". */
async function apiRequests(c: Child): Promise<string> {
  const text = await (await retrying(`http://${c.metrics}/metrics`)).text();
  const counts = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('rest_client_requests_total{')) continue;
    const label = (name: string): string => new RegExp(`${name}="([^"]*)"`).exec(line)?.[1] ?? '?';
    const key = `${label('method')} ${label('code')}`;
    counts.set(key, (counts.get(key) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return [...counts].map(([k, n]) => `${k}: ${n}`).join(', ') || 'none';
}

/** The wall time of one reconcile (at the measured rate) in structuredClones of a RayJob. */
const perReconcile = (reconcilesPerSecond: number): string => (reconcilesPerSecond > 0 ? (cloneRate / reconcilesPerSecond).toFixed(0) : 'n/a');

async function pool(count: number, width: number, run: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < count) await run(next++);
  }));
}

/** fetch, retried on connection errors (a reused keep-alive connection reset on a loaded machine). */
async function retrying(url: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetch(url, init);
    } catch (e) {
      if (attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 200 * attempt));
    }
  }
}

async function post(path: string, body: unknown): Promise<void> {
  const res = await retrying(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  // 409: a retried create whose first attempt went through.
  if (res.status >= 300 && res.status !== 409) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/** Restarts measured from fork to the initial resync done; returns seconds and reconciles. */
async function resync(expected: number): Promise<{ op: Child; seconds: number; reconciles: number }> {
  const op = await forkChild('operator');
  const t0 = performance.now();
  // Not "queue empty": live jobs not yet submitted are asked again every 3 s, so at 10,000 the queue stays busy.
  await until(`the operator to reconcile ${expected} RayJobs`, async () => (await metric(op, 'controller_runtime_reconcile_total', 'rayjob')) >= expected, 900_000);
  return { op, seconds: (performance.now() - t0) / 1000, reconciles: await metric(op, 'controller_runtime_reconcile_total', 'rayjob') };
}

async function informersOnly(role: 'informers' | 'informers-whole'): Promise<Stats> {
  const inf = await forkChild(role);
  await until('the informers to sync', async () => (await inf.stats()).synced, 300_000);
  const stats = await inf.stats();
  await inf.stop();
  return stats;
}

const parts = (s: Stats): string => Object.entries(s.memory).map(([k, v]) => `${k} ${mb(v)}`).join(', ');
function chartRuntime(): { nodeFlags: string[]; env: Record<string, string>; shown: string } {
  const values = parse(readFileSync(join(import.meta.dirname, '..', 'deploy', 'helm', 'rayjob-operator', 'values.yaml'), 'utf8')) as { nodeOptions?: string; v8Flags?: string | null; mallocArenaMax?: number | null };
  const nodeFlags = (process.env.SCALE_BENCH_NODE_OPTIONS ?? values.nodeOptions ?? '').split(/\s+/).filter(Boolean);
  // Applied by the child itself at start, as the operator's main does (RAYJOB_V8_FLAGS: node refuses them in NODE_OPTIONS).
  const v8Flags = process.env.SCALE_BENCH_V8_FLAGS ?? values.v8Flags ?? '';
  const arenas = process.env.SCALE_BENCH_MALLOC_ARENA_MAX ?? (values.mallocArenaMax == null ? undefined : String(values.mallocArenaMax));
  const env: Record<string, string> = { RAYJOB_V8_FLAGS: v8Flags, ...(arenas && { MALLOC_ARENA_MAX: arenas }) };
  return { nodeFlags, env, shown: `NODE_OPTIONS=${JSON.stringify(nodeFlags.join(' '))} RAYJOB_V8_FLAGS=${JSON.stringify(v8Flags)} MALLOC_ARENA_MAX=${arenas ?? '(glibc default)'}` };
}

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
const bytes = (n: number): string => `${Math.round(n).toLocaleString('en-US')} B`;

console.log(`operator scale bench (synthetic mode: no kubelet, no Job controller, head pods marked Running/Ready by a bench writer, one Ray emulator on ${DASHBOARD_IP}:8265 for every cluster; see the header of apps/operator/bench/scale.ts)`);
console.log(`operator client rate limit: ${QPS === 'unlimited' ? 'none (--qps unlimited, as the figures before #27 were measured)' : `--qps ${QPS} --burst ${2 * Number(QPS)} (the chart's default is 100/200; --qps unlimited compares with the figures before #27)`}`);
console.log(`operator runtime settings (the chart's defaults; SCALE_BENCH_NODE_OPTIONS / SCALE_BENCH_V8_FLAGS / SCALE_BENCH_MALLOC_ARENA_MAX override): ${CHART_RUNTIME.shown}`);
console.log('note: numbers on a shared, loaded 2-core machine vary run to run; compare each to the anchor beside it.\n');

type Row = string[];
const rows: Row[] = [['scenario', 'RayJobs', 'seconds', 'RayJobs/s', 'before #27 (no rate limit)', 'rayjob reconciles', 'reconciles/s', 'wall time per reconcile (RayJob structuredClones)', 'operator RSS', 'heap', 'informer-only RSS', 'RSS vs informer-only', 'RSS vs idle node']];
const notes: string[] = [];
const names: string[] = [];
const kindTables: Row[][] = [];
const memory: string[] = [];
let lastRss: [number, number] = [0, 0];
for (const size of SIZES) {
  // A: the missing RayJobs to Running, with the operator resyncing the ones already there.
  const op = await forkChild('operator');
  const tA = performance.now();
  const first = names.length;
  while (names.length < size) names.push(`live-${String(names.length).padStart(5, '0')}`);
  await pool(size - first, 16, (i) => post('/apis/ray.io/v1/namespaces/default/rayjobs', rayJob(names[first + i] as string)));
  const createdS = (performance.now() - tA) / 1000;
  // A line a minute, so a run cut short still says how far it got.
  const progress = setInterval(() => {
    const running = names.filter((n) => watch.seenAt(n, 'Running') !== undefined).length;
    console.log(`  size ${size}: ${running}/${size} Running after ${((performance.now() - tA) / 1000).toFixed(0)} s (load average ${loadavg()[0]?.toFixed(1)})`);
  }, 60_000);
  await until(`${size} RayJobs Running`, () => names.every((n) => watch.seenAt(n, 'Running') !== undefined), 1_500_000).finally(() => clearInterval(progress));
  const aSeconds = (performance.now() - tA) / 1000;
  const aReconciles = await metric(op, 'controller_runtime_reconcile_total', 'rayjob');
  const aClusterReconciles = await metric(op, 'controller_runtime_reconcile_total', 'raycluster');
  const aStats = await op.stats();
  console.log(`  size ${size} A: operator RSS ${mb(aStats.rss)} (${kb(aStats.rss / size)} per RayJob), CPU ${aStats.cpuSeconds.toFixed(1)} s (${((aStats.cpuSeconds * 1000) / (size - first)).toFixed(1)} ms per new RayJob); where it is: ${parts(aStats)}`);
  // A heap snapshot of the operator at the end of A, to see what its heap holds (SCALE_BENCH_SNAPSHOT_DIR=dir).
  const snapshotDir = process.env.SCALE_BENCH_SNAPSHOT_DIR;
  if (snapshotDir) {
    const written = await new Promise((resolve) => {
      op.proc.once('message', (m) => resolve((m as { path: string }).path));
      op.proc.send({ type: 'snapshot', path: join(snapshotDir, `operator-${size}.heapsnapshot`) });
    });
    console.log(`  size ${size} A: heap snapshot ${String(written)}`);
  }
  await op.stop();
  const trimmed = await informersOnly('informers');
  const whole = await informersOnly('informers-whole');
  const informerOnly = trimmed.rss;
  notes.push(`size ${size}: ${size - first} RayJobs created in ${createdS.toFixed(1)} s (16 at a time), all ${size} Running after ${aSeconds.toFixed(1)} s; head pods marked by the synthetic node so far: ${node.marked}`);
  rows.push([`A: create -> Running (${size - first} new)`, String(size), aSeconds.toFixed(1), ((size - first) / aSeconds).toFixed(1), `${CREATE_RATE_BEFORE}/s (now ${ratio((size - first) / aSeconds, CREATE_RATE_BEFORE)})`, `${aReconciles} (+${aClusterReconciles} raycluster)`, ((aReconciles + aClusterReconciles) / aSeconds).toFixed(1), perReconcile((aReconciles + aClusterReconciles) / aSeconds), mb(aStats.rss), mb(aStats.heapUsed), mb(informerOnly), ratio(aStats.rss, informerOnly), ratio(aStats.rss, idleRss)]);

  // B: restart over all of them.
  const b = await resync(size);
  const bStats = await b.op.stats();
  const bRequests = await apiRequests(b.op);
  // CPU: the operator child's own, module loading included (what a resync costs, comparable on a loaded machine).
  console.log(`  size ${size} B: resync ${b.seconds.toFixed(1)} s, operator CPU ${bStats.cpuSeconds.toFixed(1)} s from start; API requests ${bRequests}; operator RSS ${mb(bStats.rss)} (${kb(bStats.rss / size)} per RayJob); where it is: ${parts(bStats)}`);
  await b.op.stop();
  const resyncBefore = RESYNC_SECONDS_BEFORE[size];
  rows.push([`B: restart, resync`, String(size), b.seconds.toFixed(1), (size / b.seconds).toFixed(1), resyncBefore ? `${resyncBefore} s (now ${ratio(b.seconds, resyncBefore)})` : `${RESYNC_SECONDS_BEFORE[10000]} s at 10,000`, String(b.reconciles), (b.reconciles / b.seconds).toFixed(1), perReconcile(b.reconciles / b.seconds), mb(bStats.rss), mb(bStats.heapUsed), mb(informerOnly), ratio(bStats.rss, informerOnly), ratio(bStats.rss, idleRss)]);
  // Each size's rows as soon as they are measured (the next size may take long on a loaded machine).
  console.log(`${notes.at(-1) ?? ''} (load average ${loadavg().map((l) => l.toFixed(1)).join(' ')})`);
  table([rows[0] as Row, ...rows.slice(-2)]);
  const kindRows: Row[] = [['cached kind', 'objects', 'bytes/object (trimmed)', 'bytes/object (whole, before #27)', 'trimmed vs whole']];
  for (const t of trimmed.kinds) {
    const w = whole.kinds.find((k) => k.kind === t.kind);
    kindRows.push([t.kind, String(t.count), t.count ? bytes(t.bytes) : 'n/a', w?.count ? bytes(w.bytes) : 'n/a', t.count && w?.count ? ratio(t.bytes, w.bytes) : 'n/a']);
  }
  kindRows.push(['informers-only RSS', '', mb(trimmed.rss), mb(whole.rss), ratio(trimmed.rss, whole.rss)]);
  table(kindRows);
  kindTables.push(kindRows);
  const rss = Math.max(aStats.rss, bStats.rss);
  const before = RSS_BEFORE[size];
  memory.push(`size ${size}: operator RSS ${mb(rss)} (max of A and B), ${kb(rss / size)} per RayJob; goal <= ${mb(RSS_GOAL)} at 10,000: ${size >= 10_000 ? (rss <= RSS_GOAL ? 'met' : 'NOT met') : `${ratio(rss, RSS_GOAL)} of it`}; ` +
    `before issue 27 ${before ? `${mb(before)} (now ${ratio(rss, before)})` : 'not measured at this size'}; idle node ${mb(idleRss)} (${ratio(rss, idleRss)})`);
  if (memory.length > 1) {
    const [prevSize, prevRss] = lastRss;
    memory.push(`  marginal: ${kb((rss - prevRss) / (size - prevSize))} of RSS per extra RayJob from ${prevSize} to ${size}`);
  }
  lastRss = [size, rss];
  console.log(memory.filter((l) => l.startsWith(`size ${size}:`) || l.includes(`to ${size}`)).join('\n'));
  console.log('');
}

console.log(`anchors: idle node RSS ${mb(idleRss)}; structuredClone of one RayJob ${Math.round(cloneRate).toLocaleString('en-US')}/s in this process; load average at the end ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
for (const n of notes) console.log(n);
console.log('');
table(rows);
console.log('');
for (const line of memory) console.log(line);
const lastKinds = kindTables.at(-1);
if (lastKinds) {
  console.log(`\nbytes per cached object at ${SIZES.at(-1)} RayJobs:`);
  table(lastKinds);
}

watch.stop();
node.stop();
await sandbox.stop();
await emulator.stop();
console.log(`\nbench took ${((Date.now() - started) / 1000).toFixed(0)} s`);
