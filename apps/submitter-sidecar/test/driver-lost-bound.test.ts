// --driver-lost-after is kept to the second. After the head's DashboardAgent dies the log stream closes at once on
// every reconnect, whose backoff grows to seconds; liveness must still be judged on its own timer, so the run ends
// within 1 s of the bound (counted from the moment the node turns DEAD), not at the next reconnect.
import { parseTerminationMessage } from '@rayjob/core';
import { fastTiming, startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countingJob, startInProcess } from './support/in-process.ts';
import { waitFor } from './support/poll.ts';

let emulator: RayEmulator;
beforeEach(async () => {
  emulator = await startRayEmulator({ timing: fastTiming });
});
afterEach(async () => {
  await emulator.stop();
});

describe('--driver-lost-after is kept to the second', () => {
  it('agent killed, the log stream closing on every reconnect: exit 5 within 1 s of the bound', async () => {
    const boundMs = 5_000;
    const sid = `driver-bound-${process.pid}`;
    const run = startInProcess(['--driver-lost-after', '5s', '--', countingJob(2_000, 0.05)], {
      RAY_DASHBOARD_ADDRESS: emulator.url,
      RAY_JOB_SUBMISSION_ID: sid,
    });
    await waitFor(() => run.stdout().includes('line 2\n'), 'the job to print', 15_000);
    const killedAt = Date.now();
    await emulator.faults.killAgent();
    const result = await run.done;
    const elapsed = Date.now() - killedAt;
    expect(result.exitCode).toBe(5);
    expect(run.stderr()).toContain('reconnecting'); // the stream did close repeatedly meanwhile
    // The node turns DEAD fastTiming.nodeDeathDelayMs after the kill; the bound counts from then.
    expect(elapsed).toBeGreaterThanOrEqual(boundMs);
    expect(elapsed).toBeLessThanOrEqual(fastTiming.nodeDeathDelayMs + boundMs + 1_000);
    expect(parseTerminationMessage(run.terminationLog())).toMatchObject({ reason: 'DriverLost', lastStatus: 'RUNNING' });
  });
});
