import { describe, expect, it } from 'vitest';
import type { Job, Pod } from '../../src/kube-objects/types.ts';
import { backoffDelayMs, decideJob, trackingFinalizer } from '../../src/job-controller/decide.ts';
import { ttlVerdict } from '../../src/job-controller/ttl-after-finished.ts';
import type { JobObservation } from '../../src/job-controller/decide.ts';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const timing = { backoffBaseMs: 10_000, backoffMaxMs: 360_000 };

function job(spec: Partial<Job['spec']> = {}, status: Job['status'] = {}): Job {
  return {
    metadata: { name: 'j', namespace: 'ns', uid: 'job-uid' },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'x' }] } }, backoffLimit: 6, ...spec },
    status: { startTime: new Date(t0).toISOString(), ...status },
  };
}

function pod(name: string, phase: NonNullable<Pod['status']>['phase'], extra: { exitCode?: number; conditions?: Array<{ type: string; status: 'True' }>; deleting?: boolean; finalizer?: boolean } = {}): Pod {
  return {
    metadata: {
      name, namespace: 'ns', uid: `uid-${name}`,
      finalizers: extra.finalizer === false ? [] : [trackingFinalizer],
      ...(extra.deleting === true ? { deletionTimestamp: new Date(t0 + 1000).toISOString() } : {}),
    },
    spec: { containers: [{ name: 'main' }] },
    status: {
      phase,
      conditions: extra.conditions,
      containerStatuses: extra.exitCode === undefined ? [] : [{
        name: 'main', image: 'x', imageID: '', ready: false, restartCount: 0, lastState: {},
        state: { terminated: { exitCode: extra.exitCode, finishedAt: new Date(t0 + 2000).toISOString() } },
      }],
    },
  };
}

const observe = (j: Job, pods: Pod[], over: Partial<JobObservation> = {}): ReturnType<typeof decideJob> =>
  decideJob({ job: j, pods, vanished: [], now: t0 + 5000, lastFailureAt: undefined, timing, ...over });

