// Which scenarios a driver runs and which it skips, with the reason printed in the test output (never silently).
// A scenario that needs an ability the driver lacks (an in-process operator restart, real Ray heads) is skipped.
import type { Driver } from '../drivers/types.ts';
import type { Scenario } from '../scenario/types.ts';
import { scenarios } from './index.ts';

type Ability = NonNullable<Scenario['needs']>[number];

const whyNot: Record<Ability, string> = {
  operatorRestart: 'needs the operator stopped and started mid-job, which only a driver that owns the operator process can do (kubectl cannot)',
  realRay: 'needs real Ray heads',
};

export interface ScenarioPlan {
  run: Scenario[];
  skipped: Array<{ scenario: Scenario; reason: string }>;
}

export function planFor(abilities: Driver['abilities'], all: readonly Scenario[] = scenarios): ScenarioPlan {
  const plan: ScenarioPlan = { run: [], skipped: [] };
  for (const scenario of all) {
    const missing = (scenario.needs ?? []).filter((need) => !abilities.has(need));
    if (missing.length === 0) plan.run.push(scenario);
    else plan.skipped.push({ scenario, reason: missing.map((need) => whyNot[need]).join('; ') });
  }
  return plan;
}
