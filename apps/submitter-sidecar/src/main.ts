// Process entry of ray-job-submitter (the image's /submitter). Start time is part of the contract (a pod's
// submitter starts on every attempt, and people run --help by hand): this module loads only the flag table and
// the usage text. --help and --version answer from them; every other invocation imports the run path
// (run-main.ts: zod, yaml, the Ray client), which the bundle keeps in a separate chunk.
import { parseCommandLine } from './cli/parse-args.ts';
import { submitterVersion, usage } from './cli/usage.ts';

const argv = process.argv.slice(2);
const line = parseCommandLine(argv);
if (line.ok && line.flags.help) {
  process.stdout.write(usage);
} else if (line.ok && line.flags.version) {
  process.stdout.write(`ray-job-submitter ${submitterVersion}\n`);
} else {
  // A usage error is reported by the run path too (with the redaction of secrets it needs).
  const { runMain } = await import('./run-main.ts');
  await runMain(argv);
}
