// The bin folder real-Ray pods find first: Python in it must still be the installation's (its venv, with ray).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { realRayBinDir } from '../../src/images/real-ray-bin.ts';

const work = mkdtempSync(join(tmpdir(), 'real-ray-bin-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('realRayBinDir', () => {
  it("starts python as the installation's venv python (a link would start the base interpreter, without ray)", () => {
    const venv = join(work, 'venv');
    execFileSync('python3', ['-m', 'venv', '--without-pip', venv]);
    writeFileSync(join(venv, 'bin', 'ray'), '#!/bin/sh\necho ray "$@"\n');
    chmodSync(join(venv, 'bin', 'ray'), 0o755);
    const bin = realRayBinDir(join(venv, 'bin'), process.execPath, work);
    for (const python of ['python', 'python3']) {
      const prefix = execFileSync(join(bin, python), ['-c', 'import sys; print(sys.prefix)'], { encoding: 'utf8' }).trim();
      expect(realpathSync(prefix), python).toBe(realpathSync(venv));
    }
    expect(execFileSync(join(bin, 'ray'), ['status'], { encoding: 'utf8' })).toBe('ray status\n');
  });
});
