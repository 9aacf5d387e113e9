/** tools/ray/provision.sh's contract: skip only without a mirror, fail loudly otherwise, idempotent. */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionScript, rayVenvPath } from '../src/real-head/provision.ts';

type Run = { code: number; stdout: string; stderr: string };

function runProvision(env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile('bash', [provisionScript], { env: { ...process.env, ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const venvExists = await stat(rayVenvPath()).then(() => true, () => false);

describe('tools/ray/provision.sh', () => {
  let scratch = '';
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(os.tmpdir(), 'rayjob-provision-'));
    // A stand-in interpreter that claims to be Python 3.10: the ray wheel needs 3.11.
    await writeFile(path.join(scratch, 'python310'), '#!/bin/sh\necho 3.10\n');
    await chmod(path.join(scratch, 'python310'), 0o755);
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it.each([
    {
      situation: 'no mirror and pip cannot find ray: prints the skip reason, exits 0, creates nothing',
      env: () => ({ RAYJOB_PYPI_DIRS: path.join(scratch, 'no-mirror'), PIP_CONFIG_FILE: '/dev/null', PIP_NO_INDEX: '1', RAYJOB_RAY_VENV: path.join(scratch, 'venv-a') }),
      expectCode: 0,
      expectOut: /^skipped: no local Python package mirror with ray==2\.58\.0/m,
      venvCreated: false,
    },
    {
      situation: 'mirror present but the interpreter is not 3.11: a failure, not a skip',
      env: () => ({ RAYJOB_RAY_PYTHON: path.join(scratch, 'python310'), RAYJOB_RAY_VENV: path.join(scratch, 'venv-b') }),
      expectCode: 1,
      expectOut: /need CPython 3\.11/,
      venvCreated: false,
    },
  ])('$situation', async ({ env, expectCode, expectOut, venvCreated }) => {
    const run = await runProvision(env());
    expect(run.code).toBe(expectCode);
    expect(run.stdout + run.stderr).toMatch(expectOut);
    const venv = env().RAYJOB_RAY_VENV;
    expect(await stat(venv).then(() => true, () => false)).toBe(venvCreated);
  });

  it.skipIf(!venvExists)(
    'an already provisioned venv is verified and left alone',
    async () => {
      const run = await runProvision({});
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(/already provisioned: .* \(ray 2\.58\.0 aiohttp 3\.\d+\.\d+ aiohttp_cors 0\.7\.0\)/);
    },
  );
});
