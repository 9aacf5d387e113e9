// Benchmark (not a test) of the operator on the sandbox, each number beside an anchor measured in the same run:
//   1. detection lag: Ray's end_time of a job -> the RayJob's terminal status seen by a watch, p50/p99, in
//      K8sJobMode and HTTPMode; anchor: a simulated KubeRay 3 s poller (GET /api/jobs/<id> every 3 s, random
//      phase) run on the same jobs at the same time, its lag measured against the same end_time;
//   2. API requests per RayJob lifecycle by verb/resource (a counting proxy between the operator and the API
//      server), with no-op writes flagged (an update/patch after which the object is unchanged but for its
//      resourceVersion); anchor: the minimum writes the lifecycle needs (listed in the output);
//   3. dashboard requests per running job per minute over a steady window (counting proxies between the operator
//      and each head pod, reached through a wrapped cluster-DNS lookup); anchor: the simulated 3 s poller on the
//      same jobs over the same window (KubeRay: 20/min).
// The operator runs in this process with every registered controller (our RayCluster controller turns clusters
// into pods); the kubelet runs Ray heads as the Ray emulator and submitters as our submitter, as real processes.
// Probe timings are scaled by 0.2 (KubeRay's readiness delays), which only shortens cluster start-up.
//   node apps/operator/bench/lifecycle.ts [--jobs 12] [--concurrency 4] [--running 3] [--window 60]
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createLogger } from '@rayjob/kube-runtime';
import { kubeconfigYaml, startSandbox } from '@rayjob/sandbox';
import { loadConfig } from '../src/config/config.ts';
import { RAY_CRDS, sandboxImages } from '../test/support/sandbox-images.ts';
import { startOperator } from '../src/operator.ts';
import { analyse, isWrite, type WriteAnalysis } from './support/api-writes.ts';
import { startCountingProxy } from './support/counting-proxy.ts';
import { createDashboardProxies } from './support/dashboard-proxies.ts';
import { startKubeRayPoller, type Poller } from './support/kuberay-poller.ts';
import { watchRayJobs, type Json } from './support/rayjob-watch.ts';
import { ms, percentile, ratio, table } from './support/stats.ts';
import { eventually } from '@rayjob/test-support';

const { values: opts } = parseArgs({
  options: {
    jobs: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '4' },
    running: { type: 'string', default: '3' },
    window: { type: 'string', default: '60' },
  },
});
const JOBS = Number(opts.jobs);
const CONCURRENCY = Number(opts.concurrency);
const RUNNING = Number(opts.running);
const WINDOW_S = Number(opts.window);
const RAY_IMAGE = 'rayproject/ray:2.58.0';
const MODES = ['K8sJobMode', 'HTTPMode'] as const;
const started = Date.now();

const sandbox = await startSandbox({ crds: RAY_CRDS, images: sandboxImages(), node: { timing: { probeTimeScale: 0.2 } } });
const node = sandbox.node;
if (!node) throw new Error('the sandbox has no node');
const target = new URL(sandbox.url);
const apiProxy = await startCountingProxy({
  target: { host: target.hostname, port: Number(target.port) },
  // The object as it was just before an update/patch, read straight from the API server (for no-op detection).
  beforeWrite: async (_method, path) => {
    const objectPath = path.split('?')[0]?.replace(/\/status$/, '') ?? path;
    const res = await fetch(`${sandbox.url}${objectPath}`);
    return res.ok ? await res.json() : undefined;
  },
});
const kubeconfig = join(sandbox.dir, 'bench-operator-kubeconfig');
await writeFile(kubeconfig, kubeconfigYaml(apiProxy.url), { mode: 0o600 });
const dashboards = createDashboardProxies(node.lookup);
const loaded = loadConfig(['--enable-leader-election=false', '--metrics-addr=0', '--health-probe-bind-address=0', '--kubeconfig', kubeconfig], {});
if (loaded.ok !== true) throw new Error(`bad operator flags: ${JSON.stringify(loaded)}`);
const operator = await startOperator({ config: loaded.config, dashboardLookup: dashboards.lookup, logger: createLogger({ level: process.env.OPERATOR_BENCH_LOG ?? 'silent' }) });
const watch = watchRayJobs(sandbox.url);

