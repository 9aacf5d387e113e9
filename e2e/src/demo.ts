#!/usr/bin/env node
// `npm run demo`: the mission in one minute. Boots the sandbox with our operator, applies a KubeRay-shaped
// RayJob (K8sJobMode, submitter backoffLimit 0, a 40-step job), prints the timeline live, deletes the
// submitter pod mid-job and kills the head's JobHead — the two triggers that make KubeRay fail a healthy
// job — and ends with the RayJob Complete/SUCCEEDED. `--keep` leaves the cluster up for kubectl.
import { parseArgs } from 'node:util';
import { startSandboxDriver } from './drivers/sandbox-driver.ts';
import { runScenario } from './run/run-scenario.ts';
import type { Scenario } from './scenario/types.ts';

export const demoScenario: Scenario = {
  id: 'demo',
  title: 'a submitter pod deleted and the JobHead killed mid-job; the RayJob still completes',
  mode: 'K8sJobMode',
  rayJob: { mode: 'K8sJobMode', steps: 40, stepSeconds: 0.5, submitterBackoffLimit: 0 },
  steps: [
    { kind: 'wait', until: { deploymentStatus: 'Running', progressAtLeast: 8 }, timeoutSeconds: 150 },
    { kind: 'fault', fault: 'deleteSubmitterPod' },
    { kind: 'wait', until: { progressAtLeast: 20 }, timeoutSeconds: 90 },
    { kind: 'fault', fault: 'killJobHead' },
    { kind: 'wait', until: { deploymentStatus: 'Complete' }, timeoutSeconds: 120 },
  ],
  expect: { deploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', logsContain: ['step 40/40'] },
  clusterKeptWhileRunning: true,
  clusterAfter: 'kept',
  runsPerAttempt: 1,
  kuberay: { deploymentStatus: 'Failed', jobStatus: 'RUNNING', reason: 'SubmissionFailed', note: 'the submitter Job exhausts its backoff (#2314, #5100)' },
  // Bounds for a loaded machine; on a quiet 2-core machine the whole demo takes well under a minute.
  timeoutSeconds: 360,
};

const usage = 'usage: npm run demo [-- --keep]';

async function main(): Promise<number> {
  let keep = false;
  try {
    ({ values: { keep = false } } = parseArgs({ options: { keep: { type: 'boolean' }, help: { type: 'boolean' } }, strict: true }));
  } catch (error) {
    process.stderr.write(`demo: ${(error as Error).message}\n${usage}\n`);
    return 2;
  }
  const started = Date.now();
  const say = (line: string) => process.stdout.write(`${line}\n`);
  say('demo: starting a sandbox cluster (API server, Job controller, kubelet, DNS) and the rayjob operator ...');
  const driver = await startSandboxDriver();
  say(`demo: cluster up in ${((Date.now() - started) / 1000).toFixed(1)} s; timeline: [t] trigger | jobStatus deploymentStatus | submitter | cluster/pods | progress`);
  const result = await runScenario(driver, demoScenario, { namespace: 'demo', print: say, keep });
  const total = ((Date.now() - started) / 1000).toFixed(1);
  if (result.passed) {
    say(`demo: the RayJob is ${result.final?.deploymentStatus}/${result.final?.jobStatus} after both triggers (KubeRay: ${demoScenario.kuberay.deploymentStatus}/${demoScenario.kuberay.reason}). ${total} s in all.`);
  } else {
    say(`demo: FAILED after ${total} s:\n  ${result.problems.join('\n  ')}\n  operator log: ${driver.operatorLog}`);
  }
  if (keep) {
    say(`demo: left running. In another shell:\n  export KUBECONFIG=${driver.kubeconfigPath}\n  kubectl get rayjobs,rayclusters,jobs,pods -n demo\n  kubectl describe rayjob -n demo\nCtrl-C stops and cleans up.`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
  }
  await driver.close();
  return result.passed ? 0 : 1;
}

process.exitCode = await main();
