// globalSetup: builds dist/submitter.mjs once per test run, so process tests and the bundle test use the
// artifact the image ships, built from the current source.
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const appRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const bundlePath = join(appRoot, 'dist', 'submitter.mjs');
export const binPath = join(appRoot, 'bin', 'submitter');

export default function setup(): void {
  execFileSync(process.execPath, [join(appRoot, 'esbuild.config.mjs')], { stdio: 'inherit', timeout: 120_000 });
}
