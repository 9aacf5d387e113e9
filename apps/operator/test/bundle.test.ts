// The image's bundle (esbuild, dist/operator.mjs): the operator and its runtime, nothing dev-only (no sandbox,
// no Ray emulator, no npm-start helper), and it runs: --help exits 0, a bad flag exits 2 naming it.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoPath } from './support/sandbox-images.ts';

const out = join(mkdtempSync(join(tmpdir(), 'operator-bundle-')), 'operator.mjs');
let text = '';
beforeAll(() => {
  execFileSync(process.execPath, [repoPath('apps/operator/esbuild.config.mjs')], { env: { ...process.env, OPERATOR_BUNDLE_OUT: out }, timeout: 120_000 });
  text = readFileSync(out, 'utf8');
}, 130_000);
afterAll(() => rmSync(join(out, '..'), { recursive: true, force: true }));

const run = (args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => execFile(process.execPath, [out, ...args], { timeout: 20_000, env }, (err, stdout, stderr) =>
    resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr })));

describe('dist/operator.mjs', () => {
  it.each([
    ['the RayJob controller (event recorder name)', 'rayjob-controller'],
    ['the decision core (a KubeRay message)', 'Submitter completed but Ray job not found in RayCluster.'],
    ['the Ray client (user agent)', 'rayjob-ray-client'],
    ['the leader lease name', 'ray-operator-leader'],
  ])('contains %s', (_what, marker) => {
    expect(text).toContain(marker);
  });

  it.each([
    ['the sandbox (kubelet text)', 'kubelet is posting ready status'],
    ['the sandbox (package path)', 'sandbox/src'],
    ['the Ray emulator (package path)', 'ray-emulator/src'],
    ['the npm start helper', 'operator running ('],
    ['the test stand-in', 'Test-only stand-in'],
  ])('leaves out %s', (_what, marker) => {
    expect(text).not.toContain(marker);
  });

  it('--help exits 0; a bad flag exits 2 naming the flag', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--submitter-image');
    const bad = await run(['--reconcile-concurrency=zero']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--reconcile-concurrency: "zero" is not a number');
  });

  it('RAYJOB_V8_FLAGS: the chart\'s v8Flags run (node would refuse --optimize-for-size in NODE_OPTIONS); a bad one exits 2 naming the variable', async () => {
    expect((await run(['--help'], { ...process.env, RAYJOB_V8_FLAGS: '--optimize-for-size' })).code).toBe(0);
    const bad = await run(['--help'], { ...process.env, RAYJOB_V8_FLAGS: 'optimize-for-size' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('RAYJOB_V8_FLAGS: "optimize-for-size" is not a V8 flag');
  });
});
