// The image's bundle holds the submitter and the Ray client, and nothing test-only: no emulator, no sandbox.
// Its entry holds only what --help and --version need; the run path (zod, yaml, the Ray client) is a chunk that
// only a run loads (start time: ray-job-submitter --help must cost little more than `node -e 0`).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundlePath } from './support/build-bundle.ts';

const distDir = join(bundlePath, '..');
const files = readdirSync(distDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs')).map((f) => join(distDir, f));
const whole = files.map((f) => readFileSync(f, 'utf8')).join('\n');

/** The entry and every module it imports statically: what `node dist/submitter.mjs --help` loads. */
function staticallyLoaded(path: string, seen = new Set<string>()): Set<string> {
  if (seen.has(path)) return seen;
  seen.add(path);
  const text = readFileSync(path, 'utf8');
  // Static imports only: `from"./x.mjs"` (minified) or `from "./x.mjs"`; `import("./x.mjs")` is the lazy run path.
  for (const match of text.matchAll(/from\s*["'](\.{1,2}\/[^"']+)["']/g)) staticallyLoaded(join(path, '..', match[1] as string), seen);
  return seen;
}

describe('dist/ (the bundle the image ships)', () => {
  it.each([
    ['the Ray client (its user agent)', 'rayjob-ray-client'],
    ['the Ray client (duplicate-submission marker)', 'Please use a different submission_id'],
    ['the submitter (attach wording)', 'has already been submitted, tailing logs.'],
    ['the createRequire banner', 'createRequire(import.meta.url)'],
  ])('contains %s', (_what, marker) => {
    expect(whole).toContain(marker);
  });

  it.each([
    ['the emulator (fault text)', 'injected by the emulator'],
    ['the emulator (package path)', 'ray-emulator/src'],
    ['the emulator (timing knob)', 'deflateTailCloseMs'],
    ['the emulator (fake session name)', 'newSessionName'],
    ['the sandbox (package path)', 'sandbox/src'],
    ['the sandbox (kubelet text)', 'kubelet is posting ready status'],
    ['the conformance helper', 'RAYJOB_TEST_HEAD'],
    ['vitest', 'vitest'],
  ])('does not contain %s', (_what, marker) => {
    expect(whole).not.toContain(marker);
  });

  it('is minified, without inline source maps', () => {
    expect(whole).not.toContain('sourceMappingURL=data:');
    expect(files.reduce((sum, f) => sum + statSync(f).size, 0)).toBeLessThan(4 * 1024 * 1024);
    // Minified: long lines (the few newlines left are inside template literals such as the usage text).
    expect(whole.length / whole.split('\n').length).toBeGreaterThan(1_000);
  });

  it.each([
    ['zod', '$ZodType'],
    ['yaml', 'YAMLMap'],
    ['the Ray client', 'rayjob-ray-client'],
    ['the run orchestration', 'has already been submitted, tailing logs.'],
  ])('the --help path does not load %s', (_what, marker) => {
    const loaded = [...staticallyLoaded(bundlePath)];
    expect(loaded.length).toBeGreaterThan(0);
    for (const file of loaded) expect(readFileSync(file, 'utf8')).not.toContain(marker);
    expect(whole).toContain(marker); // it is in the bundle, in the lazily loaded run chunk
  });

  it('the run path loads yaml only for a --runtime-env file: yaml is a chunk of its own, outside the run chunk', () => {
    const runChunk = files.find((f) => /run-main-[^/]*\.mjs$/.test(f));
    expect(runChunk).toBeDefined();
    const loaded = [...staticallyLoaded(runChunk as string)];
    expect(loaded.filter((file) => readFileSync(file, 'utf8').includes('YAMLMap'))).toEqual([]);
    expect(whole).toContain('YAMLMap');
  });

  it('the run path loads ws only for a log tail: ws is a chunk of its own, outside the run chunk (cold start, #27)', () => {
    const runChunk = files.find((f) => /run-main-[^/]*\.mjs$/.test(f));
    const loaded = [...staticallyLoaded(runChunk as string)];
    expect(loaded.filter((file) => readFileSync(file, 'utf8').includes('permessage-deflate'))).toEqual([]);
    expect(whole).toContain('permessage-deflate');
  });

  it('holds no semver package (its module builds ~40 regular expressions at load; Ray versions are read by kube-model)', () => {
    expect(whole).not.toContain('SEMVER_SPEC_VERSION');
  });

  it('the run path parses with zod/mini, never the classic zod namespace (~9 MiB of RSS to load)', () => {
    expect(whole).toContain('"ZodMiniObject"');
    expect(whole).not.toContain('"ZodObject"');
  });
});
