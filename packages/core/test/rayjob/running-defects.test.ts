/**
 * Issue 8's four defects, each built from the input the issue gives, each failing on the code before the fix:
 * (1) a stop that fails once is retried; (2) evidence that survives the head beats the deadline; (3) rule 1's
 * timers come first; (4) a job seen and now unknown is lost with its head, and no submitter submits it again.
 */
import { describe, expect, it } from 'vitest';
import {
  formatTerminationMessage, messages, needsDashboardQuery, type Container, type Decision, type DecisionInput, type OperatorMemory, type RayJob,
} from '../../src/index.ts';
import { actionTypes, at, found, healthyCluster, inState, iso, JOB_ID, ms, run, submitterJob, submitterPod } from './fixtures.ts';

/** The RayJob as the next reconcile sees it: the status the decision wrote. */
const afterWrite = (rayJob: RayJob, d: Decision): RayJob => ({ ...rayJob, status: d.status });
const envOf = (c: Container | undefined) => Object.fromEntries((c?.env ?? []).map((e) => [e.name, e.value]));
const createdContainer = (d: Decision): Container | undefined => {
  const create = d.actions.find((a) => a.type === 'createSubmitterJob');
  return create?.type === 'createSubmitterJob' ? create.job.spec?.template.spec?.containers?.[0] : undefined;
};

describe('defect 1: a stop that fails once is retried (addition C)', () => {
  const scenarios: Array<{ name: string; first: () => Partial<DecisionInput> & { rayJob: RayJob }; reason: string; later: number }> = [
    {
      name: '(a) HTTPMode, driver node lost since t0+60, Ray answers RUNNING on DEAD n1 at t0+100',
      first: () => ({
        rayJob: inState('Running', 'HTTPMode'),
        ...healthyCluster(),
        dashboard: found('RUNNING', { driverNodeId: 'n1' }),
        driverNode: { kind: 'dead', nodeId: 'n1' },
        memory: { driverNodeLostSince: { jobId: JOB_ID, nodeId: 'n1', since: at(60).toISOString() } },
        now: at(100),
      }),
      reason: 'JobDeploymentStatusTransitionGracePeriodExceeded',
      later: 103,
    },
    {
      name: '(b) activeDeadlineSeconds 30, CR jobStatus "", the first RUNNING answer arrives at the deadline',
      first: () => ({
        rayJob: inState('Running', 'K8sJobMode', { jobStatus: '' }, { activeDeadlineSeconds: 30 }),
        ...healthyCluster(),
        submitterJob: submitterJob(),
        dashboard: found('RUNNING'),
        driverNode: { kind: 'alive', nodeId: 'a1b2c3d4e5f6' },
        now: at(30),
      }),
      reason: 'DeadlineExceeded',
      later: 33,
    },
  ];

  it.each(scenarios)('$name: Failed with one stop, then a stop on every reconcile until Ray acknowledges', ({ first, reason, later }) => {
    const input = first();
    const d1 = run(input);
    expect(d1.status).toMatchObject({ jobDeploymentStatus: 'Failed', reason });
    expect(actionTypes(d1).filter((t) => t === 'stopRayJob')).toHaveLength(1);

    // The stop failed (no acknowledgement in memory); Ray still says RUNNING.
    const failedRayJob = afterWrite(input.rayJob, d1);
    expect(needsDashboardQuery(failedRayJob, d1.memory)).toBe(true);
    const d2 = run({ ...input, rayJob: failedRayJob, memory: d1.memory, now: at(later) });
    expect(d2.status.jobDeploymentStatus).toBe('Failed');
    expect(actionTypes(d2)).toContain('stopRayJob');
    expect(d2.requeueAfterSeconds).toBe(3);

    // Ray acknowledges: no more stops; once Ray reports the job terminal there is nothing left to look at.
    const acknowledged: OperatorMemory = { ...d2.memory, stopAcknowledged: { jobId: JOB_ID } };
    const d3 = run({ ...input, rayJob: failedRayJob, memory: acknowledged, now: at(later + 3) });
    expect(actionTypes(d3)).not.toContain('stopRayJob');
    const stopped = { ...input, rayJob: failedRayJob, memory: acknowledged, dashboard: found('STOPPED', { endTime: ms(later + 4) }), now: at(later + 33) };
    const d4 = run(stopped);
    expect(actionTypes(d4)).not.toContain('stopRayJob');
    // Nothing left to ask once no submitter is left that could submit the job again.
    const submitterDone = input.submitterJob ? { submitterJob: submitterJob({ type: 'Complete', at: later + 5 }) } : {};
    expect(needsDashboardQuery(afterWrite(failedRayJob, d4), d4.memory)).toBe(!!input.submitterJob);
    const d5 = run({ ...stopped, ...submitterDone });
    expect(needsDashboardQuery(afterWrite(failedRayJob, d5), d5.memory)).toBe(false);
  });
});

