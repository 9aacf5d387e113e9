// The seed cases on real Ray heads: the same scenarios with bounds for real Ray's timings (a head spends ~45
// CPU-seconds starting a dozen Python processes: under half a minute on 2 quiet cores, 2–3 minutes on a shared
// machine at load 20; a head lost mid-job is replaced by a new one that must start too). The expected outcomes are unchanged: real Ray must give the same status as the emulator.
import type { Scenario, Step } from '../scenario/types.ts';
import { scenarioById } from './index.ts';

/**
 * The cases the seed's manual tests come from. In C7 only the agent dies: on Ray 2.58 its raylet follows within
 * seconds (fate-sharing) and the node is DEAD, while `ray start --block`, GCS and the dashboard stay up and Ray's
 * status stays RUNNING (observed 2026-12-03) — the emulator's frozen head. C7 passes in ~100 s at load 7–14; at
 * load 20–30 the real head itself often fails to start (ray_client_server's fixed 30 s wait for its node).
 */
export const realRaySeedCases = ['C1', 'C2', 'C6', 'C7'] as const;

/**
 * The agents' ports pinned, as a KubeRay user on a busy node would: with a self-assigned runtime-env agent port,
 * Ray 2.58's client server waits a fixed 30 s for its own node and, on a loaded machine, exits and takes the head
 * down with it (found by the real-Ray RayCluster test; see apps/operator/test/raycluster-real-ray.test.ts).
 */
const pinnedAgentPorts = { 'runtime-env-agent-port': '52366', 'dashboard-agent-grpc-port': '52367' };

/** Extra seconds per wait: a head start (or restart) on a loaded machine. */
const headStartSeconds = 240;

export function onRealRay(scenario: Scenario): Scenario {
  // Head only: the seed's faults are all on the head, and each real worker node is another ~15 CPU-seconds of
  // Python starting (and restarting while the head registers) on 2 cores; C2's outcome does not depend on them.
  const rayJob = { ...scenario.rayJob, workers: 0, headStartParams: pinnedAgentPorts };
  const steps = scenario.steps.map((step): Step => (step.kind === 'wait' ? { ...step, timeoutSeconds: step.timeoutSeconds + headStartSeconds } : step));
  const waits = steps.filter((s) => s.kind === 'wait').length;
  return { ...scenario, id: `${scenario.id}-real-ray`, rayJob, steps, timeoutSeconds: scenario.timeoutSeconds + waits * headStartSeconds };
}

export function realRayScenarios(): Scenario[] {
  return realRaySeedCases.map((id) => {
    const scenario = scenarioById(id);
    if (!scenario) throw new Error(`no scenario ${id}`);
    return onRealRay(scenario);
  });
}
