// The table the status-correctness cases (status-correctness-*.test.ts) are written in: each case runs one decision
// and asserts the whole of it (deployment and job status, reason, exact message, actions, requeue time).
import { describe, expect, it } from 'vitest';
import { type Decision, type DecisionInput, type RayJob } from '../../src/index.ts';
import { actionTypes, DASHBOARD, inState, iso, JOB_ID, run } from './fixtures.ts';

interface Expected {
  deployment: string;
  jobStatus?: string;
  reason?: string | undefined;
  message?: string | undefined;
  actions: string[];
  requeue: number | undefined;
}

export interface StatusCorrectnessCase {
  id: string;
  behaviour: string;
  input: () => Partial<DecisionInput> & { rayJob: RayJob };
  expected: Expected;
  also?: (d: Decision) => void;
}

export const finishedTimeoutMessage = (finishedAt: number) =>
  `The RayJob submitter finished at ${iso(finishedAt).replace('T', ' ').replace('Z', '')} but the ray job did not reach terminal state within 30s`;
export const backoffFailed = { type: 'Failed' as const, reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' };
export const running = (spec: Record<string, unknown> = {}, status: Record<string, unknown> = {}) => inState('Running', 'K8sJobMode', status, spec);

export function runStatusCorrectnessCases(cases: StatusCorrectnessCase[]): void {
  describe('status correctness cases', () => {
    it.each(cases)('$id: $behaviour', ({ input, expected, also }) => {
      const d = run(input());
      expect(d.status.jobDeploymentStatus ?? '').toBe(expected.deployment);
      if ('jobStatus' in expected) expect(d.status.jobStatus ?? '').toBe(expected.jobStatus);
      if ('reason' in expected) expect(d.status.reason).toBe(expected.reason);
      if ('message' in expected) expect(d.status.message).toBe(expected.message);
      expect(actionTypes(d)).toEqual(expected.actions);
      expect(d.requeueAfterSeconds).toBe(expected.requeue);
      for (const a of d.actions) if (a.type === 'stopRayJob') expect(a).toMatchObject({ jobId: JOB_ID, dashboardURL: DASHBOARD });
      also?.(d);
    });
  });
}
