#!/usr/bin/env node
// `npm test`: every workspace project's Vitest suite, in lanes that run side by side (one project after another
// within a lane). Within a project Vitest keeps its own layout (workers, alone groups, the operator's whole-suite
// RBAC check). Real Ray heads never overlap across lanes: each real-Ray file holds the machine's real-Ray slot
// (tools/ci/real-ray-slot.mjs). Lanes are planned on measured CPU and wall seconds (tools/ci/README.md): the
// e2e and then the operator in one lane, every other project (a new one too, with no edit here) in the
// second lane beside them.
//   npm test                     all projects
//   npm test -- @rayjob/core ... only these projects (same lanes)
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

/** Wall seconds of each project's suite on a quiet 2-core machine when run alone (CI log of the serial layout). */
export const plannedSeconds = {
  '@rayjob/e2e': 680, '@rayjob/operator': 590, '@rayjob/ray-conformance': 175, '@rayjob/sandbox': 135,
  '@rayjob/submitter': 105, '@rayjob/kube-runtime': 35, '@rayjob/oci-image': 30, '@rayjob/core': 26,
  '@rayjob/ray-emulator': 15, '@rayjob/ray-client': 12,
};
/**
 * The two heavy projects: each keeps ~1 core busy on its own (e2e ~1.0, operator with its 2 workers more; CPU
 * seconds in tools/ci/README.md) and both assert wall-clock bounds (lease renewals, detection lags), so by default
 * they run one after the other in the first lane and everything else goes beside them. RAYJOB_TEST_LANES=split
 * gives each its own lane, for machines with more than 2 cores.
 */
// e2e first: it keeps about one core busy (one file at a time), so lane 2's projects fill the second core beside it;
// the operator (two workers, ~2 cores) then runs once lane 2 is done. The other order left the second core idle for
// all of e2e's ~11 minutes (clean CI 2026-12-06: operator 951 s with company, then e2e 692 s alone).
const heavy = ['@rayjob/e2e', '@rayjob/operator'];
const unknownSeconds = 60;
const seconds = (name) => plannedSeconds[name] ?? unknownSeconds;

function workspaceProjects() {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dirs = workspaces.flatMap((w) => (w.endsWith('/*') ? readdirSync(join(root, w.slice(0, -2))).map((d) => join(w.slice(0, -2), d)) : [w]));
  return dirs
    .filter((d) => existsSync(join(root, d, 'vitest.config.ts')) && existsSync(join(root, d, 'package.json')))
    .map((d) => ({ dir: d, name: JSON.parse(readFileSync(join(root, d, 'package.json'), 'utf8')).name }));
}

/** Lanes: the heavy projects (together, or one lane each when split), then one lane for the rest, shortest first. */
export function planLanes(names, split = process.env.RAYJOB_TEST_LANES === 'split') {
  const present = heavy.filter((h) => names.includes(h));
  const heavyLanes = split ? present.map((h) => [h]) : present.length > 0 ? [present] : [];
  const rest = names.filter((n) => !heavy.includes(n)).sort((a, b) => seconds(a) - seconds(b));
  return [...heavyLanes, ...(rest.length > 0 ? [rest] : [])].map((lane) => ({ names: lane, seconds: lane.reduce((t, n) => t + seconds(n), 0) }));
}

function runProject(project) {
  const prefix = `${project.name}: `;
  const started = Date.now();
  process.stdout.write(`\n> ${project.name}: vitest run (${project.dir})\n`);
  return new Promise((resolve) => {
    // RAYJOB_TEST_MEASURE=1: each project in its own cpuacct cgroup, so its CPU seconds (child processes and
    // daemonized Ray included) are printed even while lanes overlap (tools/ci/measure.sh; root, cgroup v1).
    const vitest = [join(root, 'node_modules', '.bin', 'vitest'), 'run'];
    const [cmd, ...args] = process.env.RAYJOB_TEST_MEASURE === '1' ? [join(root, 'tools', 'ci', 'measure.sh'), ...vitest] : vitest;
    const child = spawn(cmd, args, { cwd: join(root, project.dir), stdio: ['ignore', 'pipe', 'pipe'] });
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
  const lanes = planLanes(projects.map((p) => p.name));
  for (const [i, lane] of lanes.entries()) process.stdout.write(`lane ${i + 1} (~${lane.seconds} s alone): ${lane.names.join(', ')}\n`);
  const started = Date.now();
  const results = (await Promise.all(lanes.map(async (lane) => {
    const done = [];
    for (const name of lane.names) done.push(await runProject(projects.find((p) => p.name === name)));
    return done;
  }))).flat();
  process.stdout.write(`\n=== npm test: ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  for (const r of results) process.stdout.write(`${r.code === 0 ? 'ok    ' : 'FAILED'} ${r.name} ${r.seconds.toFixed(0)} s\n`);
  process.exit(results.every((r) => r.code === 0) ? 0 : 1);
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) await main();