const manifest = (name: string, mode: string, entrypoint: string): Json => ({
  apiVersion: 'ray.io/v1',
  kind: 'RayJob',
  metadata: { name, namespace: 'default' },
  spec: {
    submissionMode: mode,
    entrypoint,
    shutdownAfterJobFinishes: true,
    // Keeps the cluster 5 s after the end so the simulated poller can still reach it (KubeRay's default is 0).
    ttlSecondsAfterFinished: 5,
    rayClusterSpec: {
      rayVersion: '2.58.0',
      headGroupSpec: { rayStartParams: {}, template: { spec: { containers: [{ name: 'ray-head', image: RAY_IMAGE, ports: [{ name: 'dashboard', containerPort: 8265 }] }] } } },
    },
  },
});

async function direct(method: string, path: string, body?: unknown, attempt = 1): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${sandbox.url}${path}`, { method, ...(body !== undefined && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) })
    .catch(async (e: unknown) => {
      // A reused keep-alive connection reset on a loaded machine: try again (a retried create may answer 409).
      if (attempt >= 5) throw e;
      await new Promise((r) => setTimeout(r, 200 * attempt));
      return undefined;
    });
  if (!res) return direct(method, path, body, attempt + 1);
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : undefined };
}

const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> => {
  await eventually(check, { what, withinMs: timeoutMs, everyMs: 100, retryErrors: false });
};

const isTerminal = (j: Json): boolean => ['Complete', 'Failed'].includes(j.status?.jobDeploymentStatus);
const runningWithJob = (j: Json): boolean => j.status?.jobDeploymentStatus === 'Running' && Boolean(j.status?.jobId) && Boolean(j.status?.dashboardURL);

interface Lifecycle { ours?: number; kuberay?: number; status: string; submitter?: SubmitterTimes }

/** K8sJobMode: when the submitter container exited and the Job got Complete (the API's second precision). */
interface SubmitterTimes { exited?: number; jobComplete?: number }

async function submitterTimes(name: string): Promise<SubmitterTimes> {
  const job = (await direct('GET', `/apis/batch/v1/namespaces/default/jobs/${name}`)).body;
  const complete = (job?.status?.conditions ?? []).find((c: Json) => c.type === 'Complete' && c.status === 'True');
  const pods = (await direct('GET', `/api/v1/namespaces/default/pods?labelSelector=${encodeURIComponent(`job-name=${name}`)}`)).body?.items ?? [];
  const finished = pods.flatMap((p: Json) => (p.status?.containerStatuses ?? []).map((c: Json) => c.state?.terminated?.finishedAt).filter(Boolean)) as string[];
  return {
    ...(complete?.lastTransitionTime && { jobComplete: Date.parse(complete.lastTransitionTime) }),
    ...(finished.length && { exited: Math.max(...finished.map((f) => Date.parse(f))) }),
  };
}

/** One RayJob from create to its cluster deleted by the operator, with the simulated poller beside it. */
async function lifecycle(name: string, mode: string): Promise<Lifecycle> {
  const created = await direct('POST', '/apis/ray.io/v1/namespaces/default/rayjobs', manifest(name, mode, 'sleep 2; echo done'));
  if (created.status !== 201 && created.status !== 409) throw new Error(`create ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  const running = await watch.until(name, 'Running with a jobId', (j) => runningWithJob(j) || isTerminal(j), 180_000);
  const poller: Poller | undefined = runningWithJob(running) ? startKubeRayPoller(running.status.dashboardURL, running.status.jobId, node!.lookup) : undefined;
  const done = await watch.until(name, 'terminal', isTerminal, 180_000);
  const polled = poller ? await Promise.race([poller.done, new Promise<undefined>((r) => setTimeout(() => r(undefined), 20_000))]) : undefined;
  poller?.stop();
  const ourSeen = watch.seenAt(name, done.status.jobDeploymentStatus);
  const end = polled?.endTime;
  const submitter = mode === 'K8sJobMode' ? await submitterTimes(name) : undefined;
  const cluster = done.status.rayClusterName as string;
  await until(`the operator to delete RayCluster ${cluster}`, async () => (await direct('GET', `/apis/ray.io/v1/namespaces/default/rayclusters/${cluster}`)).status === 404, 60_000);
  await direct('DELETE', `/apis/ray.io/v1/namespaces/default/rayjobs/${name}`);
  return {
    status: `${done.status.jobDeploymentStatus}/${done.status.jobStatus}`,
    ...(submitter && end !== undefined && { submitter: { ...(submitter.exited && { exited: submitter.exited - end }), ...(submitter.jobComplete && { jobComplete: submitter.jobComplete - end }) } }),
    ...(end !== undefined && ourSeen !== undefined && { ours: ourSeen - end }),
    ...(end !== undefined && polled?.seenAt !== undefined && { kuberay: polled.seenAt - end }),
  };
}

