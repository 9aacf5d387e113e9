#!/usr/bin/env node
// `npm test`: every workspace project's Vitest suite, in two lanes that run side by side (one Vitest run after
// another within a lane). Within a project Vitest keeps its own layout (workers, alone groups, the operator's
// whole-suite RBAC check). Real Ray nodes start one at a time machine-wide (the Ray start lock), and real-Ray files
// take one of the real-Ray slot's places (RAYJOB_REAL_RAY_SLOTS, default 2) across lanes (tools/ci/real-ray-slot.mjs,
// README.md). Lane 1 runs e2e and then the operator; every other run waits in one queue, and a lane that is free takes
// the next one it may start (lane 2 from the beginning, lane 1 once the operator is done), so neither lane idles
// while the other has a queue behind it. The queue, planned on measured wall seconds (tools/ci/README.md): e2e's
// real-Ray file as a run of its own, the projects that hold the real-Ray slot most, then every other project
// (a new one too, with no edit here) longest first, e2e's fault campaign among them once e2e's other files are done.
//   npm test                     all projects
//   npm test -- @rayjob/core ... only these projects (same lanes)
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { rayStartLockDir, rayStartLogPath } from '@rayjob/test-support';

const root = join(import.meta.dirname, '..', '..');

/** Wall seconds of each run on a quiet 2-core machine (clean CI 2026-12-06 20:00, 643b1a7). */
export const plannedSeconds = {
  '@rayjob/e2e': 389, '@rayjob/e2e real-ray.test.ts': 233, '@rayjob/e2e campaign.test.ts': 95, '@rayjob/e2e submitter-image.test.ts': 65, '@rayjob/operator': 691, '@rayjob/ray-conformance': 196,
  '@rayjob/sandbox': 264, '@rayjob/submitter': 130, '@rayjob/kube-runtime': 38, '@rayjob/oci-image': 49,
  '@rayjob/core': 16, '@rayjob/ray-emulator': 20, '@rayjob/ray-client': 9, '@rayjob/test-support': 20, '@rayjob/kube-model': 8,
  '@rayjob/deadline-signal': 3,
};
/**
 * The two heavy projects: e2e and the operator both assert wall-clock bounds (lease renewals, detection lags) and
 * keep more than a core busy each, so by default they run one after the other in the first lane and everything
 * else goes beside them. RAYJOB_TEST_LANES=split gives each its own lane, for machines with more cores.
 */
// e2e first: it keeps about one core busy (one file at a time), and beside it lane 2 runs the real-Ray-heavy projects
// while the operator, which has real-Ray files of its own, has not started; the other order left the second core
// idle for all of e2e (clean CI 2026-12-06: operator 951 s with company, e2e 692 s alone).
const heavy = ['@rayjob/e2e', '@rayjob/operator'];
/**
 * Files that run as a Vitest run of their own in the queue instead of inside their project (lane 1, e2e then the
 * operator, is the longest chain):
 * - at the head of the queue, e2e's real-Ray file (~230 s, a real head per case, ~0.7 core): it takes the real-Ray
 *   slot first and runs beside e2e's other files;
 * - `after` its project: e2e's fault campaign (~95 s, ~0.5 core) and submitter image file (~65 s), only once e2e's
 *   other files are done (two CPU-bound e2e runs side by side were once flaky, and two e2e files at a time slowed
 *   the real-Ray runs beside them more than they gained: e2e/vitest.config.ts); until then a free lane takes the
 *   next run after them. Moving them out of lane 1 shortens its chain, and the queue evens the lanes' ends.
 * None of the operator's files can move: its least-privilege RBAC check judges the whole suite in one Vitest run.
 */
export const ownRuns = {
  '@rayjob/e2e': [
    { file: 'test/real-ray.test.ts', at: 'head' },
    { file: 'test/campaign.test.ts', at: 'after' },
    { file: 'test/submitter-image.test.ts', at: 'after' },
  ],
};
/**
 * Projects whose files hold the real-Ray slot for much of their run: first after the head runs, so their real heads
 * are done, or nearly, before the operator (second in lane 1) reaches its own real-Ray files, and they run beside
 * e2e rather than beside the operator. The slot's 2 places let one of them and one of the operator's files run at
 * once, their Ray nodes starting one at a time (the Ray start lock).
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
 * The plan: lanes that start with fixed runs (the heavy projects, together or one lane each when split; the last
 * lane starts empty), and one queue of every other run that a lane takes from once its fixed runs are done: the
 * head runs, the real-Ray-early projects, then the rest longest first (a free lane late in the run then takes a
 * short one, and both lanes end close together). A run with `at: 'after'` waits in the queue until its project's
 * own run is done.
 */
export function planLanes(runs, split = process.env.RAYJOB_TEST_LANES === 'split') {
  const names = runs.map((r) => r.name);
  const present = heavy.filter((h) => names.includes(h));
  const fixed = split ? present.map((h) => [h]) : present.length > 0 ? [present] : [];
  const rank = (r) => (r.at === 'head' ? 0 : realRayEarly.includes(r.name) ? 1 + realRayEarly.indexOf(r.name) / 10 : 2);
  const queue = runs.filter((r) => !heavy.includes(r.name)).sort((a, b) => rank(a) - rank(b) || seconds(b.name) - seconds(a.name)).map((r) => r.name);
  return { lanes: [...fixed, []].map((lane) => ({ names: lane, seconds: lane.reduce((t, n) => t + seconds(n), 0) })), queue };
}

/**
 * Runs the plan: each lane its fixed runs, then the first queued run it may start, until the queue is empty. A
 * run waiting for its project (`after`) is passed over until that project's run is done; a lane with only such runs
 * left waits for a run to end. Answers every run's result, in the order they ended.
 */
export async function runPlan(plan, runs, start) {
  const queue = [...plan.queue];
  const ended = new Set();
  const results = [];
  const waiting = [];
  const startable = (name) => {
    const run = runs.find((r) => r.name === name);
    return run.at !== 'after' || !runs.some((r) => r.name === run.project) || ended.has(run.project);
  };
  const finish = (result) => {
    results.push(result);
    ended.add(result.name);
    for (const resume of waiting.splice(0)) resume();
  };
  const lane = async (fixed) => {
    for (const name of fixed) finish(await start(runs.find((r) => r.name === name)));
    while (queue.length > 0) {
      const next = queue.findIndex(startable);
      if (next < 0) {
        await new Promise((resolve) => waiting.push(resolve));
        continue;
      }
      const [name] = queue.splice(next, 1);
      finish(await start(runs.find((r) => r.name === name)));
    }
  };
  await Promise.all(plan.lanes.map((l) => lane(l.names)));
  return results;
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
  const plan = planLanes(runs);
  for (const [i, lane] of plan.lanes.entries()) process.stdout.write(`lane ${i + 1} starts with (~${lane.seconds} s): ${lane.names.join(', ') || 'nothing'}\n`);
  process.stdout.write(`then both take from the queue (~${plan.queue.reduce((t, n) => t + seconds(n), 0)} s): ${plan.queue.join(', ')}\n`);
  const started = Date.now();
  const results = await runPlan(plan, runs, runProject);
  process.stdout.write(`\n=== npm test: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  process.stdout.write(`${rayStartSummary(started)}\n`);
  for (const r of results) process.stdout.write(`${r.code === 0 ? 'ok    ' : 'FAILED'} ${r.name} ${r.seconds.toFixed(0)} s\n`);
  process.exit(results.every((r) => r.code === 0) ? 0 : 1);
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) await main();