describe('defect 2: evidence that survives the head beats the deadline (additions A + E)', () => {
  const input = (dashboard: DecisionInput['dashboard']) => ({
    rayJob: inState('Running', 'K8sJobMode', { jobStatus: 'RUNNING' }, { activeDeadlineSeconds: 150 }),
    ...healthyCluster(),
    submitterJob: submitterJob({ type: 'Complete', at: 100 }),
    submitterPods: [submitterPod(formatTerminationMessage({
      kind: 'rayjob.io/submitter-result', version: 1, submissionId: JOB_ID, lastStatus: 'SUCCEEDED', exitCode: 0, reason: 'Succeeded', endTime: ms(99),
    }), 100)],
    dashboard,
    now: at(220),
  });

  it.each([
    ['not found', { kind: 'not-found' } as const],
    ['unreachable', { kind: 'unreachable', reason: 'connect ECONNREFUSED' } as const],
  ])('the dashboard says %s at t0+220: Complete/SUCCEEDED, judged by the recorded end time t0+99', (_n, dashboard) => {
    const d = run(input(dashboard));
    expect(d.status).toMatchObject({ jobDeploymentStatus: 'Complete', jobStatus: 'SUCCEEDED', message: messages.fromTerminationMessage('SUCCEEDED') });
    expect(d.status.reason).toBeUndefined();
    expect(actionTypes(d)).toEqual([]);
  });

  it('a recorded end time after the deadline does not excuse it', () => {
    const late = { ...input({ kind: 'not-found' }), submitterPods: [submitterPod(formatTerminationMessage({
      kind: 'rayjob.io/submitter-result', version: 1, submissionId: JOB_ID, lastStatus: 'SUCCEEDED', exitCode: 0, reason: 'Succeeded', endTime: ms(160),
    }), 161)], submitterJob: submitterJob({ type: 'Complete', at: 161 }) };
    expect(run(late).status).toMatchObject({ jobDeploymentStatus: 'Failed', reason: 'DeadlineExceeded' });
  });
});

describe('defect 3: rule 1\'s timers are judged first', () => {
  it('backoffLimit 2, jobStatus "", checks failing for 493 s, submitter Job Failed, dashboard unreachable: JobStatusCheckTimeoutExceeded, never retried (C13)', () => {
    const d = run({
      rayJob: inState('Running', 'K8sJobMode', { jobStatus: '', jobStatusCheckFailureStartTime: iso(107) }, { backoffLimit: 2 }),
      ...healthyCluster(),
      submitterJob: submitterJob({ type: 'Failed', at: 550, reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }),
      dashboard: { kind: 'unreachable', reason: 'connect ECONNREFUSED' },
      now: at(600),
    });
    expect(d.status).toMatchObject({ jobDeploymentStatus: 'Failed', reason: 'JobStatusCheckTimeoutExceeded', failed: 1 });
    expect(d.status.message).toBe(messages.statusCheckTimeout(at(107), 300));
  });

  it('the status-check timeout also wins over the SidecarMode head-pod rule and the two-head-pods wait', () => {
    for (const headPods of [[], [podStub(), podStub()]]) {
      const d = run({
        rayJob: inState('Running', 'SidecarMode', { jobStatusCheckFailureStartTime: iso(0) }),
        ...healthyCluster(),
        headPods,
        dashboard: { kind: 'unreachable', reason: 'HTTP 503' },
        now: at(300),
      });
      expect(d.status.reason).toBe('JobStatusCheckTimeoutExceeded');
    }
  });
});

