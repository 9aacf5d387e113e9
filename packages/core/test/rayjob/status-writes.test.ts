/**
 * Which decided changes are written (#27: API writes per RayJob). Every change this operator decides is written
 * (docs/compatibility.md row 15), except Ray's commentary while the RayJob stays Running — `message`,
 * `rayJobInfo`, a condition's wording — which rides along with the next write, as KubeRay holds it back
 * (kuberay-rayjob.md 2.2). HTTPMode's accepted submission is written whole at once (H8-1): PENDING with the
 * conditions that say so, so Ray's first report of the job PENDING costs no write.
 */
import { describe, expect, it } from 'vitest';
import { decide, type Decision } from '../../src/rayjob/decide.ts';
import type { DecisionInput } from '../../src/rayjob/inputs.ts';
import type { RayJob, RayJobResourceStatus } from '../../src/schema/index.ts';
import { at, DRIVER_NODE, found, healthyCluster, inState, JOB_ID, makeInput, ms, submitterJob } from './fixtures.ts';

type Partial_ = Partial<DecisionInput> & { rayJob: RayJob };

/** The RayJob as the CR would hold it after `status` was written. */
const withStatus = (rayJob: RayJob, status: RayJobResourceStatus): RayJob => ({ ...rayJob, status }) as RayJob;
const condition = (s: RayJobResourceStatus | undefined, type: string) => s?.conditions?.find((c) => c.type === type);
const alive = { kind: 'alive', nodeId: DRIVER_NODE } as const;
const running = (extra: Partial<Partial_> = {}): Partial_ => ({
  rayJob: inState('Running', 'K8sJobMode'),
  ...healthyCluster(),
  submitterJob: submitterJob(),
  dashboard: found('RUNNING'),
  driverNode: alive,
  ...extra,
});

/** Decides `first`, takes its status as written, then decides `next` on that RayJob. */
function thenDecide(first: Partial_, next: Partial<Partial_>): { first: Decision; next: Decision } {
  const d1 = decide(makeInput(first));
  const d2 = decide(makeInput({ ...first, ...next, rayJob: withStatus(next.rayJob ?? first.rayJob, d1.status) }));
  return { first: d1, next: d2 };
}

describe('while Running, Ray\'s commentary alone waits for the next write', () => {
  const noStartTime = { dashboard: found('RUNNING', { startTime: undefined }) };
  it.each<[string, Partial<Partial_>, Partial<Partial_>, boolean]>([
    ['Ray\'s message alone', {}, { dashboard: found('RUNNING', { message: 'Job is still running.' }) }, false],
    ['Ray\'s start time first reported (rayJobInfo alone)', noStartTime, { dashboard: found('RUNNING') }, false],
    ['a condition\'s wording alone (the driver node checked ALIVE, then not checked)', {}, { driverNode: { kind: 'not-checked' } }, false],
    ['Ray\'s next status, carrying its message and times', {}, { dashboard: found('SUCCEEDED', { message: 'Job finished.', endTime: ms(50) }) }, true],
    ['the status-check timer starting', {}, { dashboard: { kind: 'unreachable', reason: 'timeout' } }, true],
  ])('%s: written %s', (_label, base, change, written) => {
    // The first decision's status is what the CR holds; decided again on the same observation, nothing is written.
    expect(thenDecide(running(base), {}).next.statusChanged, 'a settled RayJob decided again').toBe(false);
    expect(thenDecide(running(base), change).next.statusChanged).toBe(written);
  });

  it('the held-back message is in the decided status, so the next write carries it', () => {
    const { next } = thenDecide(running(), { dashboard: found('RUNNING', { message: 'Job is still running.' }) });
    expect(next.status.message).toBe('Job is still running.');
  });

  it('outside Running a message change is written (ValidationFailed with another reason to refuse the spec)', () => {
    const rayJob = inState('ValidationFailed', 'K8sJobMode', { reason: 'ValidationFailed', message: 'an older complaint' }, { suspend: true });
    const d = decide(makeInput({ rayJob }));
    expect(d.status.jobDeploymentStatus).toBe('ValidationFailed');
    expect(d.statusChanged).toBe(true);
  });
});

describe('HTTPMode: the accepted submission is written whole (H8-1)', () => {
  const submitting = (): Partial_ => ({ rayJob: inState('Running', 'HTTPMode', { jobStatus: '' }), ...healthyCluster(), dashboard: { kind: 'not-found' }, now: at(10) });

  it('onAccept: PENDING with JobSubmitted True and JobRunning JobPending, and their events', () => {
    const d = decide(makeInput(submitting()));
    expect(d.actions.map((a) => a.type)).toEqual(['submitRayJob']);
    const accepted = d.onAccept?.status;
    expect(accepted?.jobStatus).toBe('PENDING');
    expect(condition(accepted, 'JobSubmitted')).toMatchObject({ status: 'True', reason: 'AcceptedByRay' });
    expect(condition(accepted, 'JobRunning')).toMatchObject({ status: 'False', reason: 'JobPending' });
    expect(d.onAccept?.conditionEvents.map((e) => e.reason)).toEqual(expect.arrayContaining(['AcceptedByRay', 'JobPending']));
    // Not submitted yet as far as the decided status goes: that is what a refused submission leaves.
    expect(d.status.jobStatus).toBe('');
    expect(condition(d.status, 'JobSubmitted')?.status).toBe('Unknown');
  });

  it('Ray\'s first report of the job PENDING writes nothing more; RUNNING writes with Ray\'s message and times', () => {
    const d = decide(makeInput(submitting()));
    const crAfterAccept = withStatus(submitting().rayJob, d.onAccept?.status ?? {});
    const lookMemory = { rayJobSeen: { jobId: JOB_ID, status: 'PENDING' as const } };
    const pending = decide(makeInput({ ...submitting(), rayJob: crAfterAccept, dashboard: found('PENDING'), memory: lookMemory, now: at(11) }));
    expect(pending.statusChanged, JSON.stringify(pending.status.conditions)).toBe(false);
    const runningNow = decide(makeInput({ ...submitting(), rayJob: crAfterAccept, dashboard: found('RUNNING'), driverNode: alive, memory: lookMemory, now: at(12) }));
    expect(runningNow.statusChanged).toBe(true);
    expect(runningNow.status).toMatchObject({ jobStatus: 'RUNNING', message: 'Job is running.', rayJobInfo: { startTime: expect.any(String) } });
  });

  it('no onAccept once the CR records a Ray status (nothing new to record)', () => {
    const d = decide(makeInput({ ...submitting(), rayJob: inState('Running', 'HTTPMode', { jobStatus: 'PENDING' }) }));
    expect(d.onAccept).toBeUndefined();
  });
});
