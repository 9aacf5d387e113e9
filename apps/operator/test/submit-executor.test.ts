// HTTPMode's submission through the executor: a job Ray accepted counts as seen at once, so a head lost before
// the next look gives the head-lost verdict instead of a second submission to the replacement head (addition H).
import { type Decision, type OperatorMemory, type RayCluster, type RayJob } from '@rayjob/core';
import { describe, expect, it } from 'vitest';
import type { KubeClient } from '@rayjob/kube-runtime';
import type { DashboardClients } from '../src/controllers/rayjob/dashboards.ts';
import { executeDeps, executeOnce } from './support/rayjob-execute.ts';

const rayJob = { apiVersion: 'ray.io/v1', kind: 'RayJob', metadata: { name: 'rj', namespace: 'default', uid: 'uid-rj', resourceVersion: '7' }, spec: {} } as RayJob;
const request = { entrypoint: 'python job.py', submission_id: 'rj-abcde' };
const decision: Decision = {
  status: { jobDeploymentStatus: 'Running', jobStatus: '', jobId: 'rj-abcde' },
  statusChanged: false,
  writeStatusFirst: false,
  actions: [{ type: 'submitRayJob', dashboardURL: 'rj-head-svc.default.svc:8265', request }],
  requeueAfterSeconds: 3,
  memory: {},
  notes: [],
  conditionEvents: [],
};

const writes: unknown[] = [];
function dashboardsAnswering(answer: { kind: string; message?: string; status?: number }): DashboardClients {
  const client = { submit: async () => answer };
  return { clientFor: async () => ({ ok: true, client }), close: async () => undefined } as unknown as DashboardClients;
}

const client = { replaceStatus: async (_type: unknown, j: RayJob) => (writes.push(j.status), { ok: true, value: j }) } as unknown as KubeClient;
const cluster = { apiVersion: 'ray.io/v1', kind: 'RayCluster', metadata: { name: 'rj-xyz', namespace: 'default' }, spec: {} } as RayCluster;

async function memoryAfterSubmit(answer: { kind: string; message?: string; status?: number }, memory: OperatorMemory = {}): Promise<OperatorMemory> {
  const outcome = await executeOnce(rayJob, { ...decision, memory }, executeDeps(client, { dashboards: dashboardsAnswering(answer), cluster }));
  return outcome.memory;
}

describe('the executor remembers what a submission told it', () => {
  it.each([
    { name: 'accepted: seen as PENDING', answer: { kind: 'ok', value: { submission_id: 'rj-abcde' } }, seen: { jobId: 'rj-abcde', status: 'PENDING' }, failed: false },
    { name: 'already exists (an earlier pass submitted it): seen', answer: { kind: 'already-exists', status: 500, message: 'Please use a different submission_id' }, seen: { jobId: 'rj-abcde', status: 'PENDING' }, failed: false },
    { name: 'refused: not seen, the failure remembered', answer: { kind: 'unavailable', message: 'connection refused' }, seen: undefined, failed: true },
  ])('$name', async ({ answer, seen, failed }) => {
    const memory = await memoryAfterSubmit(answer);
    expect(memory.rayJobSeen).toEqual(seen);
    expect(memory.submitFailure !== undefined).toBe(failed);
  });

  it('a status already seen for the job is kept (a resubmission answered "already exists" does not turn RUNNING back)', async () => {
    const memory = await memoryAfterSubmit({ kind: 'already-exists', status: 500, message: 'exists' }, { rayJobSeen: { jobId: 'rj-abcde', status: 'RUNNING' } });
    expect(memory.rayJobSeen).toEqual({ jobId: 'rj-abcde', status: 'RUNNING' });
  });
});

describe('an accepted submission is recorded in the same reconcile\'s status write', () => {
  // core's onAccept: the decided status with PENDING and the conditions that say so (status-writes.test.ts in core).
  const onAccept: NonNullable<Decision['onAccept']> = { status: { jobDeploymentStatus: 'Running', jobStatus: 'PENDING', jobId: 'rj-abcde', conditions: [] }, conditionEvents: [] };
  it.each([
    { name: 'accepted: core\'s onAccept written although core saw no change', answer: { kind: 'ok', value: { submission_id: 'rj-abcde' } }, written: [onAccept.status] },
    { name: 'refused: nothing written', answer: { kind: 'unavailable', message: 'connection refused' }, written: [] },
  ])('$name', async ({ answer, written }) => {
    writes.length = 0;
    const submitting: Decision = { ...decision, onAccept };
    await executeOnce(rayJob, submitting, executeDeps(client, { dashboards: dashboardsAnswering(answer), cluster }));
    expect(writes).toEqual(written);
  });
});
