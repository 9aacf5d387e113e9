// The demo's flow: boot the sandbox with our operator, run the demo scenario with its timeline printed live,
// tear down in order (operator first, then the node's pod processes, then the API server), and say where the
// time went. `--keep` leaves the cluster up for kubectl instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSandboxDriver, type SandboxDriver } from '../drivers/sandbox-driver.ts';
import { runScenario } from '../run/run-scenario.ts';
import { formatPhases, scenarioPhases, type Phase } from './phases.ts';
import { demoScenario } from './scenario.ts';

const usage = 'usage: ./demo [--keep]   (or: npm run demo [-- --keep])';

/**
 * The emulator's head is up in about a second, so probes run at 1/5 of KubeRay's timing (readiness after 2 s,
 * not 10 s) — as the operator's own emulator tests run them. Real Ray heads keep KubeRay's timing everywhere.
 */
const PROBE_TIME_SCALE = 0.2;

const seconds = (ms: number): number => ms / 1000;

export async function main(argv: string[], say: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): Promise<number> {
  let keep = false;
  try {
    ({ values: { keep = false } } = parseArgs({ args: argv, options: { keep: { type: 'boolean' }, help: { type: 'boolean' } }, strict: true }));
  } catch (error) {
    process.stderr.write(`demo: ${(error as Error).message}\n${usage}\n`);
    return 2;
  }
  // From the process's start: Node's own start and the imports are part of what a person waits for.
  const origin = performance.timeOrigin;
  const phases: Phase[] = [{ name: 'node start, imports', seconds: seconds(Date.now() - origin) }];
  const dir = mkdtempSync(join(tmpdir(), 'rayjob-demo-'));
  say('demo: starting a sandbox cluster (API server, Job controller, kubelet, DNS) and the rayjob operator ...');
  let mark = Date.now();
  let driver: SandboxDriver;
  try {
    driver = await startSandboxDriver({
      dir,
      node: { timing: { probeTimeScale: PROBE_TIME_SCALE }, baseEnv: podEnvironment() },
    });
  } catch (error) {
    say(`demo: FAILED: the sandbox did not start: ${error instanceof Error ? error.message : String(error)}\n  its files: ${dir}`);
    return 1;
  }
  phases.push({ name: 'sandbox boot', seconds: seconds(Date.now() - mark) });
  say(`demo: cluster up; timeline: [t] trigger | jobStatus deploymentStatus | submitter | cluster/pods | progress`);
  // The namespace stays: without --keep everything goes with the sandbox, pods killed by their node's stop.
  const result = await runScenario(driver, demoScenario, { namespace: 'demo', print: say, keep: true });
  phases.push(...scenarioPhases(result.observations));
  if (result.passed) {
    say(`demo: the RayJob is ${result.final?.deploymentStatus}/${result.final?.jobStatus} after both triggers (KubeRay: ${demoScenario.kuberay.deploymentStatus}/${demoScenario.kuberay.reason} with the job still running).`);
  } else {
    say(`demo: FAILED:\n  ${result.problems.join('\n  ')}\n  operator log: ${driver.operatorLog}`);
  }
  if (keep) {
    say(`demo: left running. In another shell:\n  export KUBECONFIG=${driver.kubeconfigPath}\n  kubectl get rayjobs,rayclusters,jobs,pods -n demo\n  kubectl describe rayjob -n demo\nCtrl-C stops and cleans up.`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
  }
  say('demo: cleaning up (operator, pods, API server) ...');
  mark = Date.now();
  await driver.close();
  // A failed run keeps its files (the operator's log, the pods' logs) for a look; a passed one leaves nothing.
  if (result.passed) rmSync(dir, { recursive: true, force: true });
  phases.push({ name: 'teardown', seconds: seconds(Date.now() - mark) });
  if (!keep) {
    say('demo: where the time went:');
    for (const line of formatPhases(phases)) say(line);
  }
  say(`demo: ${result.passed ? 'passed' : 'FAILED'} in ${seconds(Date.now() - origin).toFixed(1)} s.`);
  return result.passed ? 0 : 1;
}

/**
 * What every pod process starts with on the sandbox's node: PATH, and V8's compile cache when the demo has one,
 * so the emulator and submitter processes load their TypeScript faster from the second run on.
 */
function podEnvironment(): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin' };
  if (process.env.NODE_COMPILE_CACHE) env.NODE_COMPILE_CACHE = process.env.NODE_COMPILE_CACHE;
  return env;
}
