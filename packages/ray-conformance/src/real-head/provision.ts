/**
 * Makes sure the Ray virtualenv exists, by running tools/ray/provision.sh (idempotent; a few
 * seconds when already provisioned). The script's contract decides skip versus failure:
 * it prints `skipped: <why>` and exits 0 only when the machine has no package mirror.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type Provisioning =
  | { kind: 'ready'; venv: string }
  | { kind: 'skipped'; reason: string }
  | { kind: 'failed'; output: string };

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const provisionScript = path.join(repoRoot, 'tools/ray/provision.sh');

export function rayVenvPath(): string {
  return process.env.RAYJOB_RAY_VENV ?? '/opt/rayjob-ray-venv';
}

let cached: Promise<Provisioning> | undefined;

export function provisionRay(timeoutMs = 600_000): Promise<Provisioning> {
  cached ??= new Promise((resolve) => {
    execFile('bash', [provisionScript], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const skipped = /^skipped: (.*)$/m.exec(stdout);
      if (!error && skipped?.[1]) resolve({ kind: 'skipped', reason: skipped[1] });
      else if (!error) resolve({ kind: 'ready', venv: rayVenvPath() });
      else resolve({ kind: 'failed', output: `${error.message}\n${stdout}\n${stderr}`.slice(-4000) });
    });
  });
  return cached;
}
