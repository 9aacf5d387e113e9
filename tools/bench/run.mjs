#!/usr/bin/env node
// `npm run bench`: runs every benchmark script in turn. Each prints its own numbers as ratios against a
// baseline it measures in the same run (so machines of different speed compare). Benchmarks are not tests:
// they never fail the build on a number, only on a crash.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const benches = [
  ['core: decision throughput', 'packages/core/bench/decide.bench.ts', []],
  ['core: issue 8 and 20 invariants over >= 100,000 generated decisions', 'packages/core/bench/decision-sequences.bench.ts', []],
  ['sandbox: 10,000 custom objects', 'packages/sandbox/bench/custom-objects.ts', ['--expose-gc']],
  ['submitter: cold start, RSS, bundle size', 'tools/bench/submitter.mjs', []],
  ["images: compressed sizes; the submitter's cold start and peak RSS from inside its image", 'tools/bench/images.mjs', []],
  ['operator: detection lag, API writes, dashboard requests per RayJob', 'apps/operator/bench/lifecycle.ts', []],
  ["operator: what a job's log volume costs it (200 MB vs 1 KB: bytes read, CPU, detection lag)", 'apps/operator/bench/log-volume.ts', []],
  ['operator: RSS and reconcile throughput with 1,000 and 10,000 RayJobs (synthetic mode)', 'apps/operator/bench/scale.ts', []],
  ['e2e: fault campaign seeds per minute (12 seeds)', 'e2e/bench/campaign.ts', []],
];
const only = process.argv.slice(2);
let failed = 0;
for (const [title, file, nodeArgs] of benches) {
  if (only.length && !only.some((o) => file.includes(o))) continue;
  const path = join(root, file);
  console.log(`\n=== ${title} (${file})`);
  if (!existsSync(path)) {
    console.log(`skipped: ${file} does not exist`);
    continue;
  }
  const r = spawnSync(process.execPath, [...nodeArgs, path], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.log(`bench failed: ${file} exited ${r.status ?? r.signal}`);
  }
}
process.exit(failed ? 1 : 0);
