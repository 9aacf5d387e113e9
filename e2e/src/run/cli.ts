// The scenarios on a cluster of one's own, from the command line: any cluster through a kubeconfig (kubectl only,
// the operator installed there already), or a new kind cluster with our images, our Helm chart and Ray 2.55.1.
// Exit codes: 0 every scenario passed, 1 one failed, 2 bad usage, 77 skipped (kind cannot run here) — a skip
// is never a pass.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startKindDriver } from '../drivers/kind-driver.ts';
import { createKubectlDriver } from '../drivers/kubectl-driver.ts';
import type { Driver } from '../drivers/types.ts';
import type { Scenario } from '../scenario/types.ts';
import { scenarioById } from '../scenarios/index.ts';
import { planFor } from '../scenarios/plan.ts';
import { realRaySeedCases } from '../scenarios/real-ray.ts';
import { createLimit } from './limit.ts';
import { runScenario } from './run-scenario.ts';

export const usage = [
  'usage: npm run e2e -- --kubeconfig <path> [--concurrency N] [scenario ...]   any cluster with the rayjob operator installed',
  '       npm run e2e -- --kind [scenario ...]                                  a new kind cluster (Docker, kind, helm), Ray 2.55.1',
  `scenarios: C1 C2 ... lifecycle-K8sJobMode ... (default: every one the driver can run; with --kind the seed cases ${realRaySeedCases.join(' ')})`,
].join('\n');

export const exitCodes = { passed: 0, failed: 1, usage: 2, skipped: 77 } as const;

type Say = (line: string) => void;

/** The command line read and checked: what to run, on what; or what is wrong with it. */
export type CliRequest =
  | { kind: 'kubectl'; kubeconfigPath: string; concurrency: number; ids: string[] }
  | { kind: 'kind'; ids: string[] }
  | { kind: 'error'; message: string };

export function readCommandLine(argv: string[]): CliRequest {
  let values: { kubeconfig?: string; kind?: boolean; concurrency?: string };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      options: { kubeconfig: { type: 'string' }, kind: { type: 'boolean' }, concurrency: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  const unknown = positionals.filter((id) => scenarioById(id) === undefined);
  if (unknown.length > 0) return { kind: 'error', message: `no scenario ${unknown.join(', ')} (see e2e/src/scenarios/)` };
  if (values.kind && values.kubeconfig !== undefined) return { kind: 'error', message: '--kind makes its own cluster: give --kind or --kubeconfig, not both' };
  if (values.kind) return { kind: 'kind', ids: positionals };
  if (values.kubeconfig === undefined) return { kind: 'error', message: 'say which cluster: --kubeconfig <path> (a cluster with the rayjob operator installed) or --kind' };
  if (!existsSync(values.kubeconfig)) return { kind: 'error', message: `--kubeconfig ${values.kubeconfig}: no such file` };
  const concurrency = Number(values.concurrency ?? 3);
  if (!Number.isInteger(concurrency) || concurrency < 1) return { kind: 'error', message: `--concurrency must be a positive integer, got ${JSON.stringify(values.concurrency)}` };
  return { kind: 'kubectl', kubeconfigPath: values.kubeconfig, concurrency, ids: positionals };
}

/** The scenarios asked for, or every one the driver can run (each one it cannot is named with the reason). */
function chosen(driver: Driver, ids: string[], say: Say): Scenario[] {
  const asked = ids.map((id) => scenarioById(id)).filter((s): s is Scenario => s !== undefined);
  const plan = planFor(driver.abilities, ids.length > 0 ? asked : undefined);
  for (const { scenario, reason } of plan.skipped) say(`skipped: ${scenario.id}: ${reason}`);
  return plan.run;
}

async function runAll(driver: Driver, scenarios: Scenario[], concurrency: number, say: Say): Promise<number> {
  const limit = createLimit(concurrency);
  const results = await Promise.all(scenarios.map((scenario) => limit(() => runScenario(driver, scenario, { print: say, intervalMs: 1000 }))));
  for (const r of results) say(`${r.scenario.id}: ${r.passed ? 'passed' : `FAILED: ${r.problems.join('; ')}`} (${r.seconds.toFixed(0)} s)`);
  const failed = results.filter((r) => !r.passed).length;
  say(`e2e on ${driver.name}: ${results.length - failed} passed, ${failed} failed`);
  return failed === 0 && results.length > 0 ? exitCodes.passed : exitCodes.failed;
}

export async function main(argv: string[], say: Say = (line) => process.stdout.write(`${line}\n`)): Promise<number> {
  const request = readCommandLine(argv);
  if (request.kind === 'error') {
    say(`e2e: ${request.message}\n${usage}`);
    return exitCodes.usage;
  }
  if (request.kind === 'kubectl') {
    const driver = createKubectlDriver({ kubeconfigPath: request.kubeconfigPath });
    try {
      return await runAll(driver, chosen(driver, request.ids, say), request.concurrency, say);
    } finally {
      await driver.close();
    }
  }
  const started = await startKindDriver();
  if ('skipped' in started) {
    say(`skipped: ${started.skipped}`);
    return exitCodes.skipped;
  }
  try {
    // One at a time: each case starts real Ray heads on the kind node.
    return await runAll(started, chosen(started, request.ids.length > 0 ? request.ids : [...realRaySeedCases], say), 1, say);
  } finally {
    await started.close();
  }
}