/** Run-specific names to their shape: `k8s-003` -> `<rayjob>`, its cluster and submission IDs -> `<rayjob>-xxxxx`. */
const generalizeNames = (text: string): string => text.replace(/\b(?:k8s|http)-\d{3}(-[a-z0-9]{5})?\b/g, (_m, suffix?: string) => (suffix ? '<rayjob>-xxxxx' : '<rayjob>'));

async function pool<T>(count: number, width: number, run: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(width, count) }, async () => {
    while (next < count) {
      const i = next++;
      out[i] = await run(i);
    }
  }));
  return out;
}

console.log(`operator lifecycle bench: ${JOBS} RayJobs per mode (${CONCURRENCY} at a time), steady window ${WINDOW_S} s over ${RUNNING} running jobs per mode`);
console.log('note: numbers on a shared, loaded 2-core machine vary run to run; compare each to the anchor beside it.\n');

const breakdown: string[] = [];
const writeReports: Array<{ mode: string; analysis: ReturnType<typeof analyse> }> = [];
const lagRows: string[][] = [['mode', 'jobs', 'ours p50', 'ours p99', 'KubeRay 3 s poll p50', 'p99', 'ours/anchor p50', 'p99']];
for (const mode of MODES) {
  const mark = apiProxy.requests.length;
  const prefix = mode === 'K8sJobMode' ? 'k8s' : 'http';
  const results = await pool(JOBS, CONCURRENCY, (i) => lifecycle(`${prefix}-${String(i).padStart(3, '0')}`, mode));
  const bad = results.filter((r) => r.status !== 'Complete/SUCCEEDED');
  if (bad.length) console.log(`${mode}: ${bad.length} job(s) did not complete: ${bad.map((b) => b.status).join(', ')}`);
  const ours = results.flatMap((r) => (r.ours === undefined ? [] : [r.ours]));
  const anchor = results.flatMap((r) => (r.kuberay === undefined ? [] : [r.kuberay]));
  lagRows.push([mode, `${ours.length}/${JOBS}`, ms(percentile(ours, 50)), ms(percentile(ours, 99)), ms(percentile(anchor, 50)), ms(percentile(anchor, 99)), ratio(percentile(ours, 50), percentile(anchor, 50)), ratio(percentile(ours, 99), percentile(anchor, 99))]);
  writeReports.push({ mode, analysis: analyse(apiProxy.requests.slice(mark), generalizeNames) });
  const exited = results.flatMap((r) => (r.submitter?.exited === undefined ? [] : [r.submitter.exited]));
  const jobComplete = results.flatMap((r) => (r.submitter?.jobComplete === undefined ? [] : [r.submitter.jobComplete]));
  if (exited.length || jobComplete.length) {
    breakdown.push(`${mode}: after Ray's end_time, p50: submitter container exited +${ms(percentile(exited, 50))}, submitter Job Complete +${ms(percentile(jobComplete, 50))}, RayJob terminal +${ms(percentile(ours, 50))} (container and Job times have 1 s precision)`);
  }
}

console.log('1. detection lag: Ray end_time -> RayJob terminal status (a watch on the API server sees it)');
table(lagRows);
for (const line of breakdown) console.log(`  ${line}`);

