/**
 * The same scenarios against rayproject/ray:2.55.1 in a container, compared with the
 * emulator set to 2.55.1. Skipped (never passed) where no Docker engine exists.
 * The 2.58 facts (`check`) are not asserted here: this compares container vs emulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scenarioContext } from '../src/conformance/context.ts';
import { comparable, type Scenario } from '../src/conformance/scenario.ts';
import { lifecycleScenarios } from '../src/conformance/scenarios/lifecycle.ts';
import { submitScenarios } from '../src/conformance/scenarios/submit.ts';
import { surfaceScenarios } from '../src/conformance/scenarios/surface.ts';
import { tailScenarios } from '../src/conformance/scenarios/tail.ts';
import { dockerAvailability, rayContainerImage, startContainerTarget, type ContainerTarget } from '../src/targets/container.ts';
import { startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import type { Target } from '../src/conformance/target.ts';

const docker = await dockerAvailability();
if (docker.kind === 'absent') console.log(`skipped: ${docker.reason}`);
const scenarios: Scenario[] = [...surfaceScenarios, ...submitScenarios, ...lifecycleScenarios, ...tailScenarios];
const title = `${rayContainerImage} in a container vs emulator`;

(docker.kind === 'available' ? describe : describe.skip)(docker.kind === 'absent' ? `${title} (skipped: ${docker.reason})` : title, () => {
  let container: ContainerTarget | undefined;
  let emulator: RayEmulator | undefined;
  let emulatorTarget: Target | undefined;

  beforeAll(async () => {
    [container, emulator] = await Promise.all([startContainerTarget(), startRayEmulator({ host: '127.0.0.1', port: 0, rayVersion: '2.55.1' })]);
    const emu = emulator;
    emulatorTarget = {
      kind: 'emulator',
      url: emu.url,
      faults: { restartJobHead: () => emu.faults.restartJobHead(), killAgent: () => emu.faults.killAgent(), stopDashboard: () => emu.faults.stopDashboard() },
      stop: () => emu.stop(),
    };
  }, 400_000);
  afterAll(async () => {
    await Promise.all([container?.stop(), emulator?.stop()]);
  });

  it.concurrent.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    if (!container || !emulatorTarget) throw new Error('targets did not start');
    const [inContainer, onEmulator] = await Promise.all([scenario.run(scenarioContext(container)), scenario.run(scenarioContext(emulatorTarget))]);
    expect(comparable(onEmulator)).toEqual(comparable(inContainer));
  });
});
