// The table the state machine scenarios (state-machine-*.test.ts) are written in: each row runs one decision and
// asserts the whole of it (deployment status, actions, requeue, whether the status changed, and any detail).
import { describe, expect, it } from 'vitest';
import { type Decision, type DecisionInput, type RayJob } from '../../src/index.ts';
import { actionTypes, run } from './fixtures.ts';

export interface StateMachineRow {
  behaviour: string;
  input: () => Partial<DecisionInput> & { rayJob: RayJob };
  deployment: string;
  actions: string[];
  requeue: number | undefined;
  statusChanged?: boolean;
  check?: (d: Decision) => void;
}

export function runStateMachineRows(title: string, rows: StateMachineRow[]): void {
  describe(title, () => {
    it.each(rows)('$behaviour', ({ input, deployment, actions, requeue, statusChanged, check }) => {
      const d = run(input());
      expect(d.status.jobDeploymentStatus ?? '').toBe(deployment);
      expect(actionTypes(d)).toEqual(actions);
      expect(d.requeueAfterSeconds).toBe(requeue);
      if (statusChanged !== undefined) expect(d.statusChanged).toBe(statusChanged);
      check?.(d);
    });
  });
}
