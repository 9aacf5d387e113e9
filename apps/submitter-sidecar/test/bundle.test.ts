// The image's bundle holds the submitter and the Ray client, and nothing test-only: no emulator, no sandbox.
import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundlePath } from './support/build-bundle.ts';

describe('dist/submitter.mjs', () => {
  const bundle = readFileSync(bundlePath, 'utf8');
  it.each([
    ['the Ray client (its user agent)', 'rayjob-ray-client'],
    ['the Ray client (duplicate-submission marker)', 'Please use a different submission_id'],
    ['the submitter (attach wording)', 'has already been submitted, tailing logs.'],
    ['the createRequire banner', 'createRequire(import.meta.url)'],
  ])('contains %s', (_what, marker) => {
    expect(bundle).toContain(marker);
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
    expect(bundle).not.toContain(marker);
  });

  it('is one minified file without an inline source map', () => {
    expect(bundle).not.toContain('sourceMappingURL=data:');
    expect(statSync(bundlePath).size).toBeLessThan(4 * 1024 * 1024);
    // Minified: long lines (the few newlines left are inside template literals such as the usage text).
    expect(bundle.length / bundle.split('\n').length).toBeGreaterThan(1_000);
  });
});
