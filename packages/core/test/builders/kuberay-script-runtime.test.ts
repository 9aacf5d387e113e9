/**
 * KubeRay's submit script (a user template without a command) reads the attach-only mark when it runs: with
 * RAYJOB_SUBMITTER_ATTACH_ONLY set by the kubelet from the submitter-state ConfigMap, a job Ray does not know
 * is refused (exit 6), never submitted. Run under bash with a fake `ray` and `python` that record their calls.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { kubeRaySubmitScript } from '../../src/index.ts';

const bin = mkdtempSync(join(tmpdir(), 'kuberay-script-'));
afterAll(() => rmSync(bin, { recursive: true, force: true }));
// GCS is healthy; `ray job status` fails (the head does not know the ID); every ray call is logged.
writeFileSync(join(bin, 'python'), '#!/bin/sh\nexit 0\n');
writeFileSync(join(bin, 'ray'), '#!/bin/sh\necho "$*" >> "$RAY_CALLS"\n[ "$2" = status ] && exit 1\nexit 0\n');
chmodSync(join(bin, 'python'), 0o755);
chmodSync(join(bin, 'ray'), 0o755);

function runScript(env: string | undefined, attachOnlyAtBuild = false): { code: number | null; calls: string[]; stderr: string } {
  const calls = join(bin, `calls-${Math.random().toString(36).slice(2)}`);
  writeFileSync(calls, '');
  const script = kubeRaySubmitScript('http://head:8265', 'job-1', { entrypoint: 'python x.py' }, { attachOnly: attachOnlyAtBuild, atRuntime: true });
  const r = spawnSync('/bin/bash', ['-ce', '--', script], {
    env: { PATH: `${bin}:/usr/bin:/bin`, RAY_CALLS: calls, ...(env === undefined ? {} : { RAYJOB_SUBMITTER_ATTACH_ONLY: env }) },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, calls: readFileSync(calls, 'utf8').split('\n').filter(Boolean).map((l) => l.split(' ').slice(0, 2).join(' ')), stderr: r.stderr };
}

describe('KubeRay\'s script decides attach-only at run time', () => {
  it.each([
    ['unset (no mark yet)', undefined],
    ['false', 'false'],
    ['empty', ''],
  ])('RAYJOB_SUBMITTER_ATTACH_ONLY %s: an unknown ID is submitted, then followed', (_n, env) => {
    const r = runScript(env);
    expect(r.code).toBe(0);
    expect(r.calls).toEqual(['job status', 'job submit', 'job logs']);
  });

  it.each([['true', 'true'], ['TRUE', 'TRUE'], ['1', '1']])('RAYJOB_SUBMITTER_ATTACH_ONLY=%s: an unknown ID exits 6 and nothing is submitted', (_n, env) => {
    const r = runScript(env);
    expect(r.code).toBe(6);
    expect(r.calls).toEqual(['job status']);
    expect(r.stderr).toContain('Not submitting it again.');
  });

  it('built attach-only: refuses whatever the env says', () => {
    const r = runScript(undefined, true);
    expect(r.code).toBe(6);
    expect(r.calls).toEqual(['job status']);
  });
});
