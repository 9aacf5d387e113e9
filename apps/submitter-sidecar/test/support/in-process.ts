// Runs the submitter in-process (loadConfig + startRun, as main.ts wires them) with captured writers and a
// real client over real sockets, so a test sees exactly what the process would print.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRayClient, type RayClient } from '@rayjob/ray-client';
import { loadConfig } from '../../src/cli/load-config.ts';
import { startRun, type Run } from '../../src/run/run-submitter.ts';
import type { Outcome } from '../../src/exit.ts';

export interface InProcessRun {
  run: Run;
  stdout: () => string;
  stderr: () => string;
  terminationLog: () => string;
  done: Promise<Outcome>;
  /** A separate client for the test's own questions (the run's client closes when it ends). */
  client: RayClient;
}

export function startInProcess(
  argv: string[],
  env: Record<string, string>,
  options: { wrapClient?: (client: RayClient) => RayClient; signal?: AbortSignal } = {},
): InProcessRun {
  const dir = mkdtempSync(join(tmpdir(), 'submitter-test-'));
  const terminationPath = join(dir, 'termination-log');
  const loaded = loadConfig({ argv: ['--termination-log', terminationPath, ...argv], env });
  if (loaded.kind !== 'config') throw new Error(`expected a config, got ${JSON.stringify(loaded)}`);
  const config = loaded.config;
  const real = createRayClient({
    address: config.baseUrl,
    ...(config.token !== undefined ? { token: config.token } : {}),
    headers: config.headers,
    tls: config.tls,
  });
  const client = options.wrapClient ? options.wrapClient(real) : real;
  let out = '';
  let err = '';
  const run = startRun(config, {
    client,
    writers: { stdout: (t) => void (out += t), stderr: (t) => void (err += t) },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const done = run.done.finally(() => real.close());
  return {
    run,
    stdout: () => out,
    stderr: () => err,
    terminationLog: () => {
      try {
        return readFileSync(terminationPath, 'utf8');
      } catch {
        return '';
      }
    },
    done,
    client: createRayClient({
      address: config.baseUrl,
      ...(config.token !== undefined ? { token: config.token } : {}),
      headers: config.headers,
    }),
  };
}

/** A shell entrypoint printing `count` numbered lines, `gapS` seconds apart. */
export function countingJob(count: number, gapS = 0.05, prefix = 'line'): string {
  return `for i in $(seq 1 ${count}); do echo "${prefix} $i"; sleep ${gapS}; done`;
}

/** How many times `needle` occurs in `text`. */
export function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
