// The run path of the process (loaded by main.ts for anything but --help and --version): reads argv and the
// environment, runs, exits with the submitter contract's code. SIGTERM/SIGINT exit 143/130 at once, leaving
// the Ray job running. Everything heavy (zod, yaml, the Ray client) is imported from here, never from main.ts.
import { createRayClient } from '@rayjob/ray-client';
import { SubmitterExitCode } from '@rayjob/core';
import { loadConfig, needsYaml } from './cli/load-config.ts';
import { submitterVersion, usage } from './cli/usage.ts';
import { outcome, signalNotice } from './exit.ts';
import { makeRedactor } from '@rayjob/ray-client';
import { startRun, writeFinalWord } from './run/run-submitter.ts';

const writers = {
  stdout: (text: string) => void process.stdout.write(text),
  stderr: (text: string) => void process.stderr.write(text),
};

export async function runMain(argv: readonly string[]): Promise<void> {
  // yaml is a chunk of its own, loaded only for a --runtime-env file (issue #27: ~2.5 MiB of RSS otherwise).
  // `.default`: yaml is CommonJS on node, so its module.exports is the default export (in the bundle too).
  const parseYaml = needsYaml(argv) ? (await import('yaml')).default.parse : undefined;
  const loaded = loadConfig({ argv, env: process.env, ...(parseYaml ? { parseYaml } : {}) });
  if (loaded.kind === 'help') {
    writers.stdout(usage);
    process.exit(0);
  }
  if (loaded.kind === 'version') {
    writers.stdout(`ray-job-submitter ${submitterVersion}\n`);
    process.exit(0);
  }
  if (loaded.kind === 'usage-error') {
    writers.stderr(`ray-job-submitter: ${makeRedactor(loaded.secrets)(loaded.message)}\nRun with --help for usage.\n`);
    process.exit(SubmitterExitCode.Rejected);
  }
  const config = loaded.config;
  const redact = makeRedactor(config.secrets);

  let client;
  try {
    client = createRayClient({
      address: config.baseUrl,
      ...(config.token !== undefined ? { token: config.token } : {}),
      headers: config.headers,
      tls: config.tls,
    });
  } catch (error) {
    writers.stderr(`ray-job-submitter: ${redact(error instanceof Error ? error.message : String(error))}\n`);
    process.exit(SubmitterExitCode.Rejected);
  }

  const run = startRun(config, { client, writers });
  const ctx = { config, reporter: run.reporter, knowledge: run.knowledge };

  // Exit at once, job untouched: stopping the Ray job is the operator's decision, never the submitter's death's.
  const onSignal = (signal: 'SIGTERM' | 'SIGINT') => {
    const reason = signal === 'SIGTERM' ? 'Terminated' : 'Interrupted';
    const notice = signalNotice(signal, run.knowledge);
    run.reporter.line('warn', notice, { event: 'signal', signal });
    writeFinalWord(ctx, outcome(reason, notice));
    process.exit(SubmitterExitCode[reason]);
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
  const onCrash = (error: unknown) => {
    const result = outcome('InternalError', `internal error: ${error instanceof Error ? error.message : String(error)}`);
    run.reporter.line('error', result.detail, { event: 'exit', exitCode: result.exitCode, reason: result.reason });
    writeFinalWord(ctx, result);
    process.exit(result.exitCode);
  };
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);

  void run.done.then(async (result) => {
    await Promise.race([client.close(), new Promise((r) => setTimeout(r, 500))]);
    process.exit(result.exitCode);
  });
}

