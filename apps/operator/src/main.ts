// rayjob-operator: parse KubeRay's flags and env, start the controllers, stop gracefully on SIGTERM/SIGINT.
import { loadConfig, usage } from './config/config.ts';
import { createLogger, onShutdownSignals } from '@rayjob/kube-runtime';
import { startOperator } from './operator.ts';
import { applyV8Flags } from './runtime/v8-flags.ts';

// First, before any work: V8 flags node refuses in NODE_OPTIONS (the chart's v8Flags, e.g. --optimize-for-size).
const v8Flags = applyV8Flags(process.env);
if (!v8Flags.ok) {
  process.stderr.write(`rayjob-operator: ${v8Flags.message}\n`);
  process.exit(2);
}
const loaded = loadConfig(process.argv.slice(2), process.env);
if (loaded.ok === 'help') {
  process.stdout.write(`${usage()}\n`);
  process.exit(0);
}
if (loaded.ok === false) {
  process.stderr.write(`rayjob-operator: ${loaded.message}\nRun with --help for usage.\n`);
  process.exit(2);
}
const logger = createLogger({ level: loaded.config.logLevel });
const operator = await startOperator({
  config: loaded.config,
  logger,
  // As controller-runtime: a replica that lost the lease exits, and its pod restarts as a follower.
  onLeadershipLost: () => process.exit(1),
});
// SIGTERM/SIGINT: finish in-flight reconciles (at most DRAIN_BUDGET_SECONDS), release the lease, exit 0; a second
// signal exits 1 at once (controller-runtime's SetupSignalHandler), for whoever will not wait for the drain.
onShutdownSignals(() => void operator.stop().then(() => process.exit(0)), logger);
