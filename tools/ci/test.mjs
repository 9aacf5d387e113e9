#!/usr/bin/env node
// `npm test`: every workspace project's Vitest suite, in lanes that run side by side (one Vitest run after another
// within a lane). Within a project Vitest keeps its own layout (workers, alone groups, the operator's whole-suite
// RBAC check). Real Ray nodes start one at a time machine-wide (the Ray start lock), and real-Ray files take one of the
// real-Ray slot's places (RAYJOB_REAL_RAY_SLOTS, default 2) across lanes (tools/ci/real-ray-slot.mjs, README.md). Lanes are planned on measured CPU and wall seconds (tools/ci/README.md): e2e and
// then the operator in one lane; in the second, e2e's real-Ray file as a run of its own, the projects that hold
// the real-Ray slot most, every other project (a new one too, with no edit here) shortest first, and last e2e's
// fault campaign as a run of its own.
//   npm test                     all projects
//   npm test -- @rayjob/core ... only these projects (same lanes)
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { rayStartLockDir, rayStartLogPath } from '@rayjob/test-support';

const root = join(import.meta.dirname, '..', '..');

/** Wall seconds of each run on a quiet 2-core machine (clean CI 2026-12-06, lanes as below; e2e's real-Ray file apart). */
export const plannedSeconds = {
  '@rayjob/e2e': 440, '@rayjob/e2e real-ray.test.ts': 250, '@rayjob/e2e campaign.test.ts': 90, '@rayjob/operator': 640, '@rayjob/ray-conformance': 185,
  '@rayjob/sandbox': 300, '@rayjob/submitter': 120, '@rayjob/kube-runtime': 47, '@rayjob/oci-image': 48,
  '@rayjob/core': 46, '@rayjob/ray-emulator': 19, '@rayjob/ray-client': 24, '@rayjob/test-support': 14, '@rayjob/kube-model': 5,
};
/**
 * The two heavy projects: e2e keeps ~1 core busy, the operator (two workers) ~1.5, and both assert wall-clock
 * bounds (lease renewals, detection lags), so by default they run one after the other in the first lane and
 * everything else goes beside them. RAYJOB_TEST_LANES=split gives each its own lane, for machines with more cores.
 */
// e2e first: it keeps about one core busy (one file at a time), so lane 2 fills the second core beside it. The other
// order left the second core idle for all of e2e (clean CI 2026-12-06: operator 951 s with company, e2e 692 s alone).
const heavy = ['@rayjob/e2e', '@rayjob/operator'];
/**
 * Files that run as a Vitest run of their own in the second lane instead of inside their project (lane 1, e2e then
 * the operator, decides the run's length; ~1424 s against lane 2's ~807 s in the last clean CI):
 * - at the head of lane 2, e2e's real-Ray file (~250 s, a real head per case, ~1 core): it takes the real-Ray slot
 *   first and runs beside e2e's other files, where lane 2's projects ran before (the same load);
 * - at the tail of lane 2, e2e's fault campaign (~90 s, ~0.6 core): by then e2e's other files are long done (two
 *   CPU-bound e2e files side by side were once flaky), and it runs beside the operator as lane 2's projects do.
 * None of the operator's files can move: its least-privilege RBAC check judges the whole suite in one Vitest run.
 */
export const ownRuns = {
  '@rayjob/e2e': [{ file: 'test/real-ray.test.ts', at: 'head' }, { file: 'test/campaign.test.ts', at: 'tail' }],
};
/**
 * Lane 2 projects whose files hold the real-Ray slot for much of their run: next after the own runs, so their real
 * heads are done, or nearly, before the operator (second in lane 1) reaches its own real-Ray files, and run beside
 * e2e's other files (~1 core) rather than beside the operator (~1.5 cores). With the slot's one place the operator's
 * real-Ray files still waited up to 287 s on lane 2's (clean CI 2026-12-06 14:00), and 225 s once the suites' CPU was
 * cut (18:42); the slot's default 2 places let a lane 2 file and one of the operator's run at once, their Ray nodes
 * starting one at a time (the Ray start lock).
 * The rest of lane 2 follows, shortest first.
 */