describe('defect 4: a job seen and now unknown is lost with its head; no submitter submits it again (addition H)', () => {
  const running = (status: Record<string, unknown> = {}, mode: 'K8sJobMode' | 'HTTPMode' = 'K8sJobMode') => inState('Running', mode, status);

  it.each([
    ['K8sJobMode, CR RUNNING, submitter Job missing', () => ({ rayJob: running(), submitterJob: undefined }), 'RUNNING'],
    ['K8sJobMode, CR "", memory says seen PENDING, submitter missing', () => ({ rayJob: running({ jobStatus: '' }), submitterJob: undefined, memory: { rayJobSeen: { jobId: JOB_ID, status: 'PENDING' } } }), 'PENDING'],
    ['HTTPMode, CR RUNNING: not submitted again over HTTP', () => ({ rayJob: running({}, 'HTTPMode') }), 'RUNNING'],
    ['HTTPMode, CR "", the submission Ray accepted remembered as seen PENDING (the head lost before the next look): not submitted again', () => ({ rayJob: running({ jobStatus: '' }, 'HTTPMode'), memory: { rayJobSeen: { jobId: JOB_ID, status: 'PENDING' } } }), 'PENDING'],
  ] as const)('%s, dashboard "not found": the head-lost verdict, the lost job recorded FAILED, nothing created or submitted', (_n, setup, lastSeen) => {
    const d = run({ ...healthyCluster(), dashboard: { kind: 'not-found' }, ...setup() });
    expect(d.status).toMatchObject({ jobDeploymentStatus: 'Failed', jobStatus: 'FAILED', reason: 'AppFailed', message: messages.headLost(JOB_ID, lastSeen) });
    expect(actionTypes(d)).not.toContain('createSubmitterJob');
    expect(actionTypes(d)).not.toContain('submitRayJob');
  });

  it('K8sJobMode, CR RUNNING, dashboard "not found" while the submitter still runs: wait for it (C6\'s verdict comes once it finishes), nothing created', () => {
    const d = run({ rayJob: running(), ...healthyCluster(), submitterJob: submitterJob(), dashboard: { kind: 'not-found' } });
    expect(d.status).toMatchObject({ jobDeploymentStatus: 'Running', jobStatus: 'RUNNING' });
    expect(actionTypes(d)).toEqual([]);
  });

  it.each([
    ['STOPPED', 'not found', { kind: 'not-found' } as const],
    ['SUCCEEDED', 'not found', { kind: 'not-found' } as const],
    ['STOPPED', 'unreachable', { kind: 'unreachable', reason: 'connect ECONNREFUSED' } as const],
    ['SUCCEEDED', 'unreachable', { kind: 'unreachable', reason: 'connect ECONNREFUSED' } as const],
  ])('the CR records %s, the dashboard says %s, the submitter Job is missing: no recreate, the recorded status stands', (jobStatus, _n, dashboard) => {
    const d = run({ rayJob: running({ jobStatus, message: `Job is ${jobStatus.toLowerCase()}.` }), ...healthyCluster(), submitterJob: undefined, dashboard });
    expect(actionTypes(d)).not.toContain('createSubmitterJob');
    expect(d.status).toMatchObject({ jobDeploymentStatus: 'Complete', jobStatus });
  });

  it.each([
    ['Ray reports RUNNING', found('RUNNING'), { jobStatus: 'RUNNING' }, {}],
    ['the dashboard is unreachable, CR RUNNING', { kind: 'unreachable', reason: 'HTTP 503' } as const, { jobStatus: 'RUNNING' }, {}],
    ['Ray reports PENDING, CR ""', found('PENDING', { driverNodeId: undefined }), { jobStatus: '' }, {}],
    ['unreachable, CR "", but memory says seen', { kind: 'unreachable', reason: 'HTTP 503' } as const, { jobStatus: '' }, { rayJobSeen: { jobId: JOB_ID, status: 'RUNNING' as const } }],
  ])('the submitter Job is missing and %s: recreated attach-only', (_n, dashboard, status, memory) => {
    const d = run({ rayJob: running(status), ...healthyCluster(), submitterJob: undefined, dashboard, memory, driverNode: { kind: 'alive', nodeId: 'a1b2c3d4e5f6' } });
    expect(actionTypes(d)).toContain('createSubmitterJob');
    expect(envOf(createdContainer(d)).RAYJOB_SUBMITTER_ATTACH_ONLY).toBe('true');
  });

  it('never seen, not found, submitter Job missing: recreated without attach-only (it may not have submitted yet)', () => {
    const d = run({ rayJob: running({ jobStatus: '' }), ...healthyCluster(), submitterJob: undefined, dashboard: { kind: 'not-found' } });
    expect(actionTypes(d)).toContain('createSubmitterJob');
    expect(envOf(createdContainer(d)).RAYJOB_SUBMITTER_ATTACH_ONLY).toBeUndefined();
  });

  it('a submitter pod retried by the Job controller submitted the job again to a replacement head: the second run is stopped', () => {
    const d = run({
      rayJob: running({ rayJobInfo: { startTime: iso(5) } }),
      ...healthyCluster(),
      submitterJob: submitterJob(),
      dashboard: found('RUNNING', { startTime: ms(200) }),
      driverNode: { kind: 'alive', nodeId: 'a1b2c3d4e5f6' },
      now: at(203),
    });
    expect(d.status).toMatchObject({ jobDeploymentStatus: 'Failed', reason: 'AppFailed', message: messages.resubmitted(JOB_ID, at(5), at(200)) });
    expect(actionTypes(d)).toEqual(['stopRayJob']);
  });

  it('the recorded start time has whole seconds: the same run, reported with milliseconds, is not a resubmission', () => {
    const d = run({ rayJob: running({ rayJobInfo: { startTime: iso(5) } }), ...healthyCluster(), submitterJob: submitterJob(), dashboard: found('RUNNING', { startTime: ms(5) + 999 }), driverNode: { kind: 'alive', nodeId: 'a1b2c3d4e5f6' } });
    expect(d.status.jobDeploymentStatus).toBe('Running');
  });

  it('memory remembers the job was seen, so a lost status write cannot turn "not found" into a new submission', () => {
    const d = run({ rayJob: running({ jobStatus: '' }), ...healthyCluster(), submitterJob: submitterJob(), dashboard: found('PENDING', { driverNodeId: undefined }) });
    expect(d.memory.rayJobSeen).toEqual({ jobId: JOB_ID, status: 'PENDING' });
  });
});

function podStub() {
  return { metadata: { name: 'h', labels: { 'ray.io/node-type': 'head' } }, status: { containerStatuses: [] } } as NonNullable<DecisionInput['headPods']>[number];
}
