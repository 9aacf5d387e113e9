/**
 * Properties of the decision function over arbitrary RayJobs in every deployment state and submission mode,
 * with arbitrary observations (fast-check). Seeds are fixed so a run is reproducible.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decide, isJobDeploymentTerminal, messages, type Decision, type EnvVar, type RayJobResourceStatus } from '../../src/index.ts';
import { DRIVER_NODE } from './fixtures.ts';
import { decisionInputArb, decisionInputs, MODES, STATES } from './arbitraries.ts';

const params = { numRuns: 1000, seed: 20261202 };

describe('the generators', () => {
  it('reach every deployment state in every submission mode, as input and as output', () => {
    const seenIn = new Set<string>();
    const seenOut = new Set<string>();
    fc.assert(
      fc.property(decisionInputArb, ({ mode, state, input }) => {
        seenIn.add(`${mode}/${state}`);
        seenOut.add(`${mode}/${decide(input).status.jobDeploymentStatus ?? ''}`);
      }),
      { numRuns: 4000, seed: 7 },
    );
    for (const mode of MODES) {
      for (const state of STATES) {
        expect(seenIn, `${mode}/${state} as input`).toContain(`${mode}/${state}`);
        // Waiting exists only in InteractiveMode (validation rejects it elsewhere).
        if (state !== 'Waiting' || mode === 'InteractiveMode') expect(seenOut, `${mode}/${state} as output`).toContain(`${mode}/${state || ''}`);
      }
    }
  });
});

const runningOnLiveDriver = decisionInputs({
  states: ['Running'],
  dashboard: fc.constant({ kind: 'found', info: { status: 'RUNNING', message: 'running', startTime: 1, driverNodeId: DRIVER_NODE } }),
  driverNode: fc.constant({ kind: 'alive', nodeId: DRIVER_NODE }),
  deleting: fc.constant(false),
});

describe('decision properties', () => {
  it('a job seen RUNNING whose driver node is alive never turns terminal because of its submitter', () => {
    fc.assert(
      fc.property(runningOnLiveDriver, ({ input }) => {
        const d = decide(input);
        if (!isJobDeploymentTerminal(d.status.jobDeploymentStatus) && d.status.jobDeploymentStatus !== 'Retrying') return;
        // Terminal is allowed only for reasons that are not the submitter's: a deadline, a vanished cluster or
        // head, the status-check timer.
        const allowed = new Set<string>([messages.headPodNotFound]);
        expect(d.status.reason === 'DeadlineExceeded' || allowed.has(d.status.message ?? '') || d.status.message?.includes('was deleted while the RayJob was running'), `${d.status.reason}: ${d.status.message}`).toBe(true);
      }),
      params,
    );
  });

  it('Complete and Failed are left only through Retrying (same reconcile) or deletion', () => {
    fc.assert(
      fc.property(decisionInputArb, ({ input }) => {
        const before = input.rayJob.status?.jobDeploymentStatus;
        const d = decide(input);
        if (isJobDeploymentTerminal(before)) expect(d.status.jobDeploymentStatus).toBe(before);
        if (d.status.jobDeploymentStatus === 'Retrying' && before !== 'Retrying') expect(isJobDeploymentTerminal(before)).toBe(false);
      }),
      params,
    );
  });

  it('a decision never asks for a status write when nothing changed, and always does when something did', () => {
    fc.assert(
      fc.property(decisionInputArb, ({ input }) => {
        const d = decide(input);
        const before = withoutUndefined(input.rayJob.status ?? { failed: 0, succeeded: 0 });
        const after = withoutUndefined(d.status);
        expect(d.statusChanged).toBe(!isDeepStrictEqual(before, after));
        if (!d.statusChanged) expect(d.writeStatusFirst).toBe(false);
      }),
      params,
    );
  });

  it('every Failed has a reason and a message', () => {
    fc.assert(
      fc.property(decisionInputArb, ({ input }) => {
        const d = decide(input);
        const entered = d.status.jobDeploymentStatus !== input.rayJob.status?.jobDeploymentStatus;
        if (entered && (d.status.jobDeploymentStatus === 'Failed' || d.status.jobDeploymentStatus === 'ValidationFailed')) {
          expect(d.status.reason).toBeTruthy();
          expect(d.status.message).toBeTruthy();
        }
      }),
      params,
    );
  });

  it('no decision creates anything before the names it uses are persisted', () => {
    fc.assert(
      fc.property(decisionInputArb, ({ input }) => {
        const persisted = input.rayJob.status ?? {};
        const d = decide(input);
        for (const action of d.actions) {
          if (action.type === 'createCluster') {
            expect(action.cluster.metadata.name).toBeTruthy();
            expect(action.cluster.metadata.name).toBe(persisted.rayClusterName);
            for (const c of action.cluster.spec?.headGroupSpec.template.spec?.containers ?? []) assertIdsPersisted(c.env, persisted);
          }
          if (action.type === 'createSubmitterJob') {
            expect(persisted.dashboardURL).toBeTruthy();
            for (const c of action.job.spec?.template.spec?.containers ?? []) assertIdsPersisted(c.env, persisted);
          }
          if (action.type === 'submitRayJob') {
            expect(action.request.submission_id).toBeTruthy();
            expect(action.request.submission_id).toBe(persisted.jobId);
            expect(action.dashboardURL).toBe(persisted.dashboardURL);
          }
        }
      }),
      params,
    );
  });

  it('is deterministic: the same input gives the same decision', () => {
    fc.assert(
      fc.property(decisionInputArb, ({ input }) => {
        const fresh = () => ({ ...input, random: seeded() });
        expect(strip(decide(fresh()))).toEqual(strip(decide(fresh())));
      }),
      { numRuns: 500, seed: 3 },
    );
  });
});

function assertIdsPersisted(env: EnvVar[] | undefined, persisted: RayJobResourceStatus): void {
  for (const e of env ?? []) {
    if (e.name === 'RAY_JOB_SUBMISSION_ID') expect(e.value).toBe(persisted.jobId);
    if (e.name === 'RAY_DASHBOARD_ADDRESS' && !e.value?.includes('127.0.0.1')) expect(e.value).toBe(`http://${persisted.dashboardURL}`);
  }
}

function withoutUndefined(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

function seeded(): () => number {
  let x = 1;
  return () => ((x = (x * 48271) % 2147483647) / 2147483647);
}

const strip = (d: Decision) => JSON.parse(JSON.stringify(d));
