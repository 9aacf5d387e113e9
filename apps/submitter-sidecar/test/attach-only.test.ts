// Attach-only (addition H): core's builders turn it on once a Ray status was recorded, so a recreated or retried
// submitter pod never submits the job a second time to a replacement head.
import { parseTerminationMessage } from '@rayjob/core';
import { fastTiming, startRayEmulator, type RayEmulator } from '@rayjob/ray-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countingJob, startInProcess } from './support/in-process.ts';

let emulator: RayEmulator;
let seq = 0;
const id = () => `attach-${process.pid}-${++seq}`;

beforeEach(async () => {
  emulator = await startRayEmulator({ timing: fastTiming });
});
afterEach(async () => {
  await emulator.stop();
});

describe('attach-only never submits', () => {
  it.each<{ name: string; argv: string[]; extraEnv: Record<string, string> }>([
    { name: '--attach-only', argv: ['--attach-only'], extraEnv: {} },
    { name: 'RAYJOB_SUBMITTER_ATTACH_ONLY=true', argv: [], extraEnv: { RAYJOB_SUBMITTER_ATTACH_ONLY: 'true' } },
  ])('$name: an ID Ray does not know exits 6 (AttachTargetMissing), nothing submitted, and the final word says so', async ({ argv, extraEnv }) => {
    const sid = id();
    const run = startInProcess([...argv, '--', 'echo must-not-run'], { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: sid, ...extraEnv });
    const result = await run.done;
    expect(result.exitCode).toBe(6);
    expect(emulator.jobs()).toHaveLength(0);
    expect(emulator.requests().some((r) => r.method === 'POST')).toBe(false);
    const final = parseTerminationMessage(run.terminationLog());
    expect(final).toMatchObject({ submissionId: sid, exitCode: 6, reason: 'AttachTargetMissing' });
    expect(final?.lastStatus).toBeUndefined();
    expect(final?.message).toMatch(/was not found .* --attach-only forbids submitting it.*Nothing was submitted/);
    expect(run.stderr()).toContain('Nothing was submitted');
  });

  it('a job Ray knows is followed to its end as usual (exit 0)', async () => {
    const sid = id();
    const first = startInProcess(['--no-wait', '--', countingJob(5, 0.02)], { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: sid });
    expect((await first.done).exitCode).toBe(0);
    const run = startInProcess(['--attach-only', '--', 'echo ignored'], { RAY_DASHBOARD_ADDRESS: emulator.url, RAY_JOB_SUBMISSION_ID: sid });
    expect((await run.done).exitCode).toBe(0);
    expect(run.stdout()).toContain('line 5');
    expect(emulator.jobs()).toHaveLength(1);
    expect(parseTerminationMessage(run.terminationLog())).toMatchObject({ reason: 'Succeeded', lastStatus: 'SUCCEEDED' });
  });
});