const realRayEarly = ['@rayjob/ray-conformance', '@rayjob/submitter'];
const unknownSeconds = 60;
/**
 * One V8 compile cache for every node process of the run (Vitest's workers, the operators and CLIs the tests start,
 * and the sandbox's pods running our images, which get it from @rayjob/sandbox's defaultImages): hundreds of pods
 * start the Ray emulator and the submitter from the same sources, and each start costs about half the CPU with the
 * cache. Outside /tmp, because every sandbox pod has a /tmp of its own. Only CPU changes, never what runs.
 */
const compileCache = process.env.NODE_COMPILE_CACHE ?? join(root, 'node_modules', '.cache', 'node-compile-cache');
const seconds = (name) => plannedSeconds[name] ?? unknownSeconds;

function workspaceProjects() {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dirs = workspaces.flatMap((w) => (w.endsWith('/*') ? readdirSync(join(root, w.slice(0, -2))).map((d) => join(w.slice(0, -2), d)) : [w]));
  return dirs
    .filter((d) => existsSync(join(root, d, 'vitest.config.ts')) && existsSync(join(root, d, 'package.json')))
    .map((d) => ({ dir: d, name: JSON.parse(readFileSync(join(root, d, 'package.json'), 'utf8')).name }));
}

/**
 * The Vitest runs of the projects: one per project, except that each file in ownRuns is a run of its own (named
 * "<project> <file name>") and the project's run excludes it.
 */
export function runsOf(projects) {
  return projects.flatMap((p) => {
    const own = ownRuns[p.name] ?? [];
    const rest = { ...p, args: own.flatMap((o) => ['--exclude', o.file]) };
    return [rest, ...own.map((o) => ({ ...p, name: `${p.name} ${o.file.split('/').pop()}`, args: [o.file], at: o.at, project: p.name }))];
  });
}

/**
 * Lanes of runs: the heavy projects' runs (together, or one lane each when split), then one lane for the rest: the
 * own runs for the head, the real-Ray-early projects, the others shortest first, the own runs for the tail. A tail
 * run that lane 2 would reach (by planned seconds) before its project's other files are done (`npm test --
 * @rayjob/e2e` alone, say) runs after them in that project's lane instead.
 */
export function planLanes(runs, split = process.env.RAYJOB_TEST_LANES === 'split') {
  const names = runs.map((r) => r.name);
  const present = heavy.filter((h) => names.includes(h));
  const heavyLanes = split ? present.map((h) => [h]) : present.length > 0 ? [present] : [];
  const rank = (r) => (r.at === 'head' ? 0 : r.at === 'tail' ? 3 : realRayEarly.includes(r.name) ? 1 + realRayEarly.indexOf(r.name) / 10 : 2);
  const rest = [];
  for (const run of runs.filter((r) => !heavy.includes(r.name)).sort((a, b) => rank(a) - rank(b) || seconds(a.name) - seconds(b.name))) {
    const lane = run.at === 'tail' ? heavyLanes.find((l) => l.includes(run.project)) : undefined;
    const before = (names) => names.slice(0, names.indexOf(run.project) + 1).reduce((t, n) => t + seconds(n), 0);
    if (lane && rest.reduce((t, n) => t + seconds(n), 0) < before(lane)) lane.splice(lane.indexOf(run.project) + 1, 0, run.name);
    else rest.push(run.name);
  }
  return [...heavyLanes, ...(rest.length > 0 ? [rest] : [])].map((lane) => ({ names: lane, seconds: lane.reduce((t, n) => t + seconds(n), 0) }));
}

