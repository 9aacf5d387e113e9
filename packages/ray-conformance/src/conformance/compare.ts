import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';
import { scenarioContext } from './context.ts';
import { comparable, type Observations, type Scenario } from './scenario.ts';
import type { Target } from './target.ts';

/**
 * Runs a scenario on real Ray and on the emulator at the same time, checks real Ray's
 * observations against the documented facts, then requires the emulator's to be equal
 * (informational `_` keys aside). Returns both for printing.
 */
export async function runOnBoth(scenario: Scenario, real: Target, emulator: Target): Promise<{ real: Observations; emulator: Observations }> {
  const [onReal, onEmulator] = await Promise.all([scenario.run(scenarioContext(real)), scenario.run(scenarioContext(emulator))]);
  // RAYJOB_CONFORMANCE_RECORD=<file> appends every observation pair as a JSON line (for FINDINGS.md).
  const record = process.env.RAYJOB_CONFORMANCE_RECORD;
  if (record) appendFileSync(record, `${JSON.stringify({ scenario: scenario.name, [real.kind]: onReal, emulator: onEmulator })}\n`);
  scenario.check(onReal);
  expect(comparable(onEmulator), `the emulator differs from real Ray in: ${scenario.name}`).toEqual(comparable(onReal));
  return { real: onReal, emulator: onEmulator };
}
