/**
 * A real head with Ray's token auth (`RAY_AUTH_MODE=token`) vs the emulator with a token.
 * The JobHead restart runs last here: it does not destroy the head, so it shares this one.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, it } from 'vitest';
import { runOnBoth } from '../src/conformance/compare.ts';
import { authScenarios } from '../src/conformance/scenarios/auth.ts';
import { jobHeadRestartScenario } from '../src/conformance/scenarios/faults.ts';
import { describeRealTier, realTier } from '../src/conformance/tier.ts';
import { startEmulatorTarget, type EmulatorTarget } from '../src/targets/emulator.ts';
import { startRealTarget, type RealTarget } from '../src/targets/real.ts';

const provisioning = await realTier();
const authToken = randomBytes(16).toString('hex');

describeRealTier(provisioning, 'real Ray 2.58 vs emulator (token auth head)', () => {
  let real: RealTarget | undefined;
  let emulator: EmulatorTarget | undefined;

  beforeAll(async () => {
    [real, emulator] = await Promise.all([startRealTarget({ authToken, block: false }), startEmulatorTarget({ authToken })]);
  });
  afterAll(async () => {
    await Promise.all([real?.stop(), emulator?.stop()]);
  });

  it.each([...authScenarios, jobHeadRestartScenario].map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    if (!real || !emulator) throw new Error('targets did not start');
    const seen = await runOnBoth(scenario, real, emulator);
    const info = Object.entries(seen.real).filter(([k]) => k.startsWith('_'));
    if (info.length > 0) console.log(`${scenario.name}\n  real: ${JSON.stringify(Object.fromEntries(info))}`);
  });
});
