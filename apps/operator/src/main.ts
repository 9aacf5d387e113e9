// rayjob-operator: parse KubeRay's flags and env, start the controllers, stop gracefully on SIGTERM/SIGINT.
import { loadConfig, usage } from './config/config.ts';
import { startOperator } from './operator.ts';

const loaded = loadConfig(process.argv.slice(2), process.env);
if (loaded.ok === 'help') {
  process.stdout.write(`${usage()}\n`);
  process.exit(0);
}
if (loaded.ok === false) {
  process.stderr.write(`rayjob-operator: ${loaded.message}\nRun with --help for usage.\n`);
  process.exit(2);
}
const operator = await startOperator({
  config: loaded.config,
  // As controller-runtime: a replica that lost the lease exits, and its pod restarts as a follower.
  onLeadershipLost: () => process.exit(1),
});
let stopping = false;
const stop = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  process.stderr.write(`rayjob-operator: ${signal}: finishing in-flight reconciles\n`);
  void operator.stop().then(() => process.exit(0));
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
