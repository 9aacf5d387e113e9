#!/usr/bin/env node
// Image benchmark: builds both images for both architectures as `npm run images` does (gzip 9, what is
// released) and prints each image's compressed size (what a node pulls) beside the anchors: KubeRay's light-
// weight Go submitter image (9.7 MB compressed) and the Ray image (874 MB). Then, from inside the submitter
// image's unpacked rootfs (unshare --root, user 65532, the image's env; as root), the submitter's start and
// peak RSS beside `node -e 0` run by the same image's node in the same run:
//   --version:  start to exit;  cold start: start to the Ray emulator's first request;  peak RSS: a whole run
// BENCH_RUNS (default 7) runs each, medians.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildImages, hostArchitecture, unpackImage } from '@rayjob/oci-image';
import { fastTiming, startRayEmulator } from '@rayjob/ray-emulator';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const runs = Number(process.env.BENCH_RUNS ?? 7);
const work = mkdtempSync(join(tmpdir(), 'rayjob-bench-images-'));
const anchors = { kuberaySubmitter: 9.7e6, rayImage: 874e6 };
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (process.getuid?.() !== 0) {
  console.log('skipped: needs root (unshare --root for the in-image runs)');
  process.exit(0);
}

try {
  const started = Date.now();
  const built = await buildImages({ repoRoot: root, outDir: join(work, 'out'), archs: ['amd64', 'arm64'], productNames: ['submitter', 'operator'], cacheDir: join(root, '.cache', 'images') });
  console.log(`built both images for linux/amd64 and linux/arm64 in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log('compressed size (layers + config + manifest: what a node pulls); anchors: KubeRay Go submitter 9.7 MB, Ray image 874 MB');
  for (const product of built) {
    for (const image of product.images) {
      console.log(`  ${product.repository}:${product.version} linux/${image.arch}: ${mb(image.compressedSize)}; ${(image.compressedSize / anchors.kuberaySubmitter).toFixed(1)}x KubeRay's Go submitter, ${(image.compressedSize / anchors.rayImage * 100).toFixed(1)}% of the Ray image${product.product === 'submitter' ? ` (goal <= 45 MB: ${image.compressedSize <= 45e6 ? 'met' : 'NOT met'})` : ''}`);
    }
  }

  const arch = hostArchitecture();
  const submitter = built.find((p) => p.product === 'submitter');
  const rootfs = join(work, 'submitter-rootfs');
  const image = await unpackImage(submitter.layout, arch, rootfs);
  const [uid, gid] = image.config.User.split(':');
  const env = Object.fromEntries(image.config.Env.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]));
  const hasGnuTime = spawnSync('/usr/bin/time', ['-f', '%M', 'true']).status === 0;

  /** Runs argv inside the rootfs (under GNU time when present: unshare execs the program, so %M is its peak). */
  const measure = (argv, firstRequest) => new Promise((resolve, reject) => {
    const inside = ['/usr/bin/unshare', `--root=${rootfs}`, '--wd=/', `--setgid=${gid}`, `--setuid=${uid}`, '--', ...argv];
    const cmd = hasGnuTime ? ['/usr/bin/time', '-f', 'RSS_KB=%M', ...inside] : inside;
    const t0 = process.hrtime.bigint();
    const child = spawn(cmd[0], cmd.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (t) => (stderr += t));
    let firstMs;
    const poll = () => {
      if (firstMs !== undefined || firstRequest === undefined) return;
      if (firstRequest()) firstMs = Number(process.hrtime.bigint() - t0) / 1e6;
      else setTimeout(poll, 1);
    };
    poll();
    child.on('error', reject);
    child.on('exit', (code) => {
      const rss = /RSS_KB=(\d+)/.exec(stderr);
      resolve({ ms: firstMs ?? Number(process.hrtime.bigint() - t0) / 1e6, rssKb: rss ? Number(rss[1]) : NaN, code, stderr });
    });
  });

  const emulator = await startRayEmulator({ timing: fastTiming });
  const baseline = [];
  const version = [];
  const run = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      baseline.push(await measure(['/nodejs/bin/node', '-e', '0']));
      const v = await measure(['/submitter', '--version']);
      if (v.code !== 0) throw new Error(`/submitter --version exited ${v.code}: ${v.stderr}`);
      version.push(v);
      const seen = emulator.requests().length;
      const r = await measure(['/submitter', '--address', emulator.url, '--submission-id', `bench-image-${process.pid}-${i}`, '--termination-log', '/tmp/termination-log', '--', 'echo hello'], () => emulator.requests().length > seen);
      if (r.code !== 0) throw new Error(`/submitter run exited ${r.code}: ${r.stderr}`);
      run.push(r);
    }
  } finally {
    await emulator.stop();
  }
  const base = median(baseline.map((r) => r.ms));
  console.log(`\nfrom inside the submitter image (linux/${arch}, user ${image.config.User}), runs: ${runs} (medians)`);
  console.log(`  node -e 0 (the image's node): ${base.toFixed(0)} ms${hasGnuTime ? `, peak RSS ${(median(baseline.map((r) => r.rssKb)) / 1024).toFixed(1)} MiB` : ''}`);
  console.log(`  /submitter --version start to exit: ${median(version.map((r) => r.ms)).toFixed(0)} ms; ratio ${(median(version.map((r) => r.ms)) / base).toFixed(2)}x node -e 0`);
  console.log(`  cold start to the first request: ${median(run.map((r) => r.ms)).toFixed(0)} ms; ratio ${(median(run.map((r) => r.ms)) / base).toFixed(2)}x node -e 0`);
  if (hasGnuTime) {
    const rss = median(run.map((r) => r.rssKb));
    console.log(`  peak RSS of a whole run (submit, follow, exit): ${(rss / 1024).toFixed(1)} MiB; ratio ${(rss / median(baseline.map((r) => r.rssKb))).toFixed(2)}x node -e 0`);
  } else {
    console.log('  peak RSS: skipped: /usr/bin/time (GNU time) is not installed');
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