console.log(`\n2. API requests per RayJob lifecycle (operator -> API server, through a counting proxy; ${JOBS} lifecycles per mode)`);
for (const { mode, analysis } of writeReports) {
  const per = (n: number): string => (n / JOBS).toFixed(2);
  console.log(`${mode}: writes ${per(analysis.writes)} per RayJob (failed ${per(analysis.failed)}), reads ${per(analysis.reads)}, no-op writes ${per(analysis.noOps.length)}, RayJob status writes of a new Ray status while Running ${per(analysis.rayStatusWrites)}`);
  table([['  verb resource', 'per RayJob'], ...[...analysis.byKind].sort().map(([k, n]) => [`  ${k}`, per(n)])]);
  console.log('  updates/patches by what they changed (per RayJob):');
  table([...analysis.changes].sort().map(([k, n]) => [`    ${k}`, per(n)]));
  if (analysis.failures.size) console.log(`  failed writes (total): ${[...analysis.failures].map(([k, n]) => `${k} x${n}`).join('; ')}`);
  for (const n of analysis.noOps.slice(0, 3)) console.log(`  NO-OP WRITE: ${n.kind} ${n.path.split('?')[0]} body ${n.body.slice(0, 200)}`);
}
// The minimum is KubeRay's own sequence at its leanest (facts: /work/shared/docs/reference/kuberay-rayjob.md and
// kuberay-raycluster.md), plus the writes this operator adds on purpose (docs/compatibility.md). It used to list 8+3 /
// 7+3, which KubeRay's own sequence cannot reach: it leaves out the RayJob head Service that KubeRay's RayJob
// controller creates in every Running pass outside clusterSelector mode (kuberay-rayjob.md 2.3 Running step 6, 3.5),
// the RayCluster status the RayCluster controller writes on its first pass before the head pod is ready (its
// conditions appear then; kuberay-raycluster.md 9.3, 9.4) and the RayJob status write that mirrors it (kuberay-
// rayjob.md 2.2: a RayClusterStatus change is a write trigger; Initializing step 6 copies it while the cluster is not
// ready). It also left out one write of ours: in K8sJobMode KubeRay computes the dashboard URL, creates the submitter
// Job and sets Running in one pass, one status write (2.3 Initializing steps 6, 8, 9); this operator persists the URL
// before it creates the Job that embeds it and writes Running once the Job is seen, so Running always means the
// submitter exists (compatibility B3): one write more. Not in the minimum: the Ray statuses a look sees while the
// RayJob is Running (PENDING, RUNNING, a terminal status before the submitter exits), one write each here as in
// KubeRay (2.2: a jobStatus change is a write trigger); how many a run sees depends on timing, so the bench counts
// them beside the minimum ("Ray statuses seen").
console.log(`anchor (minimum writes of one lifecycle, shutdownAfterJobFinishes; KubeRay's own sequence at its leanest):
  RayJob controller: patch rayjobs 2 (finalizer added; removed once the RayJob is deleted: KubeRay has the same
    finalizer), create rayclusters 1, create jobs 1 (K8sJobMode only), create services 1 (the RayJob head Service,
    kuberay-rayjob.md 3.5), update rayjobs/status 4 (Initializing; the mirror of the cluster's first status, 2.2;
    Running with the dashboard URL and the ready cluster's status; Complete with endTime), delete rayclusters 1
    => K8sJobMode 10, HTTPMode 9
  RayCluster controller: create pods 1 (head), create services 1 (head svc), update rayclusters/status 2 (its first
    pass, not ready; ready: KubeRay also writes the head pod's IP and each HeadPodReady reason on the way, 9.4, which
    this operator carries in the ready write, compatibility B5) => 4
  this operator's additions (docs/compatibility.md): K8sJobMode create + patch configmaps 2 (the submitter-state
    ConfigMap: the head's IP before the first submitter Job, H8-2; the attach-only mark once Ray reported the job,
    row 47) and update rayjobs/status 1 (the dashboard URL before the submitter Job, Running once it is seen, B3);
    HTTPMode update rayjobs/status 1 (PENDING recorded with the accepted submission, H8-1)
  besides the minimum: update rayjobs/status 1 per Ray status seen while Running (not counting H8-1's PENDING)
  events (create events): one per KubeRay event reason emitted; not counted in the minimum`);
const MINIMUM_WRITES: Record<string, number> = { K8sJobMode: 10 + 4 + 3, HTTPMode: 9 + 4 + 1 };
/** Ray statuses seen while Running, per RayJob: HTTPMode's first one is the accepted submission's PENDING (listed). */
const raySightings = (mode: string, a: WriteAnalysis): number => Math.max(0, a.rayStatusWrites / JOBS - (mode === 'HTTPMode' ? 1 : 0));
/** Writes other than events, per RayJob (the minimum above does not count events). */
const writesBesidesEvents = (a: WriteAnalysis): number =>
  [...a.byKind].reduce((n, [kind, count]) => {
    const [verb = '', resource = ''] = kind.split(' ');
    return isWrite(verb) && resource !== 'events' ? n + count : n;
  }, 0) / JOBS;

