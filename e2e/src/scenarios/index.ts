// Every scenario: the status-correctness cases marked E2E, then each submission mode's lifecycle.
import type { Scenario } from '../scenario/types.ts';
import { caseScenarios } from './cases.ts';
import { lifecycleScenarios } from './lifecycles.ts';

export const scenarios: Scenario[] = [...caseScenarios, ...lifecycleScenarios];

export function scenarioById(id: string): Scenario | undefined {
  return scenarios.find((s) => s.id.toLowerCase() === id.toLowerCase());
}
