/**
 * Real Ray vs the emulator, on one shared real head (scenarios here never destroy it).
 * Each scenario runs against both targets at once; real Ray's observations are checked
 * against FINDINGS.md, then the emulator's must equal them.
 */
import { readFile } from 'node:fs/promises';
import { realRayEnv } from '@rayjob/test-support';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listHeadProcesses } from '../src/real-head/process-table.ts';
import { listeningSockets } from '../src/real-head/listening-sockets.ts';
import { runOnBoth } from '../src/conformance/compare.ts';
import type { Scenario } from '../src/conformance/scenario.ts';
import { lifecycleScenarios } from '../src/conformance/scenarios/lifecycle.ts';
import { submitScenarios } from '../src/conformance/scenarios/submit.ts';
import { surfaceScenarios } from '../src/conformance/scenarios/surface.ts';
import { tailScenarios } from '../src/conformance/scenarios/tail.ts';
import { describeRealTier, realTier } from '../src/conformance/tier.ts';
import { startEmulatorTarget, type EmulatorTarget } from '../src/targets/emulator.ts';
import { startRealTarget, type RealTarget } from '../src/targets/real.ts';

const scenarios: Scenario[] = [...surfaceScenarios, ...submitScenarios, ...lifecycleScenarios, ...tailScenarios];
const provisioning = await realTier();

describeRealTier(provisioning, 'real Ray 2.58 vs emulator (shared head)', () => {
  let real: RealTarget | undefined;
  let emulator: EmulatorTarget | undefined;

  beforeAll(async () => {
    // Without --block: these scenarios do not depend on it, and on a loaded machine Ray's
    // --block loop often kills the head during startup (FINDINGS.md §0).
    [real, emulator] = await Promise.all([startRealTarget({ block: false }), startEmulatorTarget()]);
    console.log(`real head up in ${real.head.startupMs} ms, ${await real.head.rssMb()} MB RSS`);
  });
  afterAll(async () => {
    await Promise.all([real?.stop(), emulator?.stop()]);
    // stop() must leave no process of this head behind (job entrypoints included).
    if (real) expect(await listHeadProcesses(real.head.identity)).toEqual([]);
  });

  it('the real head listens on 127.0.0.1 only', async () => {
    if (!real) throw new Error('real head did not start');
    const sockets = await listeningSockets((await real.head.pids()).map((p) => p.pid));
    expect(sockets.length).toBeGreaterThan(3); // dashboard, GCS, agent, raylet at least
    const loopback = new Set(['127.0.0.1', '::ffff:127.0.0.1', '::1']);
    expect(sockets.filter((s) => !loopback.has(s.address))).toEqual([]);
  });

  it("the real head's raylet and GCS run with the settings every real Ray node of the tests shares (realRayEnv)", async () => {
    if (!real) throw new Error('real head did not start');
    // Ray reads RAY_<name> from its processes' environment: the C++ daemons (which keep their environ) show what
    // reached Ray. Without the shared settings, CPU cuts such as no prestarted workers would silently be lost.
    const daemons = (await real.head.pids()).filter((p) => /\/(raylet|gcs_server) /.test(`${p.cmdline} `));
    expect(daemons.map((p) => p.cmdline.split(' ')[0]?.split('/').pop()).sort()).toEqual(['gcs_server', 'raylet']);
    for (const daemon of daemons) {
      const environ = new Set((await readFile(`/proc/${daemon.pid}/environ`, 'latin1')).split('\0'));
      expect(Object.entries(realRayEnv).filter(([name, value]) => !environ.has(`${name}=${value}`))).toEqual([]);
    }
  });

  it.concurrent.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, scenario) => {
    if (!real || !emulator) throw new Error('targets did not start');
    await runOnBoth(scenario, real, emulator);
  });
});