function runProject(project) {
  const prefix = `${project.name}: `;
  const started = Date.now();
  process.stdout.write(`\n> ${project.name}: vitest run (${project.dir})\n`);
  return new Promise((resolve) => {
    // RAYJOB_TEST_MEASURE=1: each project in its own cpuacct cgroup, so its CPU seconds (child processes and
    // daemonized Ray included) are printed even while lanes overlap (tools/ci/measure.sh; root, cgroup v1).
    const vitest = [join(root, 'node_modules', '.bin', 'vitest'), 'run', ...project.args];
    const [cmd, ...args] = process.env.RAYJOB_TEST_MEASURE === '1' ? [join(root, 'tools', 'ci', 'measure.sh'), ...vitest] : vitest;
    const child = spawn(cmd, args, { cwd: join(root, project.dir), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_COMPILE_CACHE: compileCache } });
    for (const stream of [child.stdout, child.stderr]) {
      let partial = '';
      stream.setEncoding('utf8').on('data', (text) => {
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) process.stdout.write(prefix + line + '\n');
      });
      stream.on('end', () => partial && process.stdout.write(prefix + partial + '\n'));
    }
    child.on('error', (err) => { process.stdout.write(`${prefix}could not start vitest: ${err.message}\n`); resolve({ ...project, code: 1, seconds: 0 }); });
    child.on('close', (code, signal) => resolve({ ...project, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 }));
  });
}

/**
 * The run's real Ray node starts, from the Ray start lock's log (every start on the machine since `since`, other
 * users' included): how many, how each ended, and how long they waited for and held the lock.
 */
export function rayStartSummary(since, file = rayStartLogPath(rayStartLockDir())) {
  const pattern = /^(\S+) \[ray start lock\] .*: waited ([\d.]+) s, held ([\d.]+) s \((.*)\)$/;
  const starts = [`${file}.old`, file]
    .flatMap((f) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n') : []))
    .map((line) => pattern.exec(line))
    .filter((m) => m !== null && Date.parse(m[1]) >= since)
    .map((m) => ({ waited: Number(m[2]), held: Number(m[3]), outcome: m[4] }));
  if (starts.length === 0) return 'ray start lock: no real Ray node started';
  const outcomes = Object.entries(Object.groupBy(starts, (s) => s.outcome)).map(([o, list]) => `${list.length} ${o}`).join(', ');
  const sum = (key) => starts.reduce((t, s) => t + s[key], 0).toFixed(0);
  const longest = Math.max(...starts.map((s) => s.waited)).toFixed(0);
  return `ray start lock: ${starts.length} real Ray node starts (${outcomes}); waited ${sum('waited')} s in all (longest ${longest} s), held ${sum('held')} s (${file})`;
}

async function main() {
  const all = workspaceProjects();
  // Project names, or nx's --projects=a,b (what `npm test -- --projects=...` used to take).
  const wanted = process.argv.slice(2).flatMap((a) => (a.startsWith('--projects=') ? a.slice(11).split(',') : [a]));
  const unknown = wanted.filter((w) => !all.some((p) => p.name === w));
  if (unknown.length > 0) {
    process.stderr.write(`npm test: no project ${unknown.join(', ')} (projects: ${all.map((p) => p.name).join(', ')})\n`);
    process.exit(2);
  }
  const projects = wanted.length > 0 ? all.filter((p) => wanted.includes(p.name)) : all;
  const runs = runsOf(projects);
  const lanes = planLanes(runs);
  for (const [i, lane] of lanes.entries()) process.stdout.write(`lane ${i + 1} (~${lane.seconds} s alone): ${lane.names.join(', ')}\n`);
  const started = Date.now();
  const results = (await Promise.all(lanes.map(async (lane) => {
    const done = [];
    for (const name of lane.names) done.push(await runProject(runs.find((r) => r.name === name)));
    return done;
  }))).flat();
  process.stdout.write(`\n=== npm test: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  process.stdout.write(`${rayStartSummary(started)}\n`);
  for (const r of results) process.stdout.write(`${r.code === 0 ? 'ok    ' : 'FAILED'} ${r.name} ${r.seconds.toFixed(0)} s\n`);
  process.exit(results.every((r) => r.code === 0) ? 0 : 1);
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) await main();