/** Runs the three-step accounting (record, drop finalizers, count) until the decision is stable. */
function settle(j: Job, pods: Pod[], now = t0 + 5000): { job: Job; decision: ReturnType<typeof decideJob> } {
  let current = j;
  let live = pods;
  let decision = observe(current, live, { now });
  for (let round = 0; round < 6; round += 1) {
    current = { ...current, status: decision.status };
    live = live
      .filter((p) => !decision.deletePods.includes(p.metadata.name ?? '') || p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed')
      .map((p) => decision.removeFinalizers.includes(p.metadata.name ?? '') ? { ...p, metadata: { ...p.metadata, finalizers: [] } } : p);
    decision = observe(current, live, { now });
  }
  return { job: current, decision };
}

const conditionTypes = (j: Job): string[] => (j.status?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type);

describe('decideJob', () => {
  it('creates the first pod for a new Job and sets startTime', () => {
    const d = observe(job({}, {}), [], { now: t0 });
    expect(d.createPods).toBe(1);
    expect(d.status.startTime).toBe(new Date(t0).toISOString());
    expect(d.status.active).toBe(1);
  });

  it('does not create a second pod while the first is expected but unseen', () => {
    expect(observe(job(), [], { expectedCreations: 1 }).createPods).toBe(0);
  });

  it('records a finished pod as uncounted first, then counts it after its finalizer is gone', () => {
    const first = observe(job(), [pod('a', 'Succeeded', { exitCode: 0 })]);
    expect(first.status.uncountedTerminatedPods?.succeeded).toEqual(['uid-a']);
    expect(first.status.succeeded).toBe(0);
    expect(first.removeFinalizers).toEqual([]);
    const second = observe({ ...job(), status: first.status }, [pod('a', 'Succeeded', { exitCode: 0 })]);
    expect(second.removeFinalizers).toEqual(['a']);
    const third = observe({ ...job(), status: second.status }, [pod('a', 'Succeeded', { exitCode: 0, finalizer: false })]);
    expect(third.status.succeeded).toBe(1);
    expect(third.status.uncountedTerminatedPods?.succeeded).toEqual([]);
  });

  it('sets SuccessCriteriaMet then Complete with completionTime once the pod succeeded', () => {
    const { job: done } = settle(job(), [pod('a', 'Succeeded', { exitCode: 0 })]);
    expect(conditionTypes(done)).toEqual(['SuccessCriteriaMet', 'Complete']);
    const complete = done.status?.conditions?.find((c) => c.type === 'Complete');
    expect(complete).toMatchObject({ reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' });
    expect(done.status?.completionTime).toBeDefined();
    expect(done.status?.succeeded).toBe(1);
  });

  it.each([
    { backoffLimit: 0, failures: 1, failed: true },
    { backoffLimit: 1, failures: 1, failed: false },
    { backoffLimit: 1, failures: 2, failed: true },
  ])('backoffLimit $backoffLimit with $failures failed pods: Job failed = $failed', ({ backoffLimit, failures, failed }) => {
    const pods = Array.from({ length: failures }, (_, i) => pod(`p${i}`, 'Failed', { exitCode: 1 }));
    const { job: out } = settle(job({ backoffLimit }), pods);
    expect(out.status?.failed).toBe(failures);
    if (failed) {
      expect(conditionTypes(out)).toEqual(['FailureTarget', 'Failed']);
      expect(out.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject({ reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' });
      expect(out.status?.completionTime).toBeUndefined();
    } else {
      expect(conditionTypes(out)).toEqual([]);
    }
  });

  it('keeps FailureTarget without Failed while an active pod is still terminating', () => {
    const pods = [pod('a', 'Failed', { exitCode: 1 }), pod('b', 'Running', { deleting: true })];
    const j = job({ backoffLimit: 0, podFailurePolicy: { rules: [{ action: 'Count', onExitCodes: { operator: 'In', values: [1] } }] } });
    const { job: out } = settle(j, pods);
    expect(conditionTypes(out)).toEqual(['FailureTarget']);
  });

  it.each([
    { name: 'FailJob on exit code 42', rule: { action: 'FailJob' as const, onExitCodes: { containerName: 'main', operator: 'In' as const, values: [42] } }, exitCode: 42, conditions: undefined,
      expected: { reason: 'PodFailurePolicy', message: 'Container main for pod ns/a failed with exit code 42 matching FailJob rule at index 0' } },
    { name: 'FailJob NotIn', rule: { action: 'FailJob' as const, onExitCodes: { operator: 'NotIn' as const, values: [1, 2] } }, exitCode: 3, conditions: undefined,
      expected: { reason: 'PodFailurePolicy', message: 'Container main for pod ns/a failed with exit code 3 matching FailJob rule at index 0' } },
    { name: 'FailJob on DisruptionTarget', rule: { action: 'FailJob' as const, onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }, exitCode: 143, conditions: [{ type: 'DisruptionTarget', status: 'True' as const }],
      expected: { reason: 'PodFailurePolicy', message: 'Pod ns/a has condition DisruptionTarget matching FailJob rule at index 0' } },
  ])('podFailurePolicy $name fails the Job at once', ({ rule, exitCode, conditions, expected }) => {
    const { job: out } = settle(job({ podFailurePolicy: { rules: [rule] } }), [pod('a', 'Failed', { exitCode, conditions })]);
    expect(out.status?.conditions?.find((c) => c.type === 'FailureTarget')).toMatchObject(expected);
    expect(out.status?.conditions?.find((c) => c.type === 'Failed')).toMatchObject(expected);
  });

  it('podFailurePolicy Ignore on DisruptionTarget does not count the pod and replaces it', () => {
    const rules = [{ action: 'Ignore' as const, onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }];
    const evicted = pod('a', 'Failed', { exitCode: 143, conditions: [{ type: 'DisruptionTarget', status: 'True' }] });
    const { job: out, decision } = settle(job({ backoffLimit: 0, podFailurePolicy: { rules } }), [evicted]);
    expect(out.status?.failed).toBe(0);
    expect(conditionTypes(out)).toEqual([]);
    expect(decision.createPods).toBe(1);
  });

  it('without a podFailurePolicy a pod deleted while running counts as failed', () => {
    const { job: out } = settle(job({ backoffLimit: 0 }), [pod('a', 'Running', { deleting: true })]);
    expect(out.status?.failed).toBe(1);
    // Failed waits until the terminating pod is gone.
    expect(conditionTypes(out)).toEqual(['FailureTarget']);
    expect(conditionTypes(settle(out, []).job)).toEqual(['FailureTarget', 'Failed']);
  });

  it('with a podFailurePolicy a deleted pod counts only once it is Failed', () => {
    const rules = [{ action: 'Count' as const, onExitCodes: { operator: 'In' as const, values: [7] } }];
    const d = observe(job({ backoffLimit: 0, podFailurePolicy: { rules } }), [pod('a', 'Running', { deleting: true })]);
    expect(d.status.uncountedTerminatedPods?.failed).toEqual([]);
    expect(d.status.terminating).toBe(1);
  });

  it('counts a pod that vanished without reaching a terminal phase as failed', () => {
    const gone = pod('a', 'Running');
    const d = observe(job({ backoffLimit: 0 }), [], { vanished: [gone] });
    expect(d.status.uncountedTerminatedPods?.failed).toEqual(['uid-a']);
    const next = observe({ ...job({ backoffLimit: 0 }), status: d.status }, [], { vanished: [gone] });
    expect(next.status.failed).toBe(1);
    expect(next.forgetVanished).toEqual(['uid-a']);
  });

  it('waits the back-off after a failure before creating the replacement', () => {
    const j = job({ backoffLimit: 3 }, { failed: 2 });
    const early = observe(j, [], { lastFailureAt: t0, now: t0 + 5000 });
    expect(early.createPods).toBe(0);
    expect(early.requeueAfterMs).toBe(backoffDelayMs(2, timing) - 5000);
    const late = observe(j, [], { lastFailureAt: t0, now: t0 + 20_000 });
    expect(late.createPods).toBe(1);
  });

  it.each([[1, 10_000], [2, 20_000], [3, 40_000], [6, 320_000], [7, 360_000], [30, 360_000]])('back-off after %i failures is %i ms', (failures, delay) => {
    expect(backoffDelayMs(failures, timing)).toBe(delay);
  });

  it('fails a Job past activeDeadlineSeconds with DeadlineExceeded and deletes its active pod', () => {
    const j = job({ activeDeadlineSeconds: 3 });
    const d = observe(j, [pod('a', 'Running')], { now: t0 + 3000 });
    expect(d.deletePods).toEqual(['a']);
    expect(d.status.conditions?.find((c) => c.type === 'FailureTarget')).toMatchObject({ reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' });
    expect(conditionTypes({ ...j, status: d.status })).toEqual(['FailureTarget']);
    const after = observe({ ...j, status: d.status }, [], { now: t0 + 4000 });
    expect(conditionTypes({ ...j, status: after.status })).toEqual(['FailureTarget', 'Failed']);
  });

  it('asks to be requeued at the deadline before it passes', () => {
    expect(observe(job({ activeDeadlineSeconds: 10 }), [pod('a', 'Running')], { now: t0 + 4000 }).requeueAfterMs).toBe(6000);
  });

  it('a suspended Job deletes its active pods and says Suspended', () => {
    const d = observe(job({ suspend: true }), [pod('a', 'Running')]);
    expect(d.deletePods).toEqual(['a']);
    expect(d.status.conditions?.find((c) => c.type === 'Suspended')).toMatchObject({ status: 'True', reason: 'JobSuspended' });
    expect(d.createPods).toBe(0);
  });

  it('counts ready pods', () => {
    const ready = pod('a', 'Running', { conditions: [{ type: 'Ready', status: 'True' }] });
    expect(observe(job(), [ready]).status).toMatchObject({ active: 1, ready: 1 });
  });

  it('OnFailure: container restarts of active pods count against the backoff limit', () => {
    const running = pod('a', 'Running');
    running.status!.containerStatuses = [{ name: 'main', image: 'x', imageID: '', ready: true, restartCount: 2, state: { running: {} }, lastState: {} }];
    const j = job({ backoffLimit: 2 });
    j.spec.template.spec.restartPolicy = 'OnFailure';
    const d = observe(j, [running]);
    expect(d.status.conditions?.find((c) => c.type === 'FailureTarget')?.reason).toBe('BackoffLimitExceeded');
    expect(d.deletePods).toEqual(['a']);
  });
});

describe('ttlVerdict', () => {
  const finished = (ttl: number | undefined): Job => job({ ttlSecondsAfterFinished: ttl }, { conditions: [{ type: 'Complete', status: 'True', lastTransitionTime: new Date(t0).toISOString() }] });
  it.each([
    { name: 'no ttl', j: finished(undefined), now: t0 + 99_000, verdict: { action: 'none' } },
    { name: 'before expiry', j: finished(10), now: t0 + 4000, verdict: { action: 'wait', ms: 6000 } },
    { name: 'at expiry', j: finished(10), now: t0 + 10_000, verdict: { action: 'delete' } },
    { name: 'not finished', j: job({ ttlSecondsAfterFinished: 0 }), now: t0, verdict: { action: 'none' } },
  ])('$name', ({ j, now, verdict }) => {
    expect(ttlVerdict(j, now)).toEqual(verdict);
  });
});