// 3. steady window: long jobs, both modes at once.
const steady = MODES.flatMap((mode) => Array.from({ length: RUNNING }, (_, i) => ({ mode, name: `steady-${mode === 'K8sJobMode' ? 'k8s' : 'http'}-${i}` })));
for (const s of steady) {
  const r = await direct('POST', '/apis/ray.io/v1/namespaces/default/rayjobs', manifest(s.name, s.mode, 'sleep 100000'));
  if (r.status !== 201) throw new Error(`create ${s.name}: ${r.status}`);
}
const runningJobs = await Promise.all(steady.map((s) => watch.until(s.name, 'Running with a jobId', runningWithJob, 240_000)));
// Let start-up traffic (submission, first status reads, tail opens) settle before the window opens.
await new Promise((r) => setTimeout(r, 10_000));
const clusters = (await direct('GET', '/apis/ray.io/v1/namespaces/default/rayclusters')).body.items as Json[];
const ipOf = new Map(clusters.map((c) => [c.metadata.name as string, c.status?.head?.podIP as string | undefined]));
const countFor = (ip: string | undefined): number => (ip ? dashboards.byTarget.get(ip)?.requests.length ?? 0 : 0);
const before = runningJobs.map((j) => countFor(ipOf.get(j.status.rayClusterName)));
const pollers = runningJobs.map((j) => startKubeRayPoller(j.status.dashboardURL, j.status.jobId, node.lookup));
const windowStart = Date.now();
await new Promise((r) => setTimeout(r, WINDOW_S * 1000));
const minutes = (Date.now() - windowStart) / 60_000;
for (const p of pollers) p.stop();
const dashRows: string[][] = [['mode', 'jobs', 'ours /job/min', 'KubeRay 3 s poll /job/min', 'ours/anchor', 'goal']];
for (const mode of MODES) {
  const idx = steady.flatMap((s, i) => (s.mode === mode ? [i] : []));
  const ours = idx.reduce((n, i) => n + countFor(ipOf.get(runningJobs[i].status.rayClusterName)) - (before[i] ?? 0), 0) / idx.length / minutes;
  const anchor = idx.reduce((n, i) => n + (pollers[i]?.result.requests ?? 0), 0) / idx.length / minutes;
  dashRows.push([mode, String(idx.length), ours.toFixed(2), anchor.toFixed(2), ratio(ours, anchor), '<= 2']);
}
console.log(`\n3. dashboard requests per running job per minute (operator -> head pod through counting proxies; window ${(minutes * 60).toFixed(0)} s; a WebSocket log tail opened counts as 1)`);
table(dashRows);
const windowPaths = new Map<string, number>();
for (const p of dashboards.byTarget.values()) {
  for (const r of p.requests) {
    if (r.at < windowStart) continue;
    const key = `${r.upgrade ? 'WS ' : ''}${r.method} ${r.path.split('?')[0]?.replace(/\/api\/jobs\/[^/]+/, '/api/jobs/<id>')}`;
    windowPaths.set(key, (windowPaths.get(key) ?? 0) + 1);
  }
}
console.log(`  operator dashboard requests in the window by route (all ${steady.length} jobs): ${[...windowPaths].map(([k, n]) => `${k} x${n}`).join('; ') || 'none'}`);

// The figures of #27 side by side: ours, the goal, KubeRay's (facts: performance.md B4 and B9, kuberay-rayjob.md §2.2).
const summary: string[][] = [['figure', 'mode', 'ours', 'goal', 'KubeRay']];
for (const { mode, analysis } of writeReports) {
  const seen = raySightings(mode, analysis);
  summary.push(['API writes per RayJob (events aside)', mode, writesBesidesEvents(analysis).toFixed(2), `${MINIMUM_WRITES[mode]} (the minimum listed) + ${seen.toFixed(2)} Ray statuses seen = ${((MINIMUM_WRITES[mode] ?? 0) + seen).toFixed(2)}`, '~18-26 (code read: RayJob 10-14 + RayCluster 8-12)']);
  summary.push(['no-op writes per RayJob', mode, (analysis.noOps.length / JOBS).toFixed(2), '0', 'status written only on a change (kuberay-rayjob.md 2.2)']);
}
for (const row of dashRows.slice(1)) summary.push(['dashboard requests per running job per minute', row[0] ?? '', row[2] ?? '', '<= 2', `>= 20 (3 s poll; simulated here: ${row[3] ?? ''})`]);
console.log('\nsummary (#27: status writes and requests)');
table(summary);

watch.stop();
await operator.stop();
await dashboards.stop();
await apiProxy.stop();
await sandbox.stop();
console.log(`\nbench took ${((Date.now() - started) / 1000).toFixed(0)} s`);
