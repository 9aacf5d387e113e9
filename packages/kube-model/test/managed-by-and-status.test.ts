import { describe, expect, it } from 'vitest';
import { DEFAULT_MANAGED_BY, isManagedBy, isTerminalRayJobStatus, RAYJOB_OPERATOR_MANAGED_BY, TERMINAL_RAY_JOB_STATUSES } from '../src/index.ts';

describe('managedBy', () => {
  it.each([
    [undefined, DEFAULT_MANAGED_BY, true],
    [DEFAULT_MANAGED_BY, DEFAULT_MANAGED_BY, true],
    [undefined, RAYJOB_OPERATOR_MANAGED_BY, false],
    [RAYJOB_OPERATOR_MANAGED_BY, RAYJOB_OPERATOR_MANAGED_BY, true],
    ['kueue.x-k8s.io/multikueue', DEFAULT_MANAGED_BY, false],
  ])('managedBy %j is for the controller %s: %s (unset means KubeRay\'s default)', (managedBy, controller, want) => {
    expect(isManagedBy(managedBy, controller)).toBe(want);
  });
});

describe("Ray's terminal job statuses", () => {
  it.each([
    ['STOPPED', true],
    ['SUCCEEDED', true],
    ['FAILED', true],
    ['PENDING', false],
    ['RUNNING', false],
    ['', false],
    [undefined, false],
  ])('%j is terminal: %s', (status, want) => {
    expect(isTerminalRayJobStatus(status)).toBe(want);
    expect(TERMINAL_RAY_JOB_STATUSES.includes(status as never)).toBe(want);
  });
});
