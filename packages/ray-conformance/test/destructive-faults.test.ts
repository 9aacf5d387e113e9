/**
 * Faults that destroy a head: each scenario gets its own real head (KubeRay's
 * `ray start --head --block`) and its own emulator, started right before it and stopped
 * right after (one Ray head at a time: two on 2 loaded cores miss Ray's own deadlines).
 */
import { afterEach, it } from 'vitest';
import { runOnBoth } from '../src/conformance/compare.ts';
import type { Scenario } from '../src/conformance/scenario.ts';
import { agentKilledScenario, dashboardKilledScenario } from '../src/conformance/scenarios/faults.ts';
import type { Target } from '../src/conformance/target.ts';
import { describeRealTier, realTier } from '../src/conformance/tier.ts';
import { pollUntil } from '../src/probe/deadline.ts';
import { startEmulatorTarget } from '../src/targets/emulator.ts';
import { startRealTarget } from '../src/targets/real.ts';

const provisioning = await realTier();
const scenarios: Scenario[] = [agentKilledScenario, dashboardKilledScenario];

describeRealTier(provisioning, 'real Ray 2.58 vs emulator (destructive faults, one head each)', () => {
  let started: Target[] = [];
  afterEach(async () => {
    await Promise.all(started.map((t) => t.stop()));
    started = [];
  });

  it.each(scenarios.map((s) => [s.name, s] as const))(
    '%s',
    async (_name, scenario) => {
      const emulator = await startEmulatorTarget();
      started.push(emulator);
      const real = await startRealTarget();
      started.push(real);
      const startedAt = Date.now();
      const seen = await runOnBoth(scenario, real, emulator).finally(async () => {
        // Informational (FINDINGS.md): does `ray start --block` give up after this fault?
        const blockExited = real.head.blocking
          ? await pollUntil(async () => (real.head.blockProcessAlive() ? undefined : true), { what: 'block exit', timeoutMs: 20_000 }).then(
              () => `exited within ${Math.round((Date.now() - startedAt) / 1000)} s of the scenario start`,
              () => 'still running 20 s after the scenario',
            )
          : 'head started without --block';
        console.log(`${scenario.name}\n  ray start --block: ${blockExited}`);
      });
      const info = Object.entries(seen.real).filter(([k]) => k.startsWith('_'));
      console.log(`  real: ${JSON.stringify(Object.fromEntries(info))}`);
    },
    480_000,
  );
});
