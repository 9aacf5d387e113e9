// The seed cases on real Ray heads: the same scenarios with bounds for real Ray's timings (a head takes
// 12–16 s to start on a quiet machine and 22–75 s on a loaded one; a head lost mid-job is replaced by a new one
// that must start too). The expected outcomes are unchanged: real Ray must give the same status as the emulator.
import type { Scenario, Step } from '../scenario/types.ts';
import { scenarioById } from './index.ts';

/** The cases the seed's manual tests come from. */
export const realRaySeedCases = ['C1', 'C2', 'C6', 'C7'] as const;

/** Extra seconds per wait: a head start (or restart) on a loaded machine, with room for four at once. */
const headStartSeconds = 240;

export function onRealRay(scenario: Scenario): Scenario {
  const steps = scenario.steps.map((step): Step => (step.kind === 'wait' ? { ...step, timeoutSeconds: step.timeoutSeconds + headStartSeconds } : step));
  const waits = steps.filter((s) => s.kind === 'wait').length;
  return { ...scenario, id: `${scenario.id}-real-ray`, steps, timeoutSeconds: scenario.timeoutSeconds + waits * headStartSeconds };
}

export function realRayScenarios(): Scenario[] {
  return realRaySeedCases.map((id) => {
    const scenario = scenarioById(id);
    if (!scenario) throw new Error(`no scenario ${id}`);
    return onRealRay(scenario);
  });
}
