// Cheaper pod programs for many-pod runs (the fault campaign): the submitter as the image ships it (the esbuild
// bundle, built here from this checkout's source) instead of from TypeScript source, and a V8 compile cache for
// every node program in the pods (the image fills one at build time too). Both change only how much CPU a pod
// spends starting, never what runs: the same source, the same arguments, the same protocol.
import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const repo = (path: string): string => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

/**
 * Outside /tmp: every sandbox pod gets a /tmp of its own, so a bundle or cache under the host's /tmp would not
 * be there for the pod's processes.
 */
const cacheRoot = repo('node_modules/.cache/rayjob-e2e');

export interface PodPrograms {
  /** The submitter bundle's entry (dist/submitter.mjs as the image has it). */
  submitterBundle: string;
  /** NODE_COMPILE_CACHE for the pods' node programs (kept across runs: V8 keys entries by source hash). */
  compileCache: string;
  /** Removes the bundle (the compile cache stays for the next run). */
  remove(): Promise<void>;
}

export async function preparePodPrograms(): Promise<PodPrograms> {
  const bundleDir = join(cacheRoot, `submitter-${process.pid}`);
  const compileCache = join(cacheRoot, 'compile-cache');
  await mkdir(compileCache, { recursive: true });
  await run(process.execPath, [repo('apps/submitter-sidecar/esbuild.config.mjs')], {
    env: { ...process.env, SUBMITTER_BUNDLE_OUT_DIR: bundleDir },
    timeout: 120_000,
  });
  return {
    submitterBundle: join(bundleDir, 'submitter.mjs'),
    compileCache,
    remove: () => rm(bundleDir, { recursive: true, force: true }),
  };
}
